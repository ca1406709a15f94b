"""No project jargon in code, pages or docs: the numbered design documents the project began
from ("seed" and three digits) and its tracker's numbers ("issue" and a number) mean nothing
to a reader; a comment or a page says what it means instead. (A random generator's seed is
not jargon.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {".venv", ".git", "node_modules", "staticfiles", "__pycache__", ".ruff_cache",
           ".mypy_cache", "shared"}  # fmt: skip
SUFFIXES = {".py", ".js", ".html", ".css", ".md", ".txt", ".java", ".yml", ".toml", ".ini"}
JARGON = re.compile(r"\bseeds? 0\d\d\b|\bissue " + r"\d+\b", re.IGNORECASE)


def files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if SKIPPED & set(parts) or not path.is_file():
            continue
        if path.suffix in SUFFIXES or path.name == "Makefile":
            found.append(path)
    return found


def test_no_project_jargon_in_code_pages_or_docs():
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if JARGON.search(line)
    ]
    assert hits == []


def test_the_jargon_is_recognised():
    examples = ("the setup tray (Seed" + " 000)", "see issue" + " 12")  # (split: not jargon here)
    assert all(JARGON.search(example) for example in examples)
    assert not JARGON.search("random.Random(seed) 2026, issued a token")

"""The game client's scripts put no English words on the page without gettext: a literal that
becomes a node's text, a placeholder, a title or an aria-label, a notice, or a setup note
holds words only inside `_()` (the words in `${...}` are values, checked where they are
made)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "static").rglob("*.js"))
LITERAL = r"""(?P<text>"[^"\n]*"|`[^`\n]*`)"""
SHOWN = [
    re.compile(r"\.(?:textContent|placeholder|title)\s*=\s*(?:[^;\n]*?\?\s*)?" + LITERAL),
    re.compile(r"""setAttribute\(\s*"(?:aria-label|title|placeholder)",\s*""" + LITERAL),
    re.compile(r"\bnotify\(\s*\{?[^,]*,\s*" + LITERAL),
    re.compile(r"\b(?:label|setupNote):\s*" + LITERAL),
    re.compile(r"\bparts\.push\(\s*" + LITERAL),
]
WORD = re.compile(r"[A-Za-z]{2,}")
NOT_WORDS = {"BOT"}  # the bot mark is the same in every language


def words_outside_values(literal: str) -> list[str]:
    text = re.sub(r"\$\{[^}]*\}", " ", literal[1:-1])
    text = re.sub(r"\$\{.*", " ", text)  # a value holding a nested literal
    return [w for w in WORD.findall(text) if w not in NOT_WORDS]


def test_the_scripts_show_no_untranslated_literal():
    found = []
    for path in SCRIPTS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//")[0] if not line.lstrip().startswith("//") else ""
            for pattern in SHOWN:
                for match in pattern.finditer(code):
                    if words_outside_values(match.group("text")):
                        found.append(f"{path.relative_to(ROOT)}:{number}: {match.group('text')}")
    assert found == [], "words a person reads without gettext"


def test_the_check_catches_what_it_should():
    """The patterns find the kinds of slips they are for (and leave translated ones)."""
    slips = [
        'el.textContent = "Connection lost";',
        'input.placeholder = input.disabled ? "You cannot chat now" : _("Say something");',
        'cell.setAttribute("aria-label", `${name} lake`);',
        'return notify(state, "A draw is offered.", "info", at);',
        'page.update({ setupNote: "Loading the saved setup…" });',
        'if (marks.selected === square) parts.push("selected");',
    ]
    for slip in slips:
        assert any(
            words_outside_values(m.group("text")) for p in SHOWN for m in p.finditer(slip)
        ), slip
    fine = 'el.textContent = _("Connection lost"); el.title = `${a} · ${b}`;'
    assert not any(words_outside_values(m.group("text")) for p in SHOWN for m in p.finditer(fine))

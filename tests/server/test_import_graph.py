"""The services, presence and computer modules do not import each other in a circle (at
module level or inside functions): presence and the services talk back through hooks."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
MODULES = ("services", "presence", "computer", "snapshots", "broadcast", "background")


def imports_of(name: str) -> set[str]:
    """The games modules `games/<name>.py` (or every module of the package `games/<name>/`)
    imports, anywhere in the file."""
    package = GAMES / name
    paths = sorted(package.glob("*.py")) if package.is_dir() else [GAMES / f"{name}.py"]
    depth = 2 if package.is_dir() else 1  # the level of a relative import of `games`
    found: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == depth:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games."):
                found.add(node.module.split(".")[1])
    return found


def test_no_import_cycle_among_the_live_modules():
    graph = {name: imports_of(name) & set(MODULES) for name in MODULES}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph[start]:
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    cycles = [name for name in MODULES if reaches(name, name, {name})]
    assert cycles == [], graph

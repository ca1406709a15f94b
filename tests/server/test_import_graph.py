"""The server's packages import each other without a circle, counting every import in a
file: at module level, inside functions and under TYPE_CHECKING. Each module is a node;
`from package import module` is an edge to the module, `from module import name` to the
module."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_SERVER = {"tests", "bench", "scripts", "deploy", "docs"}


def server_packages() -> list[str]:
    """Every top-level package of the checkout but the tests' and the tools'."""
    return sorted(
        p.name for p in ROOT.iterdir() if (p / "__init__.py").exists() and p.name not in NOT_SERVER
    )


def modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, whether it is a package's __init__), migrations left out."""
    found = {}
    for package in server_packages():
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()

    def nearest(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in known.items():
        package = name if is_package else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(filter(None, (nearest(alias.name) for alias in node.names)))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in known else nearest(base)
                    if target:
                        targets.add(target)
        targets.discard(name)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_covers_every_module_of_the_server():
    graph = import_graph()
    for name in ("games.services.match", "games.services.cleanup", "games.presence"):
        assert name in graph
    files = [p for p in (ROOT / "games").rglob("*.py") if "migrations" not in p.parts]
    assert len([n for n in graph if n == "games" or n.startswith("games.")]) == len(files)


def test_no_import_circle_anywhere_in_the_server():
    assert circles(import_graph()) == []


def test_circles_finds_a_circle_of_three_and_leaves_out_who_only_points_into_it():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]

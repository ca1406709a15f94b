"""The server's packages import each other without a circle, counting every import in a
file: at module level, inside functions and under TYPE_CHECKING. Each module is a node;
`from package import module` is an edge to the module, `from module import name` to the
module. And the layers of docs/architecture.md hold: engine -> domain -> services ->
transport -> apps (tournaments) -> site, a layer importing only those before it; the client
programs (clients/) only the engine and the computer players."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_SERVER = {"tests", "bench", "scripts", "deploy", "docs"}


def server_packages(root: Path = ROOT) -> list[str]:
    """Every top-level package of the checkout but the tests' and the tools'."""
    return sorted(
        p.name for p in root.iterdir() if (p / "__init__.py").exists() and p.name not in NOT_SERVER
    )


def modules(root: Path = ROOT) -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, whether it is a package's __init__), migrations left out."""
    found = {}
    for package in server_packages(root):
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)

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


# The layers, lowest first, by module prefix (the first that matches). games' own top-level
# modules (views, urls, admin, the reactions' wiring) are Django's entry points: the site.
LAYERS = (
    ("engine", ("games.engine", "games.bots")),
    ("domain", ("games.domain", "games.models")),
    ("services", ("games.services",)),
    ("transport", ("games.transport",)),
    ("apps", ("tournaments",)),  # an app built on the games: its services, sockets, pages
    ("site", ("games", "stratego_site")),
)
CLIENTS_MAY_IMPORT = ("clients", "games.engine", "games.bots")


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(name: str) -> int | None:
    for depth, (_, prefixes) in enumerate(LAYERS):
        if any(under(name, prefix) for prefix in prefixes):
            return depth
    return None  # another app (players, lobby...): only the circles rule applies


def layer_breaches(graph: dict[str, set[str]]) -> list[str]:
    breaches = []
    for name, targets in sorted(graph.items()):
        for target in sorted(targets):
            mine, theirs = layer_of(name), layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                breaches.append(f"{name} ({LAYERS[mine][0]}) -> {target} ({LAYERS[theirs][0]})")
            client = under(name, "clients")
            if client and not any(under(target, p) for p in CLIENTS_MAY_IMPORT):
                breaches.append(f"{name} (a client program) -> {target}")
    return breaches


SERVER = {"games", "lobby", "players", "tournaments", "botapi", "moderation", "learn",
          "stratego_site", "clients"}  # fmt: skip


def test_the_graph_covers_every_module_of_the_server():
    """Every Python file of every package of the checkout is a node (the tests' and the tools'
    aside; migrations too: Django runs them, no module imports one)."""
    graph = import_graph()
    assert set(server_packages()) >= SERVER
    for name in ("games.services.match", "games.services.cleanup", "games.transport.presence"):
        assert name in graph
    files = [
        path
        for package in server_packages()
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]
    assert len(graph) == len(files)


def test_no_module_imports_a_migration():
    """(So leaving the migrations out of the graph hides no circle.)"""
    importers = []
    for name, (path, _) in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                dotted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                dotted = [f"{node.module or ''}.{alias.name}" for alias in node.names]
            else:
                continue
            if any("migrations" in d.split(".") for d in dotted):
                importers.append(name)
    assert importers == []


def test_no_import_circle_anywhere_in_the_server():
    assert circles(import_graph()) == []


def test_no_layer_imports_a_higher_one():
    assert layer_breaches(import_graph()) == []


def test_a_breach_of_the_layers_is_found():
    graph = {"games.services.x": {"games.transport.y"}, "clients.z": {"games.services.x"}}
    assert layer_breaches(graph) == [
        "clients.z (a client program) -> games.services.x",
        "games.services.x (services) -> games.transport.y (transport)",
    ]


def test_circles_finds_a_circle_of_three_and_leaves_out_who_only_points_into_it():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_an_import_inside_a_function_or_for_types_only_counts(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def late():\n    from . import b\n    return b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.c import C\n"
    )
    (package / "c.py").write_text("import pkg.a\n")
    assert circles(import_graph(tmp_path)) == [["pkg.a", "pkg.b", "pkg.c"]]

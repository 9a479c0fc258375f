"""One direction between modules (issues 23 and 40): no import circle under ``src/big2``.

Every module is parsed with :mod:`ast` (nothing is imported), its imports become
edges of a graph, and any strongly connected component of more than one module,
or a module importing itself, fails the test with the circle named. Two graphs
are checked: the module-level imports (what importing a module runs), and every
import anywhere in a module — inside functions (made when called, a circle that
only waits for its first call) and under ``if TYPE_CHECKING:`` (a circle of
types) too. An import names the module it reads from: ``from big2.svg import
_draw`` is an edge to ``big2.svg._draw``, ``from big2.cards import Mask`` one
to ``big2.cards``; a package's ``__init__`` running first is not counted as an
edge.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "big2"


def modules(root: Path = PACKAGE) -> dict[str, tuple[Path, bool]]:
    """Every module under *root*: dotted name -> (file, is a package). A
    compiled module counts by its stub (``big2/_native.pyi``: the C++ core,
    which imports nothing of the package)."""
    out = {}
    stubs = [p for p in root.rglob("*.pyi") if not p.with_suffix(".py").exists()]
    for path in sorted([*root.rglob("*.py"), *stubs]):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        out[".".join(parts)] = (path, package)
    return out


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
            or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports run when the module is imported: its top level, including
    inside ``if``/``try``/``with`` blocks and class bodies, but not inside
    functions nor under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def walk(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                found.append(stmt)
            elif isinstance(stmt, ast.If):
                if not _type_checking(stmt.test):
                    walk(stmt.body)
                walk(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                walk(stmt.body)
                walk(stmt.orelse)
                walk(stmt.finalbody)
                for handler in stmt.handlers:
                    walk(handler.body)
            elif isinstance(stmt, (ast.With, ast.For, ast.While, ast.ClassDef)):
                walk(stmt.body)

    walk(tree.body)
    return found


def every_import(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, wherever it stands: the top level,
    function bodies, class bodies, ``if TYPE_CHECKING:`` blocks."""
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def _owner(name: str, known: dict[str, tuple[Path, bool]]) -> str | None:
    """*name* or the innermost module of ours that contains it."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


@cache
def _parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for every check here."""
    return ast.parse(path.read_text(), str(path))


def import_graph(root: Path = PACKAGE, *, deferred: bool = False) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports at module level (with
    *deferred*: anywhere, :func:`every_import`)."""
    known = modules(root)
    graph: dict[str, set[str]] = {}
    found = every_import if deferred else module_level_imports
    for name, (path, package) in known.items():
        here = name if package else name.rpartition(".")[0]
        targets: set[str] = set()
        for stmt in found(_parsed(path)):
            if isinstance(stmt, ast.Import):
                targets.update(t for a in stmt.names if (t := _owner(a.name, known)))
                continue
            if stmt.level:
                base = here.split(".")[: len(here.split(".")) - stmt.level + 1]
                source = ".".join(base + ([stmt.module] if stmt.module else []))
            else:
                source = stmt.module or ""
            for alias in stmt.names:
                sub = f"{source}.{alias.name}"
                target = sub if sub in known else _owner(source, known)
                if target:
                    targets.add(target)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, and modules that
    import themselves (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root, edges_of_root in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(edges_of_root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.append(sorted(component))
    return found


def _describe(component: list[str], graph: dict[str, set[str]]) -> str:
    members = set(component)
    edges = [f"{a} -> {b}" for a in component for b in sorted(graph[a] & members)]
    return f"{' <-> '.join(component)} ({'; '.join(edges)})"


def test_no_module_level_import_circle_in_big2() -> None:
    graph = import_graph()
    assert len(graph) > 100 and "big2.game" in graph  # the whole package was read
    found = circles(graph)
    assert not found, "import circles under src/big2 (give each one direction):\n" + "\n".join(
        _describe(c, graph) for c in found)


def test_no_import_circle_in_big2_even_through_deferred_imports() -> None:
    """Counting the imports inside functions and under ``TYPE_CHECKING`` too: a
    module that needs another only when called, or only for a type, still depends
    on it, and the two are given one direction (issue 40)."""
    graph = import_graph(deferred=True)
    assert len(graph) > 100 and "big2.variant.native" in graph
    found = circles(graph)
    assert not found, "import circles under src/big2, deferred imports counted:\n" + "\n".join(
        _describe(c, graph) for c in found)


def test_every_import_counts_functions_and_type_checking() -> None:
    tree = ast.parse(
        "import os\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from big2.game import Game\n"
        "def f():\n    from big2.match import Match\n"
        "class C:\n    def g(self):\n        import big2.view\n")
    names = sorted(a.name if isinstance(s, ast.Import) else f"{s.module}.{a.name}"
                   for s in every_import(tree) for a in s.names)
    assert names == ["big2.game.Game", "big2.match.Match", "big2.view", "os",
                     "typing.TYPE_CHECKING"]


def test_the_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert sorted(circles(graph)) == [["a", "b", "c"], ["e"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_function_and_type_checking_imports_are_not_edges() -> None:
    tree = ast.parse(
        "import os\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from big2.game import Game\n"
        "try:\n    import big2.cards\nexcept ImportError:\n    pass\n"
        "def f():\n    from big2.match import Match\n"
        "class C:\n    from big2 import view\n")
    names = [a.name if isinstance(s, ast.Import) else f"{s.module}.{a.name}"
             for s in module_level_imports(tree) for a in s.names]
    assert names == ["os", "typing.TYPE_CHECKING", "big2.cards", "big2.view"]


def test_the_core_has_no_circle_even_through_deferred_imports() -> None:
    """The game's own files (``game``, ``position``, ``actions``) and everything
    below them have no circle even counting imports inside functions and under
    ``TYPE_CHECKING``: the game's classes reach each other one way only."""
    known = modules()
    core = {"big2.game", "big2.position", "big2.native_deal", "big2.python_deal", "big2.actions",
            "big2.view",
            "big2.cards", "big2.rules", "big2.presets"}
    graph: dict[str, set[str]] = {}
    for name in core:
        path, _ = known[name]
        tree = ast.parse(path.read_text(), str(path))
        graph[name] = {t for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                       if (t := _owner(n.module, known)) in core}
    assert circles(graph) == []


CORE_LAYERS = (
    ("big2.cards", "big2.log", "big2.i18n"),
    ("big2.rules", "big2.presets"),
    ("big2._native", "big2.variant", "big2.house"),
    ("big2.view",),
    ("big2.python_deal", "big2.native_deal", "big2.position", "big2.actions", "big2.game"),
    ("big2.match",),
)
"""The core's floors, lowest first, as docs/architecture.md's layer table gives
them (a name covers its package's modules)."""


def _floor(module: str) -> int | None:
    for i, row in enumerate(CORE_LAYERS):
        if any(module == top or module.startswith(top + ".") for top in row):
            return i
    return None


def test_the_core_imports_only_from_its_own_floor_or_below() -> None:
    """docs/architecture.md's import rule, counting every import (in functions and
    under ``TYPE_CHECKING`` too): a core module reads only from its floor or the
    floors below, and never from a use or a front end (records, svg, bots, env,
    protocol, arena, cli, terminal, server)."""
    known = modules()
    broken = []
    for name, (path, _) in known.items():
        floor = _floor(name)
        if floor is None:
            continue
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                sources = [node.module]
            elif isinstance(node, ast.Import):
                sources = [a.name for a in node.names]
            else:
                continue
            for source in sources:
                target = _owner(source, known)
                if target is None:
                    continue
                to = _floor(target)
                if to is None or to > floor:
                    broken.append(f"{name} -> {target} (line {node.lineno})")
    assert not broken, "imports against the layer order:\n" + "\n".join(broken)


NATIVE_GATEWAYS = {"big2.poker.native": "big2._native.poker",
                   "big2.bots.rules_based.native": "big2._native.bots"}
"""Modules outside the variant that may import one part of the compiled core: the poker
ranker's gateway to its own submodule, and the heuristic bot's to its own (its decision
and the expert's play-outs; docs/architecture.md, "The compiled core")."""


def test_only_the_variant_reaches_the_compiled_core() -> None:
    """The C++ core (``big2._native``) sits under the variant and is imported by
    ``big2.variant``'s modules alone, but for :data:`NATIVE_GATEWAYS`, each importing
    only its own submodule (docs/architecture.md)."""
    known = modules()
    assert "big2._native" in known
    outside = []
    for name, (path, _) in known.items():
        if name == "big2.variant" or name.startswith("big2.variant."):
            continue
        for node in ast.walk(_parsed(path)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [f"{node.module}.{a.name}" for a in node.names]
                     if isinstance(node, ast.ImportFrom) and node.module else [])
            core = [n for n in names if n == "big2._native" or n.startswith("big2._native.")]
            if any(n != NATIVE_GATEWAYS.get(name) for n in core):
                outside.append(f"{name} (line {node.lineno})")
    assert not outside, "the compiled core imported outside the variant: " + ", ".join(outside)



def folder(module: str, known: dict[str, tuple[Path, bool]]) -> str:
    """The unit a module belongs to for :func:`folder_graph`: its core floor
    (a row of :data:`CORE_LAYERS`, whose modules may import each other), else
    the package right under ``big2`` that holds it (``big2.records.record`` ->
    ``big2.records``), else the top-level module itself (``big2.review``)."""
    floor = _floor(module)
    if floor is not None:
        return "+".join(CORE_LAYERS[floor])
    parts = module.split(".")
    top = ".".join(parts[:2])
    return top if known.get(top, (None, False))[1] else module


def runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports that run at some point: :func:`every_import` less those
    under ``if TYPE_CHECKING:`` (types only)."""
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking(node.test):
            typing_only.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return [n for n in every_import(tree) if id(n) not in typing_only]


def folder_graph() -> dict[str, set[str]]:
    """Folder -> the folders it imports from at run time (:func:`folder`;
    imports inside functions counted, ``TYPE_CHECKING`` ones not)."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, (path, package) in known.items():
        here = folder(name, known)
        targets = graph.setdefault(here, set())
        for stmt in runtime_imports(_parsed(path)):
            if isinstance(stmt, ast.ImportFrom):
                if stmt.level or not stmt.module:
                    continue  # the package uses absolute imports (a relative one stays inside)
                sources = [f"{stmt.module}.{a.name}" for a in stmt.names]
            else:
                sources = [a.name for a in stmt.names]
            for source in sources:
                target = _owner(source, known)
                if target is not None and (there := folder(target, known)) != here:
                    targets.add(there)
    return graph


def test_no_folder_level_import_circle_at_run_time() -> None:
    """A front end sits above the wings it drives (issue 54): no two folders (a
    package under ``big2``, a core floor, a top-level module) import each other,
    even through imports made inside functions. ``big2.records.cli`` once read
    ``big2.cli_checks`` and ``big2.review``, which read ``big2.records``; the
    commands now live in ``big2.commands``."""
    graph = folder_graph()
    assert {"big2.records", "big2.commands", "big2.bots", "big2.review"} <= set(graph)
    found = circles(graph)
    assert not found, "folder-level import circles (move the front end up):\n" + "\n".join(
        _describe(c, graph) for c in found)


def test_the_folder_check_finds_a_wing_importing_its_front_end() -> None:
    known = modules()
    assert folder("big2.records.record", known) == "big2.records"
    assert folder("big2.review", known) == "big2.review"
    assert folder("big2.game", known) == folder("big2.position", known)
    tree = ast.parse("from typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n    from big2.game import Game\n"
                     "def f():\n    from big2.review import review\n")
    assert [s.module for s in runtime_imports(tree) if isinstance(s, ast.ImportFrom)] == [
        "typing", "big2.review"]
    assert folder_graph()["big2.arena"].isdisjoint({"big2.cli", "big2.commands"})


def test_no_wing_imports_the_command_line() -> None:
    """``big2.cli`` and ``big2.commands`` are front ends: nothing outside them
    imports them (the arena once imported ``big2.cli`` for its rules parser)."""
    graph = folder_graph()
    fronts = {"big2.cli", "big2.commands"}
    users = sorted(f for f, targets in graph.items() if f not in fronts and targets & fronts)
    assert users == [], f"wings importing the command line: {users}"

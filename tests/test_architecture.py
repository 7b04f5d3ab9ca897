"""The shape of the code: no import circles, between modules or between packages, modules small
enough to read, each module importable on its own."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "gui", "settings", "service", "paperlens_mcp", "paperlens_ocrmypdf")
"""The installed packages: each of their modules imports first in a fresh interpreter."""
TOOLS = ("tools",)
"""Developer tooling (not installed; some of it needs the optional train extra to import): held
to the same import direction and module size as the installed packages."""
MAX_LINES = 400


def modules(packages: tuple[str, ...] = PACKAGES + TOOLS) -> dict[str, Path]:
    found = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Project modules `name` imports anywhere in its file (type-checking and lazy imports
    included: a circle drawn only at run time is still a circle)."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from pkg import module` depends on the module; `from pkg import name` on pkg.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            # `import engine.models.store` depends on engine.models.store, not on its parents'
            # faces, which only hand names on.
            if target in known and target != name:
                found.add(target)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
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

    for node in graph:
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def test_no_import_circles():
    graph = import_graph()
    assert "tools.formula.render" in graph["tools.formula_images.tex"]  # tools/ is read too
    assert circles(graph) == []


def test_the_circle_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def package_of(module: str) -> str:
    """The part of the code a module belongs to when packages are compared: a room of a top
    package (engine.ocr, tools.formula), or a module standing directly in one (engine.page,
    gui.main_window)."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Package -> the packages its modules import (a package's imports of itself left out)."""
    packages: dict[str, set[str]] = {}
    for name, targets in graph.items():
        packages.setdefault(package_of(name), set()).update(
            package_of(target) for target in targets if package_of(target) != package_of(name))
    for targets in list(packages.values()):
        for target in targets:
            packages.setdefault(target, set())
    return packages


def test_no_package_imports_a_package_that_imports_it():
    """Package A importing B while B imports A, even through other modules than the ones A
    imports (no module circle), is one concern split in two or a concern in the wrong room:
    the layers of docs/ARCHITECTURE.md only point down."""
    assert circles(package_graph(import_graph())) == []


def test_the_package_check_finds_a_loop_through_different_modules():
    graph = {"engine.page": {"engine.input.document"}, "engine.input.document": set(),
             "engine.input.stage": {"engine.page"}, "engine.ocr.stage": {"engine.page"}}
    assert circles(graph) == []
    assert circles(package_graph(graph)) == [["engine.input", "engine.page"]]


def test_no_module_is_too_long_to_read():
    long = {name: n for name, path in modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def outside_imports(paths) -> list[str]:
    """What our modules import from outside the project when they are imported (their
    module-level imports: standard library and third-party), to be loaded once before every
    module is imported first: their loading is most of the cost, and says nothing about the
    order of our own imports."""
    ours = set(PACKAGES) | {"resources", "tools", "tests"}
    found = set()
    for path in paths:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module)
    return sorted(name for name in found if name.split(".")[0] not in ours)


def test_each_module_imports_first_in_a_fresh_interpreter():
    """Every module imported as the first of ours in its own interpreter: a module that works
    only when another was imported before it fails here. One interpreter for them all, each
    module in a child forked from it (tests/fresh_imports.py), and no child for a module another
    child already imported as if first."""
    known = modules(PACKAGES)
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    # The largest first: their children import the most of the others as if first.
    names = sorted(known, key=lambda name: (-len(closure(graph, name)), name))
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "fresh_imports.py"),
                             ",".join(PACKAGES), ",".join(outside_imports(known.values())),
                             *names], cwd=ROOT,
                            capture_output=True, text=True, timeout=600,
                            env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin",
                                 "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stdout + result.stderr


def closure(graph: dict[str, set[str]], name: str) -> set[str]:
    """The modules `name` imports in `graph`, directly or through others."""
    seen, todo = set(), [name]
    while todo:
        for child in graph.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


FRONT_ENDS = ("gui", "service", "paperlens_mcp", "paperlens_ocrmypdf")
PUBLIC_API = "engine.api"


def engine_imports(source: str) -> set[str]:
    """The engine modules a file's source imports, anywhere in it (lazy imports and
    importlib.import_module("engine...") calls included): `from engine import api` names
    engine.api, `from engine import events` names engine.events."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            targets = ([f"engine.{alias.name}" for alias in node.names]
                       if node.module == "engine" else [node.module])
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None))
              in ("import_module", "__import__")):
            targets = [node.args[0].value]
        else:
            continue
        found.update(t for t in targets if t == "engine" or t.startswith("engine."))
    return found


def test_front_ends_import_the_engine_only_through_its_api():
    """gui/, service/, the MCP server and the OCRmyPDF plugin use engine.api, the declared API
    (docs/api.md), and never a room of the engine: what they need is named there."""
    elsewhere = {}
    for name, path in modules(FRONT_ENDS).items():
        if name.split(".")[0] in FRONT_ENDS:
            other = engine_imports(path.read_text(encoding="utf-8")) - {PUBLIC_API}
            if other:
                elsewhere[name] = sorted(other)
    assert elsewhere == {}


def test_the_front_door_check_finds_every_way_in():
    source = ("from engine.api import Engine\n"
              "from engine import api, events\n"
              "import engine.types\n"
              "def later():\n"
              "    from engine.input.document import open_document\n"
              "    importlib.import_module('engine.recipe')\n"
              "from enginex import y\n")
    assert engine_imports(source) == {"engine.api", "engine.events", "engine.types",
                                      "engine.input.document", "engine.recipe"}


def test_the_api_hands_on_nothing_from_another_front_end():
    """The CLI is a front end like the window: what it shares with the others (output names,
    the device status in words) lives in the room it is about, and the API names it there."""
    import engine.api

    rooms = {room for room, _ in engine.api._WHERE.values()}
    assert not {room for room in rooms if room.startswith("engine.cli")}


def test_nothing_in_the_engine_imports_its_api():
    """engine.api faces outward: an engine module that imported it could close a circle
    through any room the API names."""
    inside = sorted(name for name, path in modules(("engine",)).items()
                    if name.split(".")[0] == "engine" and name != PUBLIC_API
                    and PUBLIC_API in engine_imports(path.read_text(encoding="utf-8")))
    assert inside == []

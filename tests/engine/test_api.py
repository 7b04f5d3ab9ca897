"""engine.api, the declared API: every public name resolves, the type checkers' view names the
same, importing it costs nothing, and the errors and events a program meets are all public."""

from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import engine.api as api
from engine import errors, events

API_SOURCE = Path(api.__file__)


def test_every_public_name_resolves_to_its_room():
    for name in api.__all__:
        room, there = api._WHERE[name]
        assert getattr(api, name) is getattr(sys.modules[room], there), name


def test_the_type_checkers_view_names_exactly_the_public_names():
    """The TYPE_CHECKING imports at the end of engine/api.py are the registry, spelled for
    type checkers: the same public names from the same rooms."""
    block = next(node for node in ast.parse(API_SOURCE.read_text(encoding="utf-8")).body
                 if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING")
    seen = {alias.asname or alias.name: (node.module, alias.name)
            for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert seen == api._WHERE


def test_an_unknown_name_says_where_the_public_ones_are():
    with pytest.raises(AttributeError, match="engine.api.__all__"):
        api.OutputWriter  # noqa: B018 - internal: engine/output/writer.py
    assert set(api.__all__) <= set(dir(api))


def test_every_engine_error_and_event_is_public():
    """A program catches what the engine raises and reads what it delivers by public names."""
    public = {id(getattr(api, name)) for name in api.__all__}
    raised = [c for _, c in inspect.getmembers(errors, inspect.isclass)
              if issubclass(c, errors.PaperlensError) and c.__module__ == errors.__name__]
    delivered = [c for _, c in inspect.getmembers(events, inspect.isclass)
                 if c.__module__ == events.__name__]
    assert [c.__name__ for c in raised + delivered if id(c) not in public] == []


def test_importing_the_api_loads_nothing_heavy():
    """The window and the HTTP server take constants and error classes from engine.api without
    OpenCV, MuPDF or ONNX Runtime; the engine's rooms load with the names that need them."""
    code = ("import sys\n"
            "from engine.api import SUPPORTED_SUFFIXES, InvalidOptions, ConvertOptions\n"
            "heavy = ('cv2', 'pymupdf', 'fitz', 'onnxruntime', 'numpy')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
            "from engine.api import Engine\n"
            "print('cv2' in sys.modules, 'onnxruntime' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout.splitlines()
    assert out == ["[]", "True True"]


def test_docs_api_names_every_public_name():
    """docs/api.md is the API's documentation: each public name is described there."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)", text))
    assert sorted(set(api.__all__) - named) == []

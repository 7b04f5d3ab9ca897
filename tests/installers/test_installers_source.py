"""What the installers build Paperlens from: every package pyproject.toml lists, no more."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_build(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "installers"))  # build.py's sibling modules
    spec = importlib.util.spec_from_file_location("installers_build", ROOT / "installers" / "build.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "installers_build", module)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def test_the_wheel_source_holds_every_top_level_package(monkeypatch):
    """A front end added beside gui/ (service/) once broke `make installers`: the copy the wheel
    is built from lacked it, and setuptools stopped on the missing package folder."""
    parts = load_build(monkeypatch).source_parts()
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert {name.split(".")[0] for name in packages} <= set(parts)
    assert {"pyproject.toml", "README.md", "service", "engine", "gui"} <= set(parts)
    assert all((ROOT / part).exists() for part in parts)


def test_every_package_folder_is_in_the_wheel():
    """engine/office and engine/photo were once left out of the list: the development venv
    (an editable install) read them from the checkout, the installers' wheel had no
    engine.office, and the frozen CLI stopped on every document."""
    packages = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                   ["packages"])
    found = set()
    for top in {name.split(".")[0] for name in packages}:
        for init in (ROOT / top).rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                found.add(".".join(init.parent.relative_to(ROOT).parts))
    assert sorted(found - packages) == []

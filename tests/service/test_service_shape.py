"""The service keeps the code's shape: small modules, each importable first in a fresh
interpreter, and no other package imports it (it is a front end, like gui/)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 400


def service_modules() -> list[Path]:
    return sorted((ROOT / "service").rglob("*.py"))


def test_no_service_module_is_too_long_to_read():
    long = {p.name: n for p in service_modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_engine_settings_and_gui_never_import_the_service():
    offenders = []
    for package in ("engine", "settings", "gui"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                if any(n == "service" or n.startswith("service.") for n in names):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_each_service_module_imports_first_in_a_fresh_interpreter():
    names = [".".join(p.relative_to(ROOT).with_suffix("").parts) for p in service_modules()
             if p.name != "__main__.py"]
    failed = []
    for name in names:
        result = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ROOT,
                                capture_output=True, text=True, timeout=120)
        if result.returncode:
            failed.append(f"{name}: {result.stderr.strip().splitlines()[-1]}")
    assert failed == []

"""The settings package imports no GUI or engine code and does no file work on import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import builtins, io, os, sys
opened = []
real_open = io.open
def spy(file, *args, **kwargs):
    opened.append(str(file))
    return real_open(file, *args, **kwargs)
builtins.open = io.open = spy
import settings
from settings import SettingsStore, Settings, SettingsError, load_settings
builtins.open = io.open = real_open
forbidden = [m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "gui", "engine")]
assert not forbidden, forbidden
assert not [f for f in opened if "paperlens" in f or f.endswith(".json")], opened
print("ok")
"""


def test_import_is_free_of_qt_engine_and_config_reads(tmp_path: Path) -> None:
    environ = {"HOME": str(tmp_path), "PATH": "", "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=REPO_ROOT, env=environ, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert list(tmp_path.iterdir()) == []

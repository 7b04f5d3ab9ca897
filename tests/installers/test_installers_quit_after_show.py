"""`paperlens --quit-after-show`, the switch the installer checks start the frozen app with."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.gui
def test_the_app_shows_its_main_window_reports_it_and_quits(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLENS_", "XDG_"))}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "gui.app", "--quit-after-show"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("paperlens: main window shown")


@pytest.mark.gui
def test_with_typeset_check_it_also_typesets_a_formula(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLENS_", "XDG_"))}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "gui.app", "--quit-after-show", "--typeset-check"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("paperlens: main window shown")
    assert lines[1].startswith("paperlens: formula typeset (") and lines[1].endswith(" px)")

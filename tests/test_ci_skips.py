"""Under CI a skip for something `make test` installs is a failure; the skips CI accepts are
listed with why (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_an_unlisted_skip_fails_under_ci_and_a_listed_one_stays_a_skip(tmp_path):
    (tmp_path / "test_probe.py").write_text(
        "import pytest\n"
        "def test_tool():\n"
        "    pytest.skip('pdftotext is not installed')\n"
        "def test_installers():\n"
        "    pytest.skip('dist/x.deb is not built; run `make installers` first')\n",
        encoding="utf-8")
    (tmp_path / "conftest.py").write_text(
        (REPO / "tests" / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8")

    def run(ci: bool) -> str:
        env = {k: v for k, v in os.environ.items() if k != "CI"}
        if ci:
            env["CI"] = "1"
        env["PYTHONPATH"] = str(REPO)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "-o", "addopts=", str(tmp_path)], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        return done.stdout.strip().splitlines()[-1]

    assert "2 skipped" in run(ci=False) and "failed" not in run(ci=False)
    under_ci = run(ci=True)
    assert "1 failed" in under_ci and "1 skipped" in under_ci, under_ci

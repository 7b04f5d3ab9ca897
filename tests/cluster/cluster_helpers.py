"""What the cluster tests share besides fixtures: the archive's size, running the CLI, reading
an output folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

ARCHIVE_PAGES = 9
"""Three turns of the three short scanned pages: enough for pages to be split across both
nodes, read again after a kill and marked as repeated furniture across pages, while the whole
cluster module stays within a few minutes on a two-core machine (a page takes 2-7 s on one
core; the 40-page archive is the benchmark's, tools/cluster_bench.py)."""


def cli(*args: str, env: dict[str, str], timeout_s: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli.main", *args], env=env,
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout_s)


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}

"""`paperlens-serve --ray`: checked before anything starts, and the service without Ray (it is
only in the cluster extra) still imports and says in one line what to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service.cli import build_parser, check_cluster, config_from_args
from tests.conftest import REPO_ROOT

HIDE_RAY = "import sys; sys.modules['ray'] = None; "
"""Python then answers `import ray` with ModuleNotFoundError, as where it is not installed."""


def test_ray_missing_is_one_actionable_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", HIDE_RAY + "from service.cli import main; sys.exit(main(["
         f"'--ray', '127.0.0.1:6379', '--data-dir', {str(tmp_path)!r}]))"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: --ray needs Ray") \
        and "pip install 'paperlens[cluster]'" in lines[0]


def test_every_service_module_imports_without_ray():
    modules = sorted(f"service.{p.stem}" for p in (REPO_ROOT / "service").glob("*.py")
                     if p.stem != "__main__")
    assert "service.cluster_worker" in modules
    done = subprocess.run(
        [sys.executable, "-c", HIDE_RAY + "import importlib; [importlib.import_module(m) for m "
         f"in {modules!r}]; import engine.cluster.pages, engine.cluster.converter"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.cluster  # needs Ray: run by `make test-cluster`
def test_ray_address_is_checked_before_start(tmp_path):
    pytest.importorskip("ray", reason="the cluster extra is not installed")
    with pytest.raises(ValueError, match="not a Ray address"):
        check_cluster("scans.pdf")
    with pytest.raises(ValueError, match="Nothing answers at 127.0.0.1:9"):
        check_cluster("127.0.0.1:9")


def test_workers_mean_page_workers_on_the_cluster(tmp_path):
    local = config_from_args(build_parser().parse_args(["--data-dir", str(tmp_path)]))
    assert (local.workers, local.ray_address, local.cluster_workers) == (1, None, None)
    ray = config_from_args(build_parser().parse_args(
        ["--data-dir", str(tmp_path), "--ray", "10.0.0.5:6379", "--workers", "6"]))
    assert (ray.workers, ray.ray_address, ray.cluster_workers) == (1, "10.0.0.5:6379", 6)
    everywhere = config_from_args(build_parser().parse_args(
        ["--data-dir", str(tmp_path), "--ray", "10.0.0.5:6379"]))
    assert everywhere.cluster_workers is None  # one per CPU of the cluster

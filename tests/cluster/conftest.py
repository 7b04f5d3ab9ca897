"""A real Ray cluster of two nodes on this machine (one CPU each, each its own `ray start`),
the scanned archive the cluster tests convert, and what the single-process CLI writes for it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cluster_helpers import ARCHIVE_PAGES, cli, files_of
from tests.conftest import EVAL_DEV_DIR, _missing_default_models, load_isolated_settings


@pytest.fixture(scope="session")
def cluster_settings(tmp_path_factory):
    pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[cluster]'")
    loaded = load_isolated_settings(tmp_path_factory.mktemp("cluster-settings"))
    missing = _missing_default_models(loaded)
    if missing:
        pytest.skip(f"default models not in {loaded.model.base_dir}; run `paperlens-cli models "
                    "fetch` first")
    return loaded


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory, cluster_settings) -> dict[str, str]:
    """The CLI's environment: a settings file of its own, the user's model cache."""
    folder = tmp_path_factory.mktemp("cli-settings")
    return dict(os.environ, PAPERLENS_CONFIG=str(folder / "settings.json"))


@pytest.fixture(scope="session")
def archive(tmp_path_factory) -> Path:
    if not EVAL_DEV_DIR.is_dir():
        pytest.skip(f"evaluation documents not found at {EVAL_DEV_DIR}")
    from tools.scanned_archive import SHORT_SOURCES, build_scanned_pdf

    return build_scanned_pdf(tmp_path_factory.mktemp("archive") / "scanned-archive.pdf",
                             ARCHIVE_PAGES, sources=SHORT_SOURCES)


@pytest.fixture(scope="session")
def single_process_output(tmp_path_factory, archive, cli_env) -> dict[str, bytes]:
    """What `paperlens-cli convert` writes for the archive in one process."""
    out = tmp_path_factory.mktemp("single-process")
    done = cli("convert", str(archive), "-o", str(out), env=cli_env)
    assert done.returncode == 0, done.stderr
    return files_of(out)


@pytest.fixture(scope="session")
def two_nodes(cluster_settings):
    """`ray start --head --num-cpus 1` and a second `ray start --address ... --num-cpus 1`, in
    a temporary folder with ports of their own; every process they started ends afterwards."""
    from tools.local_ray import LocalRayCluster

    with LocalRayCluster(nodes=2, cpus_per_node=1) as cluster:
        yield cluster

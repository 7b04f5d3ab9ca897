"""Pages per second on a Ray cluster of 1 and 2 nodes (one CPU each, each its own `ray start`
on this machine), against one process converting the same scanned archive.

    python -m tools.cluster_bench [--pages 40] [--sources short|mixed] [--repeats 1]

Writes docs/results/cluster.json. The clock runs from the first page sent to the last file
written; starting the nodes and loading the models in each worker are reported apart. Nodes on
one machine share its cores, memory bus and load: the figures show the fan-out working and
its overhead, a real cluster's speed is its nodes' speed added up (the README says how to run
this on several machines)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

from tools.bench.machine import describe_machine, load_average_1m
from tools.local_ray import LocalRayCluster
from tools.scanned_archive import SHORT_SOURCES, SOURCES, build_scanned_pdf

REPO_ROOT = Path(__file__).resolve().parents[1]
RESULTS = REPO_ROOT / "docs" / "results" / "cluster.json"


def run_local(archive: Path, settings, out: Path) -> dict[str, float]:
    """One process, the engine's default threads (this machine's physical cores)."""
    from engine.api import Engine
    from engine.options import options_from_settings

    engine = Engine(settings)
    options = options_from_settings(settings, output_dir=str(out))
    start = time.perf_counter()
    # Every model loaded before the clock, as each worker's warm-up does.
    engine.models.page_reader()
    if options.layout_model:
        engine.models.layout_detector(options.layout_model)
    engine.models.table_recognizer()
    engine.models.formula_recognizer()
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    result = engine.convert(archive, options)
    return {"seconds": time.perf_counter() - start, "start_s": loaded,
            "pages": len(result.pages)}


def run_cluster(archive: Path, settings, out: Path, nodes: int) -> dict[str, object]:
    from engine.cluster.driver import Cluster
    from engine.options import options_from_settings
    from engine.types import DocumentResult

    start = time.perf_counter()
    with LocalRayCluster(nodes=nodes, cpus_per_node=1) as ray_nodes:
        nodes_up = time.perf_counter() - start
        with Cluster(ray_nodes.address, settings) as cluster:
            workers_ready = time.perf_counter() - start - nodes_up
            options = options_from_settings(settings, output_dir=str(out))
            start = time.perf_counter()
            [(_, result)] = list(cluster.convert([(archive, options)]))
            seconds = time.perf_counter() - start
            if not isinstance(result, DocumentResult):
                raise SystemExit(f"the cluster run failed: {result}")
            by_node = sorted(cluster.pool.pages_by_node.values(), reverse=True)
            workers = len(cluster.workers)
    return {"seconds": seconds, "start_s": nodes_up, "workers_ready_s": workers_ready,
            "pages": len(result.pages), "workers": workers, "pages_per_node": by_node}


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file a run wrote, by its path inside `folder`."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def summarise(runs: list[dict], label: str, **extra) -> dict[str, object]:
    seconds = statistics.median(r["seconds"] for r in runs)
    pages = runs[0]["pages"]
    row = {"setup": label, **extra, "pages": pages, "runs": len(runs),
           "median_s": round(seconds, 1), "pages_per_s": round(pages / seconds, 3),
           "start_s": round(statistics.median(r["start_s"] for r in runs), 1)}
    if "workers_ready_s" in runs[0]:
        row["workers_ready_s"] = round(statistics.median(r["workers_ready_s"] for r in runs), 1)
        row["pages_per_node"] = runs[-1]["pages_per_node"]
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--sources", choices=["short", "mixed"], default="short",
                        help="short: pages of a few seconds (the tests' kind); mixed: dense "
                             "two-column and table pages too")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    from settings import SettingsStore

    settings = SettingsStore().load()
    load_at_start = load_average_1m()
    rows = []
    with tempfile.TemporaryDirectory(prefix="paperlens-cluster-bench-") as folder:
        work = Path(folder)
        archive = build_scanned_pdf(work / "archive.pdf", args.pages,
                                    sources=SHORT_SOURCES if args.sources == "short" else SOURCES)
        # The load before each setup is kept with it: on a shared machine it says how much of
        # the cores the setup really had.
        load = load_average_1m()
        local = [run_local(archive, settings, work / f"local{i}") for i in range(args.repeats)]
        rows.append(summarise(local, "one process", nodes=0, workers=0,
                              threads=os.cpu_count(), load_1m_before=load))
        for nodes in (1, 2):
            load = load_average_1m()
            runs = [run_cluster(archive, settings, work / f"ray{nodes}-{i}", nodes)
                    for i in range(args.repeats)]
            # The cluster's files must be the single process's, byte for byte.
            same = all(files_of(work / f"ray{nodes}-{i}") == files_of(work / "local0")
                       for i in range(args.repeats))
            rows.append(summarise(runs, f"Ray, {nodes} node(s) x 1 CPU", nodes=nodes,
                                  workers=runs[0]["workers"], threads=1, load_1m_before=load,
                                  same_files_as_one_process=same))
    report = {
        "archive": {"pages": args.pages, "sources": args.sources,
                    "made_by": "tools/scanned_archive.py (dev-set pages as 150 dpi JPEG scans)"},
        "ray": metadata.version("ray"),
        "machine": describe_machine(None, "cpu", load_at_start),
        "load_average_1m_at_end": load_average_1m(),
        "rows": rows,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    partial = args.output.with_suffix(".json.part")
    partial.write_text(json.dumps(report, indent=1) + "\n")
    partial.replace(args.output)
    print(args.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

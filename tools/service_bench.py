"""Load benchmark of paperlens-serve, against the CLI's way of converting the same files.

    python -m tools.service_bench [--clients 4] [--workers 1] [--rounds 3] [--rss-jobs 100]
                                  [--items N]
    python -m tools.service_bench --rss-only --rss-jobs 500      memory over many jobs only

1. Baseline: the dev set's documents (document and page items of ../shared/eval/dev)
   converted one after another by one Engine in one process, as `paperlens-cli convert` does
   (models loaded before the clock starts).
2. Service: a real paperlens-serve with the same number of workers on a loopback port;
   `--clients` threads submit the same documents to POST /v1/jobs, follow each to its end on
   its event stream and fetch its Markdown. Throughput over the whole run, latency per
   document (submit -> done). Baseline and service alternate for `--rounds` rounds; overhead =
   1 - median service throughput / median baseline throughput, at the same worker count.
3. Warm-up: three POST /v1/ocr requests of one small page right after the server is ready.
4. Memory: `--rss-jobs` one-page jobs; the resident memory of the server and its workers
   sampled as they go.

With --rss-only, only a memory run on a fresh server: `--rss-jobs` jobs, each a small page
generated for it (its own bytes, its own text), the resident memory of the server and of its
workers sampled every `--rss-every` jobs with the time; kept under "memory_long".

Writes docs/results/service.json (or --out), keeping the keys a run does not measure."""

from __future__ import annotations

import argparse
import json
import statistics
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[1]
DEV_DIR = REPO_ROOT.parent / "shared" / "eval" / "dev"
DOCUMENT_GRANULARITY = ("document", "page")
SCAN_DPI = 150
"""The generated pages' scan resolution: rendered at the default 200 dpi, 560 x 267 px."""


def dev_documents(limit: int | None) -> list[Path]:
    manifest = json.loads((DEV_DIR / "manifest.json").read_text(encoding="utf-8"))
    items = manifest["items"] if isinstance(manifest, dict) else manifest
    paths = [DEV_DIR / item["input"] for item in items
             if item["granularity"] in DOCUMENT_GRANULARITY]
    return paths[:limit] if limit else paths


def page_counts(paths: list[Path]) -> dict[Path, int]:
    from engine.input.document import open_document

    counts = {}
    for path in paths:
        with open_document(path) as document:
            counts[path] = document.page_count
    return counts


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def figures(latencies: list[float], wall_s: float, pages: int) -> dict[str, float]:
    return {"wall_s": round(wall_s, 2), "documents": len(latencies), "pages": pages,
            "pages_per_s": round(pages / wall_s, 3), "documents_per_s": round(
                len(latencies) / wall_s, 3),
            "latency_p50_s": round(percentile(latencies, 0.5), 2),
            "latency_p95_s": round(percentile(latencies, 0.95), 2)}


class Baseline:
    """One Engine, the documents in turn: what `paperlens-cli convert a b c -o out` does. Made
    once and warmed as a service worker is, so that every round compares warm engines."""

    def __init__(self) -> None:
        from service.converter import LocalPageConverter
        from settings import SettingsStore

        self.settings = SettingsStore().load()
        self.converter = LocalPageConverter(self.settings)
        self.converter.warm_up()

    def run(self, paths: list[Path], pages: int, out: Path) -> dict[str, float]:
        from engine.output.run_names import output_names
        from engine.options import options_from_settings

        latencies = []
        started = time.perf_counter()
        for path, name in zip(paths, output_names(paths, out)):
            begun = time.perf_counter()
            self.converter.engine.convert(path, options_from_settings(
                self.settings, output_dir=str(out), output_name=name))
            latencies.append(time.perf_counter() - begun)
        return figures(latencies, time.perf_counter() - started, pages)


def medians(rounds: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the rounds."""
    return {key: round(statistics.median(r[key] for r in rounds), 3) for key in rounds[0]}


class Server:
    def __init__(self, data_dir: Path, workers: int, queue_size: int) -> None:
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = open(data_dir.parent / "server.log", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "service", "--data-dir", str(data_dir), "--port",
             str(self.port), "--workers", str(workers), "--queue-size", str(queue_size),
             "--log-level", "warning"], cwd=REPO_ROOT, stdout=self.log,
            stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
        self.url = f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout_s: float = 600) -> dict:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"paperlens-serve exited with {self.proc.returncode}")
            try:
                health = httpx.get(self.url + "/health", timeout=5).json()
                states = [w["state"] for w in health["workers"]]
                if states and all(s == "ready" for s in states):
                    return health
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        raise SystemExit("paperlens-serve did not get ready")

    def pids(self) -> list[int]:
        workers = httpx.get(self.url + "/health", timeout=10).json()["workers"]
        return [self.proc.pid] + [w["pid"] for w in workers]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def convert_by_service(client: httpx.Client, path: Path) -> float:
    begun = time.perf_counter()
    with open(path, "rb") as fh:
        answer = client.post("/v1/jobs", files={"files": (path.name, fh)})
    answer.raise_for_status()
    job_id = answer.json()["id"]
    # Waits as a client should, on the job's event stream, which ends when the job does; a
    # client asking GET /v1/jobs/{id} ten times a second is load of its own.
    with client.stream("GET", f"/v1/jobs/{job_id}/events") as events:
        events.raise_for_status()
        for line in events.iter_lines():
            if line == "event: end":
                break
    view = client.get(f"/v1/jobs/{job_id}").json()
    if view["state"] not in ("done", "partial"):
        raise RuntimeError(f"{path.name}: job {view['state']}: {view['error']}")
    client.get(f"/v1/jobs/{job_id}/result").raise_for_status()
    return time.perf_counter() - begun


def under_load(server: Server, paths: list[Path], pages: int, clients: int) -> dict[str, float]:
    latencies: list[float] = []
    lock = threading.Lock()
    local = threading.local()

    def one(path: Path) -> None:
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=server.url, timeout=600)
        seconds = convert_by_service(local.client, path)
        with lock:
            latencies.append(seconds)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(one, paths))
    return figures(latencies, time.perf_counter() - started, pages)


def quick_requests(server: Server, sample: Path, count: int = 3) -> list[float]:
    timings = []
    with httpx.Client(base_url=server.url, timeout=600) as client:
        for _ in range(count):
            begun = time.perf_counter()
            with open(sample, "rb") as fh:
                client.post("/v1/ocr", files={"file": (sample.name, fh)}).raise_for_status()
            timings.append(round((time.perf_counter() - begun) * 1000, 1))
    return timings


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def small_page(path: Path, number: int) -> Path:
    """A one-page scanned PDF of its own (an image of three printed lines naming `number`, no
    text layer): every job's input has different bytes, as real traffic has, and every page
    goes through OCR and layout."""
    import cv2
    import numpy as np
    import pymupdf

    page = np.full((200, 420, 3), 255, dtype=np.uint8)
    for row, text in enumerate((f"Receipt {number}", f"Total {number * 3 % 997} pounds",
                                "Thank you")):
        cv2.putText(page, text, (14, 50 + 55 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                    (25, 25, 25), 2, cv2.LINE_AA)
    ok, png = cv2.imencode(".png", page)
    if not ok:
        raise RuntimeError("cannot encode the page")
    with pymupdf.open() as doc:
        sheet = doc.new_page(width=420 * 72 / SCAN_DPI, height=200 * 72 / SCAN_DPI)
        sheet.insert_image(sheet.rect, stream=png.tobytes())
        doc.save(str(path))
    return path


def memory_over_jobs(server: Server, inputs, jobs: int, clients: int, every: int | None = None,
                     label: str = "") -> dict:
    """`jobs` jobs, `inputs(index)` the file of each; the resident memory of the server and
    its workers every `every` jobs (and before the first)."""
    pids = server.pids()
    every = every or max(1, jobs // 20)
    started = time.perf_counter()

    def sample(count: int) -> dict:
        return {"jobs": count, "elapsed_s": round(time.perf_counter() - started, 1),
                "server_mib": round(rss_mib(pids[0]), 1),
                "workers_mib": round(sum(rss_mib(p) for p in pids[1:]), 1)}

    samples = [sample(0)] if label else []
    done = 0
    lock = threading.Lock()
    local = threading.local()

    def one(index: int) -> None:
        nonlocal done
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=server.url, timeout=600)
        convert_by_service(local.client, inputs(index))
        with lock:
            done += 1
            if done % every == 0 or done == jobs:
                samples.append(sample(done))
                if label:
                    print(f"{label}: {samples[-1]}", file=sys.stderr, flush=True)

    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(one, range(jobs)))
    samples.sort(key=lambda s: s["jobs"])
    # Growth from the first sample after work began: the first jobs fill the allocators'
    # pools and ONNX Runtime's arenas once; what matters is what comes after.
    first = next(s for s in samples if s["jobs"] > 0)
    last = samples[-1]
    return {"jobs": jobs, "samples": samples,
            "growth_mib": {"server": round(last["server_mib"] - first["server_mib"], 1),
                           "workers": round(last["workers_mib"] - first["workers_mib"], 1)},
            "growth_from_jobs": first["jobs"],
            "worker_pids_unchanged": server.pids() == pids}


def memory_only(args: argparse.Namespace, folder: Path) -> dict:
    """A fresh server and `--rss-jobs` small generated pages, nothing else."""
    pages = folder / "pages"
    pages.mkdir()
    server = Server(folder / "data", args.workers, queue_size=max(64, args.clients * 2))
    try:
        health = server.wait_ready()
        memory = memory_over_jobs(server, lambda n: small_page(pages / f"receipt-{n}.pdf", n),
                                  args.rss_jobs, args.clients, args.rss_every, "memory")
    finally:
        server.stop()
    return {"about": "one small generated scanned page per job (a one-page PDF of a 420 x 200 "
                     "px image of three printed lines, different bytes each), on a fresh "
                     "server; tools/service_bench.py --rss-only",
            "clients": args.clients, "workers": args.workers,
            "machine": {"cores": os.cpu_count(), "device": health["device"]}, **memory}


def merge_results(path: Path, new: dict) -> None:
    """Write `new`'s keys into the results file, keeping the others; atomically."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        report = {}
    report.update(new)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.service_bench")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the dev set each way, alternating (medians compared)")
    parser.add_argument("--rss-jobs", type=int, default=100)
    parser.add_argument("--rss-every", type=int,
                        help="sample memory every N jobs (default: 20 samples)")
    parser.add_argument("--rss-only", action="store_true",
                        help="only the memory run, on small generated pages")
    parser.add_argument("--items", type=int, help="only the first N documents of the dev set")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "docs/results/service.json")
    args = parser.parse_args(argv)
    if args.rss_only:
        with tempfile.TemporaryDirectory(prefix="paperlens-service-bench-") as scratch:
            load_at_start = round(os.getloadavg()[0], 2)
            memory = memory_only(args, Path(scratch))
            memory["machine"].update(load_1m_at_start=load_at_start,
                                     load_1m_at_end=round(os.getloadavg()[0], 2))
        merge_results(args.out, {"memory_long": memory})
        print(json.dumps(memory, indent=1))
        return 0
    paths = dev_documents(args.items)
    pages = sum(page_counts(paths).values())
    load_at_start = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory(prefix="paperlens-service-bench-") as scratch:
        folder = Path(scratch)
        print(f"{len(paths)} documents, {pages} pages, {args.rounds} rounds", file=sys.stderr)
        cli = Baseline()
        server = Server(folder / "data", args.workers, queue_size=max(64, args.rss_jobs))
        try:
            health = server.wait_ready()
            sample = DEV_DIR / "items" / "tesseract-phototest" / "input.png"  # one small page
            quick = quick_requests(server, sample)
            # The machine's speed drifts by 10% or more from minute to minute: the two ways
            # alternate, round after round, and their medians are compared.
            cli_rounds, service_rounds = [], []
            for number in range(args.rounds):
                cli_rounds.append(cli.run(paths, pages, folder / f"cli-{number}"))
                service_rounds.append(under_load(server, paths, pages, args.clients))
                print(f"round {number + 1}: one process {cli_rounds[-1]['pages_per_s']} "
                      f"pages/s, service {service_rounds[-1]['pages_per_s']}", file=sys.stderr)
            memory = {"sample": sample.name, **memory_over_jobs(
                server, lambda _n: sample, args.rss_jobs, args.clients, args.rss_every)}
        finally:
            server.stop()
    cli_median, service_median = medians(cli_rounds), medians(service_rounds)
    report = {
        "about": "paperlens-serve against one Engine converting the same dev-set documents "
                 "in one process (the CLI's way); tools/service_bench.py",
        "machine": {"cores": os.cpu_count(), "load_1m_at_start": load_at_start,
                    "load_1m_at_end": round(os.getloadavg()[0], 2),
                    "device": health["device"]},
        "clients": args.clients, "workers": args.workers,
        "rounds": args.rounds, "cli_one_process": cli_median, "service": service_median,
        "rounds_pages_per_s": {"cli_one_process": [r["pages_per_s"] for r in cli_rounds],
                               "service": [r["pages_per_s"] for r in service_rounds]},
        "throughput_overhead": round(
            1 - service_median["pages_per_s"] / cli_median["pages_per_s"], 3),
        "quick_ocr_ms_after_warm_up": quick,
        "warm_up_s": [w["warm_up_s"] for w in health["workers"]],
        "memory": memory,
    }
    merge_results(args.out, report)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

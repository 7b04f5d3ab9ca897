"""paperlens-serve: start the local service.

    paperlens-serve                                  http://127.0.0.1:8750, one worker
    paperlens-serve --workers 2 --port 9000
    PAPERLENS_SERVICE_TOKEN=... paperlens-serve --host 0.0.0.0
    paperlens-serve --ray 10.0.0.5:6379              pages read on a Ray cluster

The server checks its exposure first (another address than loopback needs a token), takes
the data folder for itself, gives back the claims of a previous run that was killed, starts
its workers and then answers HTTP."""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import re
import sys
from pathlib import Path

from service.config import DEFAULT_PORT, MIB, ServiceConfig
from service.security import ExposureError, check_exposure

TOKEN_ENV = "PAPERLENS_SERVICE_TOKEN"
# host:port of a Ray head (an IPv6 host in brackets), with or without ray://.
RAY_ADDRESS = re.compile(r"^(ray://)?(\[[0-9a-fA-F:.]+\]|[\w.-]+):\d{1,5}$")
EXIT_USAGE = 2
MAX_TOKEN_FILE_BYTES = 4096


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="paperlens-serve",
                                description="Paperlens as a local HTTP service with durable jobs.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; any other needs a token)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    p.add_argument("--data-dir", type=Path,
                   help="jobs, uploads and results (default: <user data folder>/service)")
    p.add_argument("--workers", type=int,
                   help="worker processes, each with its own engine (default 1); with --ray, "
                        "page workers on the cluster (default: one per CPU it has)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="read the pages on the Ray cluster whose head is at ADDRESS (host:port; "
                        "needs the cluster extra); jobs are kept here as without it")
    p.add_argument("--token-file", type=Path,
                   help=f"file whose first line is the bearer token (or set {TOKEN_ENV})")
    p.add_argument("--allow-dir", type=Path, action="append", default=[], metavar="FOLDER",
                   help="let jobs name files inside FOLDER by path (repeatable; default none)")
    p.add_argument("--max-upload-mb", type=float, default=100.0,
                   help="largest POST /v1/jobs request (default 100)")
    p.add_argument("--max-pages", type=int, default=2000, help="pages per job (default 2000)")
    p.add_argument("--ocr-max-mb", type=float, default=10.0,
                   help="largest POST /v1/ocr request (default 10)")
    p.add_argument("--ocr-max-pages", type=int, default=4,
                   help="pages per POST /v1/ocr request (default 4)")
    p.add_argument("--ocr-timeout-s", type=float, default=120.0,
                   help="POST /v1/ocr gives up after this long (default 120)")
    p.add_argument("--queue-size", type=int, default=64,
                   help="jobs waiting or running before 429 (default 64)")
    p.add_argument("--retention-hours", type=float, default=24.0,
                   help="finished jobs are removed this long after they end (default 24)")
    p.add_argument("--disk-quota-mb", type=float, default=10240.0,
                   help="what all jobs may keep on disk together (default 10240)")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    return p


def config_from_args(args: argparse.Namespace, environ=os.environ) -> ServiceConfig:
    from settings import user_data_dir  # the data folder every part of the app uses

    for name in ("workers", "max_pages", "ocr_max_pages", "queue_size"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1.")
    for name in ("max_upload_mb", "ocr_max_mb", "ocr_timeout_s", "retention_hours",
                 "disk_quota_mb"):
        if not getattr(args, name) > 0:
            raise ValueError(f"--{name.replace('_', '-')} must be more than 0.")
    for folder in args.allow_dir:
        if not folder.is_dir():
            raise ValueError(f"--allow-dir {folder} is not a folder.")
    return ServiceConfig(
        data_dir=(args.data_dir or user_data_dir(environ) / "service").absolute(),
        host=args.host, port=args.port,
        workers=1 if args.ray else args.workers or 1,
        ray_address=args.ray, cluster_workers=args.workers if args.ray else None,
        token=read_token(args.token_file, environ),
        allow_dirs=tuple(folder.resolve() for folder in args.allow_dir),
        max_upload_bytes=int(args.max_upload_mb * MIB), max_pages=args.max_pages,
        sync_max_bytes=int(args.ocr_max_mb * MIB), sync_max_pages=args.ocr_max_pages,
        sync_timeout_s=args.ocr_timeout_s, queue_size=args.queue_size,
        retention_s=args.retention_hours * 3600.0, quota_bytes=int(args.disk_quota_mb * MIB))


def check_cluster(address: str) -> None:
    """Before anything starts: Ray is installed, and its head answers at `address`."""
    if not RAY_ADDRESS.match(address):
        raise ValueError(f"--ray {address} is not a Ray address; give host:port of the "
                         "cluster's head node, e.g. 10.0.0.5:6379.")
    if importlib.util.find_spec("ray") is None:
        raise ValueError("--ray needs Ray, which is not installed here: install Paperlens "
                         "with the cluster extra, pip install 'paperlens[cluster]'.")
    from engine.api import ClusterUnavailable, check_reachable

    try:
        check_reachable(address)
    except ClusterUnavailable as exc:
        raise ValueError(exc.message) from None


def read_token(path: Path | None, environ) -> str | None:
    """The token from --token-file, else the environment; never from the command line, where
    every user of the machine could read it."""
    if path is not None:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read(MAX_TOKEN_FILE_BYTES)
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"Cannot read the token file {path}: "
                             f"{getattr(exc, 'strerror', None) or exc}.") from None
        token = text.splitlines()[0].strip() if text.strip() else ""
        if not token:
            raise ValueError(f"The token file {path} is empty.")
        return token
    return environ.get(TOKEN_ENV, "").strip() or None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s: %(message)s")
    try:
        config = config_from_args(args)
        check_exposure(config.host, config.token)
        if config.ray_address:
            check_cluster(config.ray_address)
    except (ValueError, ExposureError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from service.server import serve  # FastAPI, uvicorn and the engine: only to serve

    return serve(config, args.log_level)


if __name__ == "__main__":
    sys.exit(main())

"""paperlens-mcp: Paperlens as an MCP server for AI assistants.

    paperlens-mcp --allow-dir ~/Documents            stdio: what an MCP client starts
    paperlens-mcp --http --port 8765                 streamable HTTP on http://127.0.0.1:8765/mcp
    PAPERLENS_MCP_TOKEN=... paperlens-mcp --http --host 0.0.0.0

The service's safety rules apply (service/security.py): over HTTP, another address than
loopback needs a token, and then every request carries `Authorization: Bearer <token>`; without
a token, requests must be addressed to a loopback name and no web page may call it. Files are
read by path only inside the --allow-dir folders."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from service.security import ExposureError, check_exposure
from settings import SettingsError, SettingsStore

TOKEN_ENV = "PAPERLENS_MCP_TOKEN"
DEFAULT_PORT = 8765
EXIT_USAGE = 2
MIB = 2**20


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="paperlens-mcp",
                                description="Paperlens as an MCP server (stdio by default).")
    p.add_argument("--allow-dir", type=Path, action="append", default=[], metavar="FOLDER",
                   help="let the tools read files inside FOLDER by path (repeatable; default "
                        "none: documents are sent as bytes)")
    p.add_argument("--results-dir", type=Path,
                   help="where conversions are kept (default: <user data folder>/mcp)")
    p.add_argument("--max-mb", type=float, default=100.0,
                   help="largest document sent as bytes (default 100)")
    p.add_argument("--http", action="store_true",
                   help="serve streamable HTTP instead of stdio")
    p.add_argument("--host", default="127.0.0.1",
                   help="with --http: address to listen on (default 127.0.0.1; any other "
                        "needs a token)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"with --http: port (default {DEFAULT_PORT})")
    p.add_argument("--token-file", type=Path,
                   help=f"with --http: file whose first line is the bearer token (or set "
                        f"{TOKEN_ENV})")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        allow_dirs = _folders(args.allow_dir)
        token = _token(args) if args.http else None
        if args.http:
            check_exposure(args.host, token)
        if not args.max_mb > 0:
            raise ValueError("--max-mb must be more than 0.")
        settings = SettingsStore().load()
    except (ValueError, ExposureError, SettingsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for warning in settings.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    server = _server(settings, allow_dirs, args.results_dir, int(args.max_mb * MIB))
    if not args.http:
        server.run("stdio")
        return 0
    from paperlens_mcp.http_transport import serve_http

    return serve_http(server, args.host, args.port, token, int(args.max_mb * MIB))


def _server(settings, allow_dirs: tuple[Path, ...], results_dir: Path | None, max_bytes: int):
    from engine.api import Engine  # the models' modules: only once the arguments are good
    from paperlens_mcp.conversions import Conversions
    from paperlens_mcp.results import ResultsFolder
    from paperlens_mcp.server import build_server
    from settings.locations import user_data_dir

    root = (results_dir or user_data_dir(os.environ) / "mcp").absolute()
    conversions = Conversions(Engine(settings), settings, ResultsFolder(root), allow_dirs,
                              max_bytes)
    return build_server(conversions)


def _folders(given: list[Path]) -> tuple[Path, ...]:
    for folder in given:
        if not folder.expanduser().is_dir():
            raise ValueError(f"--allow-dir {folder} is not a folder.")
    return tuple(folder.expanduser().resolve() for folder in given)


def _token(args: argparse.Namespace) -> str | None:
    from service.cli import TOKEN_ENV as SERVICE_TOKEN_ENV, read_token

    # The service's reading of a token file; the environment variable is this server's own.
    return read_token(args.token_file, {SERVICE_TOKEN_ENV: os.environ.get(TOKEN_ENV, "")})


if __name__ == "__main__":
    sys.exit(main())

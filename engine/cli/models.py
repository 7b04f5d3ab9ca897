"""The `models` command of paperlens-cli: list, fetch and verify the manifest's model files."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.errors import ModelUnavailable
from engine.events import ModelDownloadProgress
from engine.models.store import ModelStore, default_model_dir

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def add_models_parser(subparsers: "argparse._SubParsersAction") -> argparse.ArgumentParser:
    """Register `models {list,fetch,verify}`; the chosen action lands in `args.models_command`."""
    parser = subparsers.add_parser("models", help="list, download and verify model files")
    actions = parser.add_subparsers(dest="models_command", metavar="{list,fetch,verify}")
    actions.required = True

    list_parser = actions.add_parser("list", help="models in the manifest and their state on disk")
    fetch_parser = actions.add_parser(
        "fetch", help="download models (default: all default models not shipped with Paperlens)")
    fetch_parser.add_argument("ids", nargs="*", metavar="ID", help="model ids (see `models list`)")
    verify_parser = actions.add_parser("verify", help="hash installed models in full")
    verify_parser.add_argument("ids", nargs="*", metavar="ID", help="model ids (default: all)")
    for sub in (list_parser, fetch_parser, verify_parser):
        sub.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    return parser


def run_models(
    args: argparse.Namespace,
    settings: Any,
    *,
    store: ModelStore | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run the parsed `models` command; returns the process exit code.

    `settings.model.base_dir` and `settings.model.index_url` configure the store, unless a
    ready `store` is given (tests pass one with their own manifest).
    """
    out = out or sys.stdout
    err = err or sys.stderr
    if store is None:
        base_dir = settings.model.base_dir
        store = ModelStore(Path(base_dir) if base_dir else default_model_dir(), settings.model.index_url)
    ids = list(getattr(args, "ids", []) or [])
    unknown = [model_id for model_id in ids if model_id not in store.specs]
    if unknown:
        print(f"Unknown model id: {', '.join(unknown)}. Known: {', '.join(store.specs)}", file=err)
        return EXIT_USAGE
    command = args.models_command
    if command == "list":
        return _list(store, args.json, out)
    if command == "fetch":
        return _fetch(store, ids, args.json, out, err)
    if command == "verify":
        return _verify(store, ids, args.json, out)
    print(f"Unknown models command: {command}", file=err)
    return EXIT_USAGE


def _list(store: ModelStore, as_json: bool, out: TextIO) -> int:
    rows = []
    for spec in store.specs.values():
        status = store.status(spec.id)
        rows.append(
            {
                "id": spec.id,
                "role": spec.role,
                "default": spec.default,
                "file": spec.file,
                "size": spec.total_size,
                "license": spec.license,
                "shipped": spec.shipped,
                "installed": status.installed,
                "verified": status.verified,
                "path": str(status.path) if status.path else None,
            }
        )
    if as_json:
        json.dump({"model_dir": str(store.model_dir), "models": rows}, out, indent=2)
        out.write("\n")
        return EXIT_OK
    print(f"{'ID':<20} {'ROLE':<12} {'SIZE':>9}  {'DEFAULT':<7}  STATE", file=out)
    for row in rows:
        default = "yes" if row["default"] else "no"
        print(f"{row['id']:<20} {row['role']:<12} {_mib(row['size']):>9}  {default:<7}  {_state(row)}", file=out)
    print(f"\nModel folder: {store.model_dir}", file=out)
    return EXIT_OK


def _state(row: dict) -> str:
    if row["file"] is None:
        return "no model yet"
    if row["shipped"]:
        if not row["installed"]:
            return "shipped, files missing (reinstall Paperlens)"
        return "shipped, verified" if row["verified"] else "shipped (checked on first use)"
    if row["verified"]:
        return "installed, verified"
    if row["installed"]:
        # Only the cheap record check ran; `models verify` hashes the file.
        return "installed, not verified"
    return "not installed"


def _fetch(store: ModelStore, ids: list[str], as_json: bool, out: TextIO, err: TextIO) -> int:
    if not ids:
        # Shipped models come with Paperlens: there is nothing to download.
        ids = [spec.id for spec in store.specs.values() if spec.default and spec.sources and not spec.shipped]
    show_progress = err.isatty() or not as_json
    display = _ProgressDisplay(err, bar=err.isatty()) if show_progress else None
    store.on_progress = display
    results = []
    for model_id in ids:
        try:
            path = store.ensure(model_id)
            results.append({"id": model_id, "ok": True, "path": str(path), "error": None})
            if display:
                display.finish()
            if not as_json:
                print(f"ok      {model_id:<20} {path}", file=out)
        except ModelUnavailable as exc:
            if display:
                display.finish()
            results.append({"id": model_id, "ok": False, "path": None, "error": exc.message})
            if not as_json:
                print(f"FAILED  {model_id:<20} {exc.message}", file=out)
    if as_json:
        json.dump({"model_dir": str(store.model_dir), "models": results}, out, indent=2)
        out.write("\n")
    return EXIT_OK if all(r["ok"] for r in results) else EXIT_FAILED


def _verify(store: ModelStore, ids: list[str], as_json: bool, out: TextIO) -> int:
    explicit = bool(ids)
    ids = ids or list(store.specs)
    results = []
    failed = False
    for model_id in ids:
        status = store.status(model_id)
        shipped = store.spec(model_id).shipped
        if status.path is None:
            state = "no model yet"
        elif shipped and not status.installed:
            state = "missing"
            failed = True
        elif not status.installed:
            state = "not installed"
            failed = failed or explicit
        elif store.verify(model_id):
            state = "ok"
        else:
            state = "corrupt"
            failed = True
        results.append({"id": model_id, "state": state, "path": str(status.path) if status.path else None,
                        "shipped": shipped})
        if store.spec(model_id).role == "rec" and status.installed:
            # The graph that really runs is derived from this one; it has its own recorded hash.
            derived = store.verify_derived(model_id)
            if derived is not None:
                derived_path, derived_ok = derived
                failed = failed or not derived_ok
                results.append({"id": f"{model_id} (derived)", "state": "ok" if derived_ok else "corrupt",
                                "path": str(derived_path), "shipped": False, "derived": True})
    if as_json:
        json.dump({"model_dir": str(store.model_dir), "models": results}, out, indent=2)
        out.write("\n")
    else:
        for row in results:
            note = ""
            if row["state"] == "corrupt" and row.get("derived"):
                note = "  (removed from use: it is rebuilt from the model on next use)"
            elif row["state"] in ("corrupt", "missing"):
                note = ("  (reinstall Paperlens to restore it)" if row["shipped"]
                        else "  (run `paperlens-cli models fetch` to replace it)")
            print(f"{row['state']:<14} {row['id']:<20} {row['path'] or ''}{note}", file=out)
    return EXIT_FAILED if failed else EXIT_OK


class _ProgressDisplay:
    """A redrawn bar on a terminal; otherwise one line per tenth of the download."""

    def __init__(self, stream: TextIO, *, bar: bool) -> None:
        self._stream = stream
        self._bar = bar
        self._drawn = False
        self._last_tenth: dict[str, int] = {}

    def __call__(self, event: ModelDownloadProgress) -> None:
        total = event.bytes_total
        fraction = event.bytes_done / total if total else None
        if self._bar:
            width = 30
            filled = int(width * fraction) if fraction is not None else 0
            percent = f"{fraction:4.0%}" if fraction is not None else "   ?"
            line = (
                f"\r{event.model_id:<20} [{'#' * filled}{'.' * (width - filled)}] {percent} "
                f"{_mib(event.bytes_done)} / {_mib(total)}"
            )
            self._stream.write(line)
            self._stream.flush()
            self._drawn = True
            return
        tenth = int(fraction * 10) if fraction is not None else 0
        if self._last_tenth.get(event.model_id) == tenth:
            return
        self._last_tenth[event.model_id] = tenth
        print(
            f"downloading {event.model_id} from {event.source}: {_mib(event.bytes_done)} / {_mib(total)}",
            file=self._stream,
            flush=True,
        )

    def finish(self) -> None:
        if self._drawn:
            self._stream.write("\n")
            self._stream.flush()
            self._drawn = False


def _mib(size: int | None) -> str:
    return "-" if size is None else f"{size / (1 << 20):.1f} MiB"

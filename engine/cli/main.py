"""paperlens-cli: convert documents, manage models and the compute device."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from engine import events
from engine.cli.models import _ProgressDisplay, add_models_parser, run_models
from engine.cli.device import add_device_parser, run_device
from engine.input.document import SUPPORTED_SUFFIXES
from engine.errors import Cancelled, PaperlensError
from engine.types import Status
from engine.options import (options_from_settings, parse_layout, parse_method,
                            parse_page_ranges)

EXIT_OK = 0
EXIT_FAILED = 1
"""An input could not be converted at all (nothing written for it)."""
EXIT_USAGE = 2
EXIT_PARTIAL = 3
"""Every input was written, but some pages failed or were read only in part."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paperlens-cli",
                                     description="Turn PDFs and images into Markdown, locally.")
    commands = parser.add_subparsers(dest="command", metavar="{convert,models,device}")
    commands.required = True
    convert = commands.add_parser("convert", help="convert documents to Markdown")
    convert.add_argument("inputs", nargs="+", metavar="INPUT", help="files or folders")
    convert.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                         help="folder for <name>.md and <name>.json")
    convert.add_argument("--pages", metavar="RANGES", help="pages to convert, e.g. 1-3,7")
    convert.add_argument("--method", default="auto", choices=["auto", "txt", "ocr"],
                         help="text source per page: auto (text layer when trustworthy), txt, ocr")
    convert.add_argument("--password", help="password of encrypted PDFs")
    convert.add_argument("--dpi", type=int, default=200, help="render resolution (default 200)")
    convert.add_argument("--layout", choices=["doclaynet", "cdla", "none"],
                         help="layout model (default: the model.layout setting); none = "
                              "paragraphs by geometry only")
    convert.add_argument("--tables", choices=["html", "markdown"],
                         help="table output (default: the output.table_format setting); markdown "
                              "= GFM pipe tables where no cell is merged")
    convert.add_argument("--keep-furniture", action="store_true",
                         help="keep running headers, footers and page numbers")
    convert.add_argument("--layout-pdf", action="store_true",
                         help="also write <name>_layout.pdf with the regions drawn on each page")
    convert.add_argument("--no-json", action="store_true", help="write only the Markdown")
    convert.add_argument("--formula-image", action="store_true",
                         help="read each image input as one formula (default: only images that "
                              "look like one formula are)")
    add_models_parser(commands)
    add_device_parser(commands)
    return parser


def expand_inputs(inputs: list[str]) -> list[Path]:
    """Files as given; folders contribute their supported files (by extension, sorted)."""
    paths: list[Path] = []
    for raw in inputs:
        path = Path(raw)
        if path.is_dir():
            paths.extend(sorted(p for p in path.rglob("*")
                                if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES))
        else:
            paths.append(path)
    return paths


def unique_stems(paths: list[Path]) -> list[str]:
    """Output names: the input's stem, with -2, -3, ... when two inputs share one."""
    used: dict[str, int] = {}
    names = []
    for path in paths:
        stem = path.stem
        count = used.get(stem.lower(), 0) + 1
        used[stem.lower()] = count
        names.append(stem if count == 1 else f"{stem}-{count}")
    return names


class PageProgress:
    """One redrawn line per document on a terminal; one line per page otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.downloads = _ProgressDisplay(stream, bar=self.tty)
        self.name = ""

    def __call__(self, event: events.Event) -> None:
        if isinstance(event, events.ModelDownloadProgress):
            self.downloads(event)
        elif isinstance(event, events.DocumentStarted):
            self.downloads.finish()
            self.name = Path(event.path).name
            self._draw(0, event.page_count)
        elif isinstance(event, events.PageDone):
            self._draw(event.index + 1, event.total, event.result.text_source.value)
            for error in event.result.errors:
                self._end_line()
                print(f"{event.result.status.value}: {self.name} page {event.page_number}, "
                      f"{error.stage}: {error.kind}: {error.message}", file=self.stream)
        elif isinstance(event, events.Warning):
            self._end_line()
            page = f" page {event.page_number}" if event.page_number else ""
            print(f"warning: {Path(event.path).name}{page}: {event.message}", file=self.stream)

    def _draw(self, done: int, total: int, source: str = "") -> None:
        if self.tty:
            width = 24
            filled = int(width * done / total) if total else width
            self.stream.write(f"\r{self.name[:40]:<40} [{'#' * filled}{'.' * (width - filled)}] "
                              f"{done}/{total}")
            self.stream.flush()
        elif done:
            print(f"{self.name}: page {done}/{total} ({source})", file=self.stream, flush=True)

    def _end_line(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

    def finish(self) -> None:
        self._end_line()


def run_convert(args: argparse.Namespace, settings, err: TextIO) -> int:
    from engine.api import Engine  # heavy imports only for the command that needs them

    try:
        flags = {"table_format": args.tables} if args.tables else {}
        if args.layout:
            flags["layout_model"] = parse_layout(args.layout)
        if args.no_json:
            flags["write_json"] = False
        options = options_from_settings(
            settings, output_dir=args.output,
            pages=parse_page_ranges(args.pages) if args.pages else None,
            method=parse_method(args.method), password=args.password, dpi=args.dpi,
            keep_furniture=args.keep_furniture, write_layout_overlay=args.layout_pdf,
            formula_image=args.formula_image, **flags)
    except PaperlensError as exc:
        print(f"error: {exc.message}", file=err)
        return EXIT_USAGE
    paths = expand_inputs(args.inputs)
    if not paths:
        print("error: no supported documents found in the given folders.", file=err)
        return EXIT_FAILED
    engine = Engine(settings)
    cancel = threading.Event()
    failed = partial = 0
    pages = 0
    start = time.perf_counter()
    for path, name in zip(paths, unique_stems(paths)):
        progress = PageProgress(err)
        try:
            result = engine.convert(path, replace(options, output_name=name), on_event=progress,
                                    cancel=cancel)
            progress.finish()
            pages += len(result.pages)
            if result.status is not Status.OK:
                partial += 1
                bad = [str(p.page_number) for p in result.pages if p.status is not Status.OK]
                print(f"{path.name}: {result.status.value}: page(s) {', '.join(bad)} not fully "
                      "read; the output says which and why", file=err)
        except KeyboardInterrupt:
            cancel.set()
            progress.finish()
            print("cancelled; nothing more was written.", file=err)
            return 130
        except Cancelled as exc:
            progress.finish()
            print(f"{path.name}: {exc.message}", file=err)
            failed += 1
        except PaperlensError as exc:
            progress.finish()
            print(f"error: {path}: {exc.message}", file=err)
            failed += 1
    seconds = time.perf_counter() - start
    rate = pages / seconds if seconds > 0 else 0.0
    print(f"{len(paths) - failed} of {len(paths)} document(s) converted"
          f"{f' ({partial} in part)' if partial else ''}, {pages} page(s) in "
          f"{seconds:.1f} s ({rate:.2f} pages/s)", file=err)
    return EXIT_FAILED if failed else EXIT_PARTIAL if partial else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    from settings import SettingsError, SettingsStore

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = SettingsStore().load()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.command == "convert":
        return run_convert(args, settings, sys.stderr)
    if args.command == "models":
        return run_models(args, settings)
    if args.command == "device":
        return run_device(args, settings)
    parser.error(f"unknown command {args.command}")
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())

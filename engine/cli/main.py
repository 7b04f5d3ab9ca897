"""paperlens-cli: convert documents, manage models and the compute device."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from engine import errors, events
from engine.cli.inputs import (PASSWORD_ENV, PasswordPrompt, expand_inputs, given_password,
                               terminal_prompt)
from engine.cli.models import _ProgressDisplay, add_models_parser, run_models
from engine.cli.device import add_device_parser, run_device
from engine.cli.stopping import StopRequests, Stopped, mupdf_quiet
from engine.cli.terminal import ShownStream
from engine.errors import Cancelled, ModelUnavailable, PaperlensError, PasswordRequired
from engine.formats import EXPORT_SUFFIXES, format_flags, parse_formats
from engine.hosting import Converter, LocalConverter
from engine.output.run_names import output_names
from engine.options import (options_from_settings, parse_languages, parse_layout,
                            parse_method, parse_page_ranges, parse_tables_across_pages)
from engine.types import Status

EXIT_OK = 0
EXIT_FAILED = 1
"""An input could not be converted at all (nothing written for it)."""
EXIT_USAGE = 2
EXIT_PARTIAL = 3
"""Every input was written, but some pages failed or were read only in part."""
EXIT_INTERRUPTED = 130
"""Ctrl+C; a SIGTERM exits with 143 (128 + the signal), as a shell reports it."""
PASSWORD_TRIES = 3
# Error kinds that carry a sentence for a person; any other kind is a fault in Paperlens.
TYPED_ERRORS = frozenset(name for name, value in vars(errors).items()
                         if isinstance(value, type) and issubclass(value, PaperlensError))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paperlens-cli",
                                     description="Turn PDFs and images into Markdown, locally.")
    commands = parser.add_subparsers(dest="command", metavar="{convert,models,device}")
    commands.required = True
    convert = commands.add_parser("convert", help="convert documents to Markdown")
    # "*" and checked in run_convert: `--ray` takes an optional ADDRESS, which argparse would
    # otherwise take from the only INPUT and then stop for want of one.
    convert.add_argument("inputs", nargs="*", metavar="INPUT", help="files or folders")
    convert.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                         help="folder for <name>.md and <name>.json")
    convert.add_argument("--pages", metavar="RANGES", help="pages to convert, e.g. 1-3,7")
    convert.add_argument("--method", default="auto", choices=["auto", "txt", "ocr"],
                         help="text source per page: auto (text layer when trustworthy), txt, ocr")
    secret = convert.add_mutually_exclusive_group()
    secret.add_argument("--password", help="password of encrypted PDFs (other users of this "
                        "computer can see it in the process list: prefer --password-file or "
                        f"{PASSWORD_ENV})")
    secret.add_argument("--password-file", metavar="FILE",
                        help="read the password of encrypted PDFs from the first line of FILE "
                             "('-' = standard input)")
    convert.add_argument("--dpi", type=int, default=200, help="render resolution (default 200)")
    convert.add_argument("--layout", choices=["doclaynet", "cdla", "none"],
                         help="layout model (default: the model.layout setting); none = "
                              "paragraphs by geometry only")
    convert.add_argument("--tables", choices=["html", "markdown"],
                         help="table output (default: the output.table_format setting); markdown "
                              "= GFM pipe tables where no cell is merged")
    convert.add_argument("--tables-across-pages", choices=("join", "keep"),
                         help="a table that goes on at the head of the next page (same columns, "
                              "or its header repeated): one table (join) or one per page (keep) "
                              "(default: the output.tables_across_pages setting, join)")
    convert.add_argument("--keep-furniture", action=argparse.BooleanOptionalAction,
                         help="keep running headers, footers and page numbers (default: the "
                              "output.keep_furniture setting, off)")
    convert.add_argument("--layout-pdf", action="store_true",
                         help="also write <name>_layout.pdf with the regions drawn on each page")
    convert.add_argument("--format", metavar="FORMATS",
                         help="what to write, comma-separated: md (Markdown and its images), "
                              "json (JSON and content list), pdf (<name>.searchable.pdf: the "
                              "pages as they are with invisible text), docx (Word), xlsx (one "
                              "sheet per table), alto (<name>.alto.xml, ALTO 4), hocr "
                              "(<name>.hocr): words with their boxes in the page's pixels; "
                              "default md,json")
    convert.add_argument("--no-json", action="store_true", help="write only the Markdown")
    convert.add_argument("--overwrite", action="store_true",
                         help="replace the files an earlier run left under the same name; "
                              "without it, a document whose name is taken in OUTDIR is "
                              "written as <name>-2, <name>-3, ...")
    convert.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                         help="read the pages on a Ray cluster (host:port of its head; without "
                              "it, RAY_ADDRESS or a Ray started here); needs the cluster extra")
    convert.add_argument("--inline-math", choices=("on", "off"),
                         help="formulas inside running text as $...$ (born-digital pages from "
                              "their math fonts, scans from words read with math symbols); off "
                              "keeps the text as the page spells it (default: the "
                              "output.inline_math setting, on)")
    convert.add_argument("--dewarp", action=argparse.BooleanOptionalAction,
                         help="straighten photographed pages (page outline, perspective, curl) "
                              "before reading; --no-dewarp reads them as given (default: the "
                              "output.dewarp setting, on)")
    convert.add_argument("--lang", metavar="LANGS",
                         help="read every OCR line with these Tesseract languages, e.g. rus+eng "
                              "(default: scripts found line by line)")
    convert.add_argument("--formula-image", action="store_true",
                         help="read each image input as one formula (default: only images that "
                              "look like one formula are)")
    convert.epilog = (f"The password is taken from --password, --password-file or the "
                      f"{PASSWORD_ENV} environment variable; without one, Paperlens asks for it "
                      "on a terminal when a document is encrypted.")
    add_models_parser(commands)
    add_device_parser(commands)
    return parser


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
                      f"{error.stage}: {describe_page_error(error)}", file=self.stream)
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


def describe_page_error(error) -> str:
    """A page error for a person: typed errors carry their own sentence; any other kind is a
    fault in Paperlens, not in the document, and the line says so."""
    line = f"{error.kind}: {error.message}"
    if error.kind in TYPED_ERRORS:
        return line
    return f"{line} (an internal error in Paperlens, not a fault of the document; please report it)"


def convert_one(engine: Converter, path: Path, options, progress: "PageProgress",
                cancel: threading.Event, ask: PasswordPrompt | None):
    """The document's result and the options to go on with: a password asked for on the
    terminal is kept for the documents after it."""
    tries = 0
    while True:
        try:
            return engine.convert(path, options, on_event=progress, cancel=cancel), options
        except PasswordRequired as exc:
            tries += 1
            if ask is None or tries > PASSWORD_TRIES:
                raise
            progress.finish()
            print(exc.message, file=progress.stream)
            password = ask(path)
            if not password:
                raise
            options = replace(options, password=password)


def missing_exports(result, options) -> list[str]:
    """The export files asked for that the document did not get."""
    stem = written_stem(result) or options.output_name
    written = {Path(p).name for p in result.outputs}
    names = [f"{stem}{EXPORT_SUFFIXES[f]}" for f in options.exports]
    return [name for name in names if name not in written]


def written_stem(result) -> str | None:
    """The name the document's files were written under (the writer takes the next free
    one when the asked name is taken), or None when nothing was written."""
    for path in result.outputs:
        name = Path(path).name
        for suffix in (".md", "_content_list.json", ".json"):
            if name.endswith(suffix) and Path(path).parent.name != "images":
                return name[: -len(suffix)]
    return None


def run_convert(args: argparse.Namespace, settings, err: TextIO) -> int:
    """`convert`, with Ctrl+C and SIGTERM taken cooperatively from its first line to its last:
    a stop asked for at any moment is exit 130 (143), with nothing of the document in progress
    written or all of it."""
    stop = StopRequests(threading.Event())
    with stop.installed():
        code = convert_inputs(args, settings, err, stop)
    return stop.exit_code if stop.signum is not None else code


def convert_inputs(args: argparse.Namespace, settings, err: TextIO, stop: StopRequests) -> int:
    from engine.engine import Engine  # heavy imports only for the command that needs them

    try:
        flags = {"table_format": args.tables} if args.tables else {}
        if args.layout:
            flags["layout_model"] = parse_layout(args.layout)
        if args.format:
            flags.update(format_flags(parse_formats(args.format)))
        if args.no_json:
            flags["write_json"] = False
        if args.dewarp is not None:
            flags["dewarp"] = args.dewarp
        if args.inline_math is not None:
            flags["inline_math"] = args.inline_math == "on"
        if args.keep_furniture is not None:
            flags["keep_furniture"] = args.keep_furniture
        if args.lang:
            flags["languages"] = parse_languages(args.lang)
        if args.tables_across_pages:
            flags["tables_across_pages"] = parse_tables_across_pages(args.tables_across_pages)
        options = options_from_settings(
            settings, output_dir=args.output,
            pages=parse_page_ranges(args.pages) if args.pages else None,
            method=parse_method(args.method), dpi=args.dpi,
            password=given_password(args.password, args.password_file, os.environ),
            write_layout_overlay=args.layout_pdf,
            formula_image=args.formula_image, overwrite=args.overwrite, **flags)
    except PaperlensError as exc:
        print(f"error: {exc.message}", file=err)
        return EXIT_USAGE
    if args.ray is not None:  # --ray's optional ADDRESS may have taken the first input
        from engine.cli.cluster import split_ray_argument
        args.ray, args.inputs = split_ray_argument(args.ray, args.inputs)
    if not args.inputs:
        print("error: give at least one INPUT (a file or folder) to convert.", file=err)
        return EXIT_USAGE
    paths = expand_inputs(args.inputs)
    if not paths:
        print("error: no supported documents found in the given folders.", file=err)
        return EXIT_FAILED
    # The run's host of the engine (engine/hosting.py): this process, or a Ray cluster's workers.
    engine: Converter = LocalConverter(Engine(settings))
    if args.ray is not None:
        from engine.cli.cluster import ClusterEngine
        try:
            engine = ClusterEngine(args.ray, settings, paths, options, Path(args.output), err)
        except PaperlensError as exc:
            print(f"error: {exc.message}", file=err)
            return EXIT_FAILED
    cancel = stop.cancel
    ask = terminal_prompt(err) if args.ray is None else None
    failed = partial = 0
    pages = 0
    start = time.perf_counter()
    converted = 0
    with mupdf_quiet():
        for path, name in zip(paths, output_names(paths, Path(args.output))):
            progress = PageProgress(err)
            try:
                result, options = convert_one(engine, path, replace(options, output_name=name),
                                              progress, cancel, ask)
                progress.finish()
                if stop.signum is not None:
                    print(f"cancelled; {path.name} was written whole, nothing more was "
                          "written.", file=err)
                    return stop.exit_code
                pages += len(result.pages)
                converted += 1
                missing = missing_exports(result, options)
                stem = written_stem(result)
                if stem is not None and stem != name:
                    print(f"{path.name}: written as {stem}.* in {args.output} ({name}.* "
                          "was there already, or another run was writing it)", file=err)
                if missing and not result.outputs:
                    print(f"error: {path}: nothing was written; {', '.join(missing)} could not "
                          "be made (the warning above says why)", file=err)
                    failed += 1
                    continue
                if result.status is not Status.OK or missing:
                    partial += 1
                if result.status is not Status.OK:
                    bad = [str(p.page_number) for p in result.pages if p.status is not Status.OK]
                    print(f"{path.name}: {result.status.value}: page(s) {', '.join(bad)} not "
                          "fully read; the output says which and why", file=err)
                if missing:
                    print(f"{path.name}: {', '.join(missing)} not written (the warning above "
                          "says why); the other outputs were written", file=err)
            except KeyboardInterrupt as exc:
                cancel.set()
                progress.finish()
                print("cancelled; nothing more was written.", file=err)
                return 128 + exc.signum if isinstance(exc, Stopped) else EXIT_INTERRUPTED
            except Cancelled as exc:
                progress.finish()
                if stop.signum is not None:
                    print("cancelled; nothing more was written.", file=err)
                    return stop.exit_code
                print(f"{path.name}: {exc.message}", file=err)
                failed += 1
            except PaperlensError as exc:
                progress.finish()
                print(f"error: {path}: {exc.message}", file=err)
                if isinstance(exc, PasswordRequired) and ask is None:
                    print(f"  give the password with --password-file FILE or {PASSWORD_ENV}; "
                          "on a terminal Paperlens asks for it", file=err)
                failed += 1
                if isinstance(exc, ModelUnavailable):
                    # A model that cannot be loaded fails every input alike: stop here.
                    failed = len(paths) - converted
                    break
    seconds = time.perf_counter() - start
    rate = pages / seconds if seconds > 0 else 0.0
    print(f"{len(paths) - failed} of {len(paths)} document(s) converted"
          f"{f' ({partial} in part)' if partial else ''}, {pages} page(s) in "
          f"{seconds:.1f} s ({rate:.2f} pages/s)", file=err)
    return EXIT_FAILED if failed else EXIT_PARTIAL if partial else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """The command's exit code; a Ctrl+C before `convert` takes it cooperatively (while the
    engine is being imported, say) is exit 130 and a line, never a traceback."""
    try:
        return run_command(argv)
    except KeyboardInterrupt as exc:
        print("cancelled; nothing more was written.", file=sys.stderr)
        return 128 + exc.signum if isinstance(exc, Stopped) else EXIT_INTERRUPTED


def run_command(argv: list[str] | None) -> int:
    from settings import SettingsError, SettingsStore

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = SettingsStore().load()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for warning in settings.warnings:  # a corrupt file set aside, a value of the wrong type
        print(f"warning: {warning}", file=sys.stderr)
    if args.command == "convert":
        return run_convert(args, settings, ShownStream(sys.stderr))
    if args.command == "models":
        return run_models(args, settings)
    if args.command == "device":
        return run_device(args, settings)
    parser.error(f"unknown command {args.command}")
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())

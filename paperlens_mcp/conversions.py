"""One conversion for the MCP tools: the tool's arguments turned into ConvertOptions the way
paperlens-cli turns its flags, the document read by this process's Engine, and the outcome kept
in the results folder (ok, partial, failed, cancelled or refused alike)."""

from __future__ import annotations

import base64
import binascii
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

from engine.api import (Cancelled, ConvertOptions, DocumentFailed, DocumentStarted, Event,
                        InvalidOptions, PageDone, PaperlensError, document_json, format_flags,
                        options_from_settings, parse_formats, parse_layout, parse_method,
                        parse_page_ranges)
from paperlens_mcp.results import ResultsFolder
from service.storage import safe_name

ProgressSink = Callable[[int, int, str], None]
"""(pages done, pages to read, a line for a person)."""


class Refused(Exception):
    """A request this server does not take (a path outside the allowed folders, bad bytes, an
    option out of range); the message says why and what it takes."""


@dataclass(frozen=True)
class ConversionRequest:
    """The CLI's main options, as the tool takes them; None: the settings' default."""

    pages: str | None = None
    keep_furniture: bool = False
    table_format: str | None = None
    formats: str | None = None
    method: str = "auto"
    layout: str | None = None
    dpi: int = 200

    def options(self, settings, output_dir: Path, name: str) -> ConvertOptions:
        """As `paperlens-cli convert` builds them from the same flags."""
        flags: dict[str, Any] = {}
        if self.table_format:
            flags["table_format"] = self.table_format
        if self.layout:
            flags["layout_model"] = parse_layout(self.layout)
        if self.formats:
            flags.update(format_flags(parse_formats(self.formats)))
        return options_from_settings(
            settings, output_dir=str(output_dir), output_name=name,
            pages=parse_page_ranges(self.pages) if self.pages else None,
            method=parse_method(self.method), dpi=self.dpi,
            keep_furniture=self.keep_furniture, **flags)


@dataclass(frozen=True)
class Source:
    path: Path
    shown: str
    """The path as given, or the name the bytes came with."""


def allowed_path(raw: str, allow_dirs: tuple[Path, ...]) -> Source:
    """A file named by its path, which must lie inside one of the allowed folders once every
    link in it is followed (the service's --allow-dir rule)."""
    if not allow_dirs:
        raise Refused("This server reads files by path only inside the folders it was started "
                      "with (paperlens-mcp --allow-dir FOLDER); none was given. Send the "
                      "document's bytes as content_base64 instead.")
    given = Path(raw)
    if not given.is_absolute():
        raise Refused(f"{raw!r} is not an absolute path.")
    try:
        real = given.resolve(strict=True)
    except (OSError, RuntimeError):
        raise Refused(f"{raw} does not exist.") from None
    if not any(real.is_relative_to(folder) for folder in allow_dirs):
        folders = ", ".join(str(folder) for folder in allow_dirs)
        raise Refused(f"{raw} is outside the folders this server may read ({folders}).")
    if not real.is_file():
        raise Refused(f"{raw} is not a file.")
    return Source(real, raw)


def received_bytes(content_base64: str, filename: str | None, folder: Path,
                   max_bytes: int) -> Source:
    """Bytes sent with the call, kept as <result>/input/<name>; the kind is found from the
    bytes, as for any input, never from the name."""
    if len(content_base64) > (max_bytes + 2) // 3 * 4 + 4:
        raise Refused(f"The document is larger than this server takes ({max_bytes / 2**20:.0f} "
                      "MiB); name it by path inside an allowed folder instead.")
    try:
        data = base64.b64decode(content_base64, validate=True)
    except (binascii.Error, ValueError):
        raise Refused("content_base64 is not base64 (RFC 4648, standard alphabet).") from None
    if not data:
        raise Refused("content_base64 holds no bytes.")
    name = safe_name(filename, fallback="document")
    target = folder / "input" / name
    target.parent.mkdir(mode=0o700)
    target.write_bytes(data)
    return Source(target, name)


class Conversions:
    """The one Engine of this process and the results folder; one conversion at a time."""

    def __init__(self, engine, settings, results: ResultsFolder,
                 allow_dirs: tuple[Path, ...] = (), max_bytes: int = 100 * 2**20) -> None:
        self.engine = engine
        self.settings = settings
        self.results = results
        self.allow_dirs = tuple(folder.resolve() for folder in allow_dirs)
        self.max_bytes = max_bytes
        self._lock = threading.Lock()

    def run(self, request: ConversionRequest, path: str | None, content_base64: str | None,
            filename: str | None, on_progress: ProgressSink,
            cancel: threading.Event) -> dict[str, Any]:
        """Convert, keep the outcome, and return it with its Markdown. Raises Refused for a
        request refused before reading, PaperlensError (and Cancelled) for a conversion that
        ended without a document; their record is kept all the same."""
        if (path is None) == (content_base64 is None):
            raise Refused("Give the document either as path (inside an allowed folder) or as "
                          "content_base64, not both and not neither.")
        if path is not None:
            source = allowed_path(path, self.allow_dirs)
        with self._lock:
            result_id, folder = self.results.new()
            record: dict[str, Any] = {"id": result_id, "request": asdict(request),
                                      "started": _now(), "pages_read": 0}
            try:
                if content_base64 is not None:
                    source = received_bytes(content_base64, filename, folder, self.max_bytes)
                record["source"] = source.shown
                options = request.options(self.settings, folder / "files", source.path.stem)
                return self._convert(source, options, record, folder, on_progress, cancel)
            except BaseException as exc:
                record.update(finished=_now(), status=_ending(exc), message=_message(exc))
                failed = getattr(exc, "result", None)
                if isinstance(exc, DocumentFailed) and failed is not None:
                    record["pages"] = _pages(failed)
                self.results.save(folder, record)
                raise

    def _convert(self, source: Source, options: ConvertOptions, record: dict[str, Any],
                 folder: Path, on_progress: ProgressSink,
                 cancel: threading.Event) -> dict[str, Any]:
        def heard(event: Event) -> None:
            if isinstance(event, DocumentStarted):
                record["page_count"] = event.page_count
                on_progress(0, event.page_count, f"{source.path.name}: {event.page_count} "
                            "page(s) to read")
            elif isinstance(event, PageDone):
                record["pages_read"] = event.index + 1
                on_progress(event.index + 1, event.total,
                            f"page {event.page_number} read ({event.result.status.value}, "
                            f"{event.result.text_source.value})")

        result = self.engine.convert(source.path, options, on_event=heard, cancel=cancel)
        files = sorted(str(Path(p).relative_to(folder)) for p in result.outputs)
        document = document_json(result)  # the JSON paperlens-cli writes
        record.update(finished=_now(), status=result.status.value, files=files,
                      pages=_pages(result), warnings=list(result.warnings))
        self.results.save(folder, record, document, result.markdown)
        return {**record, "markdown": result.markdown}


def _pages(result) -> list[dict[str, Any]]:
    return [{"page_number": page.page_number, "status": page.status.value,
             "text_source": page.text_source.value,
             "errors": [f"{e.stage}: {e.kind}: {e.message}" for e in page.errors]}
            for page in result.pages]


def _ending(exc: BaseException) -> str:
    if isinstance(exc, Cancelled):
        return "cancelled"
    if isinstance(exc, (Refused, InvalidOptions)):
        return "refused"
    return "failed" if isinstance(exc, PaperlensError) else "error"


def _message(exc: BaseException) -> str:
    if isinstance(exc, Cancelled):
        return "Cancelled by the client; nothing was written."
    return getattr(exc, "message", None) or str(exc) or type(exc).__name__


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())

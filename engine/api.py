"""The declared Python API of Paperlens: the one module programs and every front end import.

    from engine.api import ConvertOptions, Engine, load_settings
    result = Engine(load_settings()).convert("scan.pdf", ConvertOptions(output_dir="out"))

Every name a program may use is in `__all__`, grouped below as docs/api.md describes them;
everything else under engine/ is internal and may change without notice. A name is imported
from its room on first use (PEP 562), so `import engine.api` loads nothing heavy: the window
and the HTTP server take a constant or an error class from here without OpenCV, MuPDF or
ONNX Runtime. Nothing inside engine/ imports this module (a test checks it): it faces
outward, so it can name anything in the engine without drawing an import circle. It names no
module of engine/cli/ either: what the CLI shares with the other front ends lives in the room
it is about. A front end's way of hosting the engine (in its process, a child process, a
cluster) is named here too when it is one of the engine's rooms, never imported from there."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Room -> the names this module hands on from it, in the groups of docs/api.md. The
# TYPE_CHECKING block at the end names the same (a test holds them equal), for type checkers
# and readers.
_ROOMS: dict[str, tuple[str, ...]] = {
    # Converting a document
    "engine.engine": ("Engine",),
    "settings": ("Settings", "load_settings"),  # what an Engine is made from
    "engine.options": ("ConvertOptions", "TextMethod", "options_from_settings",
                       "parse_page_ranges", "parse_layout", "parse_method", "parse_languages",
                       "LAYOUT_MODELS", "DEFAULT_DPI", "MIN_DPI", "MAX_DPI",
                       "TablesAcrossPages", "parse_tables_across_pages"),
    "engine.formats": ("OutputFormat", "parse_formats", "format_flags",
                              "EXPORT_SUFFIXES", "ExportFailed"),
    # Results
    "engine.types": ("DocumentResult", "PageResult", "PageError", "Status", "TextSource",
                     "Block", "BlockKind", "Line", "Word", "Span", "Region", "Box"),
    "engine.content.tables": ("Table", "TableCell"),
    "engine.content.formulas": ("Formula",),
    "engine.content.crops": ("Crop",),
    "engine.output.document_json": ("document_json", "SCHEMA_VERSION"),
    "engine.output.content_list": ("content_list",),
    # Events
    "engine.events": ("DocumentStarted", "PageProgress", "PageDone", "ModelDownloadProgress",
                      "DeviceDecided", "Event", "EventCallback", "ignore_event"),
    # Errors
    "engine.errors": ("PaperlensError", "UnsupportedInput", "UnsafeInput", "CorruptDocument",
                      "PasswordRequired", "WrongPassword", "ModelUnavailable",
                      "ModelIntegrityError", "OutputNotWritable", "Cancelled",
                      "InvalidOptions", "DocumentFailed", "PageTooLarge",
                      "ClusterUnavailable", "WorkerLost"),
    # Hosts of the engine: the protocol, its error codec, its cancel and warm-up (ADR 0027)
    "engine.hosting": ("Converter", "LocalConverter", "RemoteError", "encode_error",
                       "decode_error", "error_types", "HostLost", "HostError",
                       "cancel_check", "warm_up", "device_facts"),
    # Inputs
    "engine.input.suffixes": ("SUPPORTED_SUFFIXES",),
    "engine.input.kinds": ("identify",),
    "engine.input.probe": ("probe_document", "Identity"),
    "engine.input.document": ("open_document", "Document"),
    "engine.names": ("CONTROL_CHARACTERS",),
    # Pages for a front end with its own queue (the service), and a Ray cluster's pages
    "engine.recipe": ("select_pages", "read_pages", "assemble_document"),
    "engine.structure.hyphens": ("word_lists_loader",),
    "engine.page": ("PageOutcome",),
    "engine.cluster.pages": ("ClusterPages",),
    "engine.cluster.converter": ("ClusterConverter",),
    "engine.cluster.pool": ("check_reachable",),
    "engine.cluster.ledger": ("MAX_ATTEMPTS", "lost_message", "lost_page"),
    # Files and exports made from a result
    "engine.export.registry": ("ExportContext", "export_document"),
    "engine.export.page_words": ("table_lines", "block_lines", "words_of", "PlacedWord",
                                 "InputPixels"),
    "engine.content.table_html": ("table_html",),
    "engine.output.tables": ("table_markdown",),
    "engine.output.writer": ("name_taken",),
    "engine.output.run_names": ("output_names",),
    # Models and devices
    "engine.models.store": ("ModelStore", "default_model_dir"),
    "engine.models.manifest": ("load_manifest",),
    "engine.ocr.unread_scripts": ("models_for_unread_scripts",),
    "engine.device.status": ("DeviceStatus",),
}

# Public names that differ from the name in their room, where that name needs its room to
# be clear: public name -> (room, name there).
_RENAMED: dict[str, tuple[str, str]] = {
    # events.Warning would hide Python's builtin Warning in a program's namespace.
    "WarningEvent": ("engine.events", "Warning"),
    "device_status_lines": ("engine.device.status_text", "status_lines"),
}

_WHERE: dict[str, tuple[str, str]] = {
    **{name: (room, name) for room, names in _ROOMS.items() for name in names},
    **_RENAMED}

__all__ = tuple(_WHERE)


def __getattr__(name: str) -> Any:
    try:
        room, there = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}; the public "
                             "names are in engine.api.__all__ (docs/api.md)") from None
    value = getattr(importlib.import_module(room), there)
    globals()[name] = value  # once found, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # pragma: no cover
    from engine.cluster.ledger import MAX_ATTEMPTS, lost_message, lost_page
    from engine.cluster.converter import ClusterConverter
    from engine.cluster.pages import ClusterPages
    from engine.cluster.pool import check_reachable
    from engine.device.status import DeviceStatus
    from engine.device.status_text import status_lines as device_status_lines
    from engine.engine import Engine
    from engine.errors import (Cancelled, ClusterUnavailable, CorruptDocument, DocumentFailed,
                               InvalidOptions, ModelIntegrityError, ModelUnavailable,
                               OutputNotWritable, PageTooLarge, PaperlensError,
                               PasswordRequired, UnsafeInput, UnsupportedInput, WorkerLost,
                               WrongPassword)
    from engine.events import (DeviceDecided, DocumentStarted, Event, EventCallback,
                               ModelDownloadProgress, PageDone, PageProgress, ignore_event)
    from engine.events import Warning as WarningEvent
    from engine.formats import (EXPORT_SUFFIXES, ExportFailed, OutputFormat,
                                       format_flags, parse_formats)
    from engine.export.registry import ExportContext, export_document
    from engine.export.page_words import (InputPixels, PlacedWord, block_lines, table_lines,
                                          words_of)
    from engine.hosting import (Converter, HostError, HostLost, LocalConverter, RemoteError,
                                cancel_check, decode_error, device_facts, encode_error,
                                error_types, warm_up)
    from engine.input.document import Document, open_document
    from engine.input.kinds import identify
    from engine.input.probe import Identity, probe_document
    from engine.input.suffixes import SUPPORTED_SUFFIXES
    from engine.models.manifest import load_manifest
    from engine.models.store import ModelStore, default_model_dir
    from engine.ocr.unread_scripts import models_for_unread_scripts
    from engine.names import CONTROL_CHARACTERS
    from engine.options import (DEFAULT_DPI, LAYOUT_MODELS, MAX_DPI, MIN_DPI, ConvertOptions,
                                TablesAcrossPages, TextMethod, options_from_settings,
                                parse_languages, parse_layout, parse_method, parse_page_ranges,
                                parse_tables_across_pages)
    from engine.output.content_list import content_list
    from engine.output.document_json import SCHEMA_VERSION, document_json
    from engine.output.run_names import output_names
    from engine.content.table_html import table_html
    from engine.output.tables import table_markdown
    from engine.content.tables import Table, TableCell
    from engine.content.formulas import Formula
    from engine.content.crops import Crop
    from engine.output.writer import name_taken
    from engine.page import PageOutcome
    from engine.recipe import assemble_document, read_pages, select_pages
    from engine.structure.hyphens import word_lists_loader
    from settings import Settings, load_settings
    from engine.types import (Block, BlockKind, Box, DocumentResult, Line, PageError,
                              PageResult, Region, Span, Status, TextSource, Word)

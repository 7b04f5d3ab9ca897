"""One peer tool in its own process: load it once, then time the items asked for on stdin.

Runs inside the peers' environment, so it imports only the standard library, the peer itself
and the two stdlib-only modules beside it. The protocol is one JSON object per line: the first
line out says the tool is ready (its load time and versions) or why it is not; then each line
in ({"inputs": [...], "language": ..., "runs": N, "warmup": W, "budget_s": B}) gets one
ItemTiming line out.
Everything the tool itself prints goes to stderr, so stdout carries the protocol only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from importlib import metadata
from pathlib import Path

from tools.peers.timing import time_item


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return ""


class RapidOcrPeer:
    """RapidOCR with its bundled default models (PP-OCRv6 det and rec), Markdown by its own
    `to_markdown`, which orders the lines by their boxes."""

    def __init__(self, languages: list[str]) -> None:
        from rapidocr import RapidOCR

        self._engine = RapidOCR(params={"Global.log_level": "warning"})
        self.versions = {name: _version(name) for name in ("rapidocr", "onnxruntime")}

    def convert(self, path: Path, language: str) -> tuple[str, int]:
        output = self._engine(str(path))
        if not getattr(output, "txts", None):
            return "", 1
        return output.to_markdown(), 1


class TesseractPeer:
    """Tesseract from the Debian packages, one reader per language, plain text out."""

    def __init__(self, languages: list[str]) -> None:
        from tools.peers.tesseract_capi import TesseractReader

        self._readers = {language: TesseractReader(language) for language in languages}
        first = next(iter(self._readers.values()))
        self.versions = {"tesseract": first.version}

    def convert(self, path: Path, language: str) -> tuple[str, int]:
        return self._readers[language].read_text(path), 1

    def close(self) -> None:
        for reader in self._readers.values():
            reader.close()


class PyMuPdf4LlmPeer:
    """pymupdf4llm's `to_markdown` with its defaults (the layout model when installed), except
    OCR: its fallback calls whichever OCR engine is installed (RapidOCR or Tesseract, measured
    on their own here), so it is off and pymupdf4llm is measured on the text layer alone."""

    def __init__(self, languages: list[str]) -> None:
        import pymupdf
        import pymupdf4llm

        self._pymupdf, self._to_markdown = pymupdf, pymupdf4llm.to_markdown
        self.versions = {name: _version(name)
                         for name in ("pymupdf4llm", "pymupdf", "pymupdf-layout", "onnxruntime")}

    def convert(self, path: Path, language: str) -> tuple[str, int]:
        with self._pymupdf.open(path) as document:
            return self._to_markdown(document, use_ocr=False), document.page_count


# Keys are the tool names of tools.peers.plan.Tool (not imported: it needs the main venv).
PEERS = {"rapidocr": RapidOcrPeer, "tesseract": TesseractPeer, "pymupdf4llm": PyMuPdf4LlmPeer}


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.peers.worker")
    parser.add_argument("tool", choices=sorted(PEERS))
    parser.add_argument("--warm-input", type=Path, required=True,
                        help="a tiny document converted once at load, so lazy loaders run")
    parser.add_argument("--languages", nargs="+", default=["eng"])
    return parser.parse_args(argv)


def _protocol_stream():
    """Keep the real stdout for the protocol and send fd 1 (print, C libraries) to stderr."""
    stream = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return stream


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    out = _protocol_stream()

    def answer(message: dict) -> None:
        out.write(json.dumps(message, ensure_ascii=False) + "\n")

    started = time.perf_counter()
    try:
        peer = PEERS[args.tool](args.languages)
        peer.convert(args.warm_input, args.languages[0])
    except Exception as error:  # noqa: BLE001 - reported to the runner, which skips the tool
        answer({"ready": False, "error": f"{type(error).__name__}: {error}"})
        return 1
    answer({"ready": True, "load_s": time.perf_counter() - started, "versions": peer.versions})
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        language = request["language"]
        timing = time_item(lambda path: peer.convert(path, language),
                           [Path(p) for p in request["inputs"]], request["runs"],
                           request["warmup"], request["budget_s"])
        answer(timing.to_json())
    close = getattr(peer, "close", None)
    if close is not None:
        close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which tool reads which dev-set item, from which file, in which language."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from tools.eval.manifest import ManifestItem

PDF_SUFFIX = ".pdf"
# Manifest tags (see the dev set's README): b = scanned or image-only page or line,
# f = Chinese text.
SCANNED_TAG = "b"
CHINESE_TAG = "f"


class Tool(str, Enum):
    PAPERLENS = "paperlens"
    RAPIDOCR = "rapidocr"
    TESSERACT = "tesseract"
    PYMUPDF4LLM = "pymupdf4llm"


PEERS = (Tool.RAPIDOCR, Tool.TESSERACT, Tool.PYMUPDF4LLM)
LABELS = {Tool.PAPERLENS: "Paperlens", Tool.RAPIDOCR: "RapidOCR", Tool.TESSERACT: "Tesseract",
          Tool.PYMUPDF4LLM: "pymupdf4llm"}
# Tools that read page images: a PDF reaches them as one rendered PNG per page.
READS_PAGE_IMAGES = frozenset({Tool.RAPIDOCR, Tool.TESSERACT})


def is_pdf(item: ManifestItem) -> bool:
    return item.input_path.suffix.lower() == PDF_SUFFIX


def is_scan(item: ManifestItem) -> bool:
    """A scanned page or an image: what Tesseract is for. A PDF counts by its manifest tag."""
    return not is_pdf(item) or SCANNED_TAG in item.tags


def reads(tool: Tool, item: ManifestItem) -> bool:
    """Paperlens and RapidOCR read every item; Tesseract the scans and images; pymupdf4llm the
    digital PDFs (a scan has no text for it to extract)."""
    if tool is Tool.TESSERACT:
        return is_scan(item)
    if tool is Tool.PYMUPDF4LLM:
        return is_pdf(item) and not is_scan(item)
    return True


def language(item: ManifestItem) -> str:
    """The Tesseract language a user would pick for the item; the other tools ignore it."""
    return "chi_sim" if CHINESE_TAG in item.tags else "eng"


def languages(items: Sequence[ManifestItem]) -> list[str]:
    """The distinct languages of `items`, "eng" first when present."""
    found = sorted({language(item) for item in items}, key=lambda name: (name != "eng", name))
    return found or ["eng"]


def items_for(tool: Tool, items: Sequence[ManifestItem]) -> list[ManifestItem]:
    return [item for item in items if reads(tool, item)]

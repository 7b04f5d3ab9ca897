"""Content list export: the document's blocks in reading order, one flat JSON list (MinerU-style)."""

from __future__ import annotations

from typing import Any

from engine.formulas.inline import spans_text
from engine.output.markdown import FURNITURE
from engine.content.table_html import table_html
from engine.types import Block, BlockKind, PageResult

# Boxes are given on a 0-1000 grid of the page so they do not depend on the render DPI.
GRID = 1000


def _bbox(block: Block, page: PageResult) -> list[int]:
    w, h = max(page.width, 1), max(page.height, 1)
    return [round(block.box.x0 / w * GRID), round(block.box.y0 / h * GRID),
            round(block.box.x1 / w * GRID), round(block.box.y1 / h * GRID)]


def content_list(pages: list[PageResult] | tuple[PageResult, ...]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for page_idx, page in enumerate(pages):
        # A page that failed or was read in part says so where its content would be; readers
        # that know only MinerU's types pass over the unknown type.
        items.extend({"type": "page_error", "page_idx": page_idx, "status": page.status.value,
                      "stage": error.stage, "error": error.kind, "text": error.message}
                     for error in page.errors)
        for block in page.blocks:
            if block.is_continuation:  # its rows are in the table on an earlier page
                continue
            entry = _entry(block)
            if entry is None:
                continue
            entry["bbox"] = _bbox(block, page)
            entry["page_idx"] = page_idx
            items.append(entry)
    _attach_captions(items)
    return items


def _entry(block: Block) -> dict[str, Any] | None:
    kind = block.kind
    if kind in FURNITURE:
        return {"type": "discarded", "sub_type": kind.value, "text": block.text}
    if kind in (BlockKind.TITLE, BlockKind.SECTION_HEADER):
        return {"type": "text", "text": spans_text(block), "text_level": block.level or 1}
    if kind is BlockKind.TABLE:
        body = table_html(block.table) if block.table is not None else ""
        return {"type": "table", "img_path": _image_path(block), "table_body": body,
                "text": "" if body else block.text, "table_caption": [],
                "table_footnote": []}
    if kind is BlockKind.FIGURE:
        return {"type": "image", "img_path": _image_path(block), "image_caption": [],
                "image_footnote": []}
    if kind is BlockKind.FORMULA:
        formula = block.formula
        latex = formula.latex if formula is not None else ""
        entry = {"type": "equation", "text": latex or block.text,
                 "text_format": "latex" if latex else "ocr", "img_path": _image_path(block)}
        if latex and formula.confidence is not None:
            entry["confidence"] = round(formula.confidence, 4)
        if formula is not None and formula.guard:
            entry["guard"] = formula.guard
        return entry
    if kind is BlockKind.CODE:
        # MinerU's code item: the listing's lines as shown, and its language when clear.
        return {"type": "code", "sub_type": "code", "code_body": block.text,
                "guess_lang": block.language, "code_caption": []}
    if not block.text:
        return None
    # Inline formulas as MinerU writes them: $...$ inside the text.
    entry: dict[str, Any] = {"type": "text", "text": spans_text(block)}
    if kind is not BlockKind.TEXT:
        entry["sub_type"] = kind.value
    return entry


def _image_path(block: Block) -> str:
    return block.crop.path if block.crop is not None else ""


def _attach_captions(items: list[dict[str, Any]]) -> None:
    """A caption that sits right before or after a table or image is listed with it too."""
    for i, item in enumerate(items):
        if item.get("sub_type") != BlockKind.CAPTION.value:
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(items) and items[j]["type"] in ("table", "image"):
                key = "table_caption" if items[j]["type"] == "table" else "image_caption"
                items[j][key].append(item["text"])
                break

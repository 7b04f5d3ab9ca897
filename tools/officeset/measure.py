"""The Office set measured: each generated document converted from its own markup and scored
against its truth (order-sensitive text similarity; TEDS of each table against the truth's, in
order), each pasted scan or screenshot by the similarity of the text read off it, and each
document laid out as a PDF by LibreOffice and converted as a PDF, its text compared with the
text read from the markup that a printout shows (no speaker notes, no sheet names); and each
document holding what Paperlens leaves out (a chart, a picture in a table cell, formulas saved
without values) checked for a partial page that names it."""

from __future__ import annotations

import json
import re
import statistics
import tempfile
from pathlib import Path

from tools.eval.scoring import strip_markdown, text_similarity
from tools.eval.tables import html_tables, table_to_html
from tools.eval.teds import teds
from tools.officeset.generate import OfficeItem, soffice

_HEADING_LINE = re.compile(r"^#{1,6} .*$", re.M)


def load_items(folder: Path) -> list[OfficeItem]:
    return [OfficeItem(**row) for row in
            json.loads((folder / "manifest.json").read_text(encoding="utf-8"))]


def table_scores(markdown: str, truths: list[str]) -> list[float]:
    """TEDS of the document's tables against the truth's, paired in order (a missing one 0)."""
    found = [table_to_html(t) for t in html_tables(markdown)]
    return [teds(found[i], truth) if i < len(found) else 0.0 for i, truth in enumerate(truths)]


def scan_text(markdown: str) -> str:
    """What a scan document's Markdown holds besides its heading: the text read off the
    picture (the picture's own link is stripped by the scorer)."""
    return _HEADING_LINE.sub("", markdown)


def printed_markdown(result) -> str:
    """The Markdown of what a printout shows: a presentation without its speaker notes, a
    workbook without its sheet names (LibreOffice prints neither in its PDF)."""
    from dataclasses import replace

    from engine.output.markdown import render_markdown
    from engine.types import BlockKind

    unprinted = {"pptx": BlockKind.FOOTNOTE, "odp": BlockKind.FOOTNOTE,
                 "xlsx": BlockKind.SECTION_HEADER, "ods": BlockKind.SECTION_HEADER}
    left_out = unprinted.get(result.kind)
    pages = [replace(page, blocks=tuple(b for b in page.blocks if b.kind is not left_out))
             for page in result.pages]
    return render_markdown(pages)


def measure(folder: Path, engine, compare_pdf: bool = True) -> dict:
    from engine.options import ConvertOptions

    options = ConvertOptions(write_json=False, write_content_list=False)
    rows = []
    for item in load_items(folder):
        result = engine.convert(folder / item.file, options)
        markdown = result.markdown
        row: dict = {"name": item.name, "family": item.family, "kind": result.kind,
                     "pages": result.page_count}
        if item.scan:
            row["scan"] = round(text_similarity(scan_text(markdown), item.scan), 4)
            row["text"] = round(text_similarity(markdown, item.truth + "\n" + item.scan), 4)
        else:
            row["text"] = round(text_similarity(markdown, item.truth), 4)
            scores = table_scores(markdown, item.tables)
            row["teds"] = round(statistics.mean(scores), 4) if scores else None
        if compare_pdf and not item.scan:
            with tempfile.TemporaryDirectory(prefix="paperlens-officeset-") as out:
                pdf = soffice(folder / item.file, "pdf", Path(out))
                as_pdf = engine.convert(pdf, options).markdown
            row["pdf_text"] = round(text_similarity(as_pdf, printed_markdown(result)), 4)
        rows.append(row)
        print(json.dumps(row), flush=True)
    rows.extend(measure_left_out(folder, engine, options))
    return {"documents": rows, "families": summarise(rows)}


def measure_left_out(folder: Path, engine, options) -> list[dict]:
    """Each document holding what Paperlens leaves out: named when the page is partial and its
    warning says what; its text around the thing still read."""
    from engine.types import Status

    rows = []
    listed = folder / "left_out.json"
    for item in json.loads(listed.read_text(encoding="utf-8")) if listed.is_file() else []:
        result = engine.convert(folder / item["file"], options)
        said = " ".join(w for page in result.pages for w in page.warnings)
        named = (result.status is Status.PARTIAL and item["says"] in said)
        row = {"name": item["name"], "family": "left-out", "kind": result.kind,
               "pages": result.page_count, "named": 1.0 if named else 0.0,
               "text": 1.0 if item["text"] in strip_markdown(result.markdown) else 0.0}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def summarise(rows: list[dict]) -> dict:
    families: dict[str, dict] = {}
    for family in sorted({r["family"] for r in rows}):
        chosen = [r for r in rows if r["family"] == family]
        summary = {"documents": len(chosen),
                   "text": round(statistics.mean(r["text"] for r in chosen), 4),
                   "text_min": round(min(r["text"] for r in chosen), 4)}
        for key in ("teds", "scan", "pdf_text", "named"):
            values = [r[key] for r in chosen if r.get(key) is not None]
            if values:
                summary[key] = round(statistics.mean(values), 4)
                summary[f"{key}_min"] = round(min(values), 4)
        families[family] = summary
    return families

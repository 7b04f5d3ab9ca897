"""docling on the same Office documents, in its own virtual environment (never Paperlens's):

    python -m venv build/docling-venv && build/docling-venv/bin/pip install docling==2.143.0
    python -m tools.officeset --docling build/docling-venv/bin/python

docling reads DOCX, XLSX and PPTX with its own backends, without models (the PDF pipeline's
layout models come from Hugging Face); it reads no OpenDocument. Each document's items are
written as Paperlens writes its Markdown, so that the two are scored alike: headings, text and
list items as text, formulas as display LaTeX, tables as HTML with their spans (docling's
Markdown repeats a spanned cell's text in every cell it covers) and header rows (its `<th>`
rows made a `<thead>`), pictures as nothing (docling does not read their text without its OCR
models). Its own default content layer is kept: speaker notes are not in it."""

from __future__ import annotations

import json
import re
import statistics
import subprocess
from pathlib import Path

from tools.eval.scoring import text_similarity
from tools.officeset.generate import OfficeItem
from tools.officeset.measure import table_scores

READ_BY_DOCLING = ("docx", "xlsx", "pptx")
# Run inside docling's environment: file paths on stdin, one JSON object of file -> text out.
_SCRIPT = r"""
import json, sys
from docling.document_converter import DocumentConverter
from docling_core.types.doc import (FormulaItem, ListItem, SectionHeaderItem, TableItem,
                                    TextItem, TitleItem)
converter = DocumentConverter()
out = {}
for path in json.load(sys.stdin):
    try:
        document = converter.convert(path).document
    except Exception as exc:
        out[path] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        continue
    pieces = []
    for item, _level in document.iterate_items():
        if isinstance(item, TableItem):
            pieces.append(item.export_to_html(doc=document, add_caption=False))
        elif isinstance(item, (TitleItem, SectionHeaderItem)):
            pieces.append("# " + item.text)
        elif isinstance(item, FormulaItem):
            pieces.append("$$\n" + item.text + "\n$$")
        elif isinstance(item, ListItem):
            pieces.append("- " + item.text)
        elif isinstance(item, TextItem) and item.text:
            pieces.append(item.text)
    out[path] = {"markdown": "\n\n".join(pieces) + "\n"}
json.dump(out, sys.stdout)
"""


_TH_ROW = re.compile(r"<tr>(?:<th[^>]*>.*?</th>)+</tr>")


def _head_rows(markdown: str) -> str:
    """docling's tables with their header rows (rows of `<th>` cells at the top of its
    `<tbody>`) in a `<thead>` of `<td>` cells, as Paperlens and the truth write a head."""
    def table(match: re.Match[str]) -> str:
        body = match.group(1)
        head = ""
        while (row := _TH_ROW.match(body)) is not None:
            head += row.group(0).replace("<th", "<td").replace("</th>", "</td>")
            body = body[row.end():]
        return ("<table>" + (f"<thead>{head}</thead>" if head else "")
                + (f"<tbody>{body}</tbody>" if body else "") + "</table>")

    return re.sub(r"<table><tbody>(.*?)</tbody></table>", table, markdown, flags=re.S)


def docling_version(python: Path) -> str:
    done = subprocess.run([str(python), "-c", "import importlib.metadata as m; "
                           "print(m.version('docling'))"], capture_output=True, text=True,
                          check=True, timeout=120)
    return done.stdout.strip()


def measure_docling(folder: Path, items: list[OfficeItem], python: Path) -> dict:
    """docling's text and table scores on the documents it reads, by family."""
    chosen = [i for i in items if i.file.rsplit(".", 1)[-1] in READ_BY_DOCLING]
    done = subprocess.run([str(python), "-c", _SCRIPT], capture_output=True, text=True,
                          input=json.dumps([str(folder / i.file) for i in chosen]),
                          env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"},
                          check=True, timeout=1800)
    read = json.loads(done.stdout)
    rows = []
    for item in chosen:
        answer = read[str(folder / item.file)]
        markdown = _head_rows(answer.get("markdown", ""))
        row = {"name": item.name, "family": item.family, "error": answer.get("error")}
        truth = item.truth + ("\n" + item.scan if item.scan else "")
        row["text"] = round(text_similarity(markdown, truth), 4)
        if item.tables:
            row["teds"] = round(statistics.mean(table_scores(markdown, item.tables)), 4)
        rows.append(row)
    families = {}
    for family in sorted({r["family"] for r in rows}):
        chosen_rows = [r for r in rows if r["family"] == family]
        summary = {"documents": len(chosen_rows),
                   "text": round(statistics.mean(r["text"] for r in chosen_rows), 4),
                   "text_min": round(min(r["text"] for r in chosen_rows), 4)}
        teds = [r["teds"] for r in chosen_rows if "teds" in r]
        if teds:
            summary.update(teds=round(statistics.mean(teds), 4), teds_min=round(min(teds), 4))
        families[family] = summary
    return {"version": docling_version(python), "documents": rows, "families": families}

"""The generated documents converted by the real engine and scored: a page break a table crosses
is joined or not (precision and recall of joins over every document's page breaks, each after a
table reaching the foot of its page), the recall again over the breaks whose two sides the
engine found as tables at all (a borderless table the layout model reads as text cannot be
joined), and whether a joined table has every row once."""

from __future__ import annotations

import json
import time
from pathlib import Path

from engine.content.tables import filled_rows
from engine.types import BlockKind, DocumentResult


def joined_breaks(result: DocumentResult) -> set[tuple[int, int]]:
    """The page breaks (page, next page) that a joined table crosses."""
    found = set()
    for page in result.pages:
        for block in page.blocks:
            pages = block.table_pages
            found.update(zip(pages, pages[1:]))
    return found


def first_table_rows(result: DocumentResult) -> int | None:
    """Rows of the document's first table as the Markdown and exports have it."""
    for page in result.pages:
        for block in page.blocks:
            if (block.kind is BlockKind.TABLE and block.table is not None
                    and not block.is_continuation):
                return filled_rows(block.table).rows
    return None


def measure(folder: Path, engine, names: list[str] | None = None) -> dict:
    from engine.options import ConvertOptions

    documents = []
    for truth_path in sorted(folder.glob("*.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        if names and truth["name"] not in names:
            continue
        started = time.perf_counter()
        result = engine.convert(str(truth_path.with_suffix(".pdf")), ConvertOptions())
        seconds = time.perf_counter() - started
        joined = joined_breaks(result)
        found = {p.page_number for p in result.pages
                 if any(b.kind is BlockKind.TABLE and b.table is not None for b in p.blocks)}
        breaks = [{"pages": b["pages"], "truth": b["joined"],
                   "joined": tuple(b["pages"]) in joined,
                   "tables_found": set(b["pages"]) <= found} for b in truth["boundaries"]]
        rows = first_table_rows(result)
        documents.append({"name": truth["name"], "family": truth["family"],
                          "scanned": bool(truth.get("scanned")), "style": truth["style"],
                          "seconds": round(seconds, 2), "breaks": breaks,
                          "extra_joins": sorted(joined - {tuple(b["pages"]) for b in breaks}),
                          "rows": rows, "truth_rows": truth["first_table_rows"],
                          "tables": sum(1 for p in result.pages for b in p.blocks
                                        if b.kind is BlockKind.TABLE and not b.is_continuation),
                          "truth_tables": truth["tables"]})
        print(documents[-1]["name"], documents[-1]["breaks"], rows, truth["first_table_rows"],
              flush=True)
    return {"documents": documents, "summary": summary(documents)}


def scores(documents: list[dict]) -> dict:
    breaks = [b for d in documents for b in d["breaks"]]
    true_pos = sum(b["truth"] and b["joined"] for b in breaks)
    false_pos = sum(not b["truth"] and b["joined"] for b in breaks) \
        + sum(len(d["extra_joins"]) for d in documents)
    false_neg = sum(b["truth"] and not b["joined"] for b in breaks)
    seen = [b for b in breaks if b["truth"] and b["tables_found"]]
    joined_docs = [d for d in documents if d["truth_rows"] is not None
                   and all(b["joined"] for b in d["breaks"])]
    return {"documents": len(documents), "breaks": len(breaks),
            "true_joins": sum(b["truth"] for b in breaks), "joined": true_pos + false_pos,
            "precision": round(true_pos / (true_pos + false_pos), 4) if true_pos + false_pos
            else None,
            "recall": round(true_pos / (true_pos + false_neg), 4) if true_pos + false_neg
            else None,
            "found_recall": round(sum(b["joined"] for b in seen) / len(seen), 4) if seen
            else None,
            "rows_exact": round(sum(d["rows"] == d["truth_rows"] for d in joined_docs)
                                / len(joined_docs), 4) if joined_docs else None,
            "seconds_per_document": round(sum(d["seconds"] for d in documents)
                                          / len(documents), 2) if documents else 0.0}


def summary(documents: list[dict]) -> dict:
    """Scores over all documents of each kind (digital, scanned), then the digital ones by
    family and by the table's rules (a full grid, journal rules, no lines at all)."""
    groups: dict[str, list[dict]] = {}
    for document in documents:
        kind = "scanned" if document["scanned"] else "digital"
        groups.setdefault(f"all {kind}", []).append(document)
    for document in documents:
        if not document["scanned"]:
            groups.setdefault(document["family"], []).append(document)
    for document in documents:
        if not document["scanned"]:
            groups.setdefault(f"{document['style']} tables", []).append(document)
    order = sorted(groups, key=lambda name: (not name.startswith("all"),
                                             name.endswith("tables"), name))
    return {name: scores(groups[name]) for name in order}

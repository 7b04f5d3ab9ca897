"""The math set measured: Paperlens and PyMuPDF's own text on each generated page, scored by
order-sensitive text similarity (formulas compared in the engine's canon) and, for Paperlens,
inline-formula precision, recall and the token similarity of matched formulas."""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
from pathlib import Path

import pymupdf

from tools.eval.formula import formula_similarity
from tools.eval.math_faults import FaultTally
from tools.eval.scoring import text_similarity

_DISPLAY = re.compile(r"\$\$.+?\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$(?!\$)", re.S)
MATCH_MIN = 0.5
"""A predicted formula counts as the truth's when their canon tokens are this similar."""


def inline_spans(markdown: str) -> list[str]:
    return [m.group(1).strip() for m in _INLINE.finditer(_DISPLAY.sub(" ", markdown))]


def match_spans(predicted: list[str], truth: list[str]) -> tuple[int, list[float]]:
    """Truth formulas matched in order to unused predictions: the count and their similarities."""
    used: set[int] = set()
    scores = []
    for wanted in truth:
        best, best_index = 0.0, None
        for index, span in enumerate(predicted):
            if index in used:
                continue
            score = formula_similarity(span, wanted)
            if score > best:
                best, best_index = score, index
        if best_index is not None and best >= MATCH_MIN:
            used.add(best_index)
            scores.append(best)
    return len(scores), scores


def measure(folder: Path, engine) -> dict:
    from engine.options import ConvertOptions

    pages = []
    tally = FaultTally()
    for pdf in sorted(folder.glob("*.pdf")):
        truth = pdf.with_suffix(".md").read_text(encoding="utf-8")
        meta = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            result = engine.convert(str(pdf), ConvertOptions(output_dir=out, write_json=False,
                                                             write_content_list=False))
            seconds = time.perf_counter() - started
        markdown = result.markdown
        layer = "\n".join(p.get_text() for p in pymupdf.open(pdf))
        predicted, wanted = inline_spans(markdown), inline_spans(truth)
        matched, scores = match_spans(predicted, wanted)
        pages.append({"page": pdf.stem, **meta, "seconds": round(seconds, 3),
                      "paperlens": round(text_similarity(markdown, truth), 4),
                      "pymupdf": round(text_similarity(layer, truth), 4),
                      "inline_truth": len(wanted), "inline_found": len(predicted),
                      "inline_matched": matched,
                      "inline_similarity": round(statistics.fmean(scores), 4) if scores else 0.0,
                      "math_faults": tally.check(pdf.stem, result)})
    return {"pages": pages, "families": summary(pages), "math_faults": tally.summary()}


def summary(pages: list[dict]) -> dict:
    families: dict[str, dict] = {}
    for key in sorted({(p["family"], p["columns"]) for p in pages}):
        group = [p for p in pages if (p["family"], p["columns"]) == key]
        truth = sum(p["inline_truth"] for p in group)
        found = sum(p["inline_found"] for p in group)
        matched = sum(p["inline_matched"] for p in group)
        sims = [p["inline_similarity"] for p in group if p["inline_matched"]]
        families[f"{key[0]}-{key[1]}col"] = {
            "pages": len(group),
            "paperlens": round(statistics.fmean(p["paperlens"] for p in group), 4),
            "pymupdf": round(statistics.fmean(p["pymupdf"] for p in group), 4),
            "inline_precision": round(matched / found, 4) if found else 0.0,
            "inline_recall": round(matched / truth, 4) if truth else 0.0,
            "inline_similarity": round(statistics.fmean(sims), 4) if sims else 0.0,
        }
    return families

"""The math set measured: Paperlens, PyMuPDF's own text and Tesseract on each generated page,
born-digital and scanned, scored by order-sensitive text similarity (formulas compared in the
engine's canon) and, for Paperlens, inline-formula precision, recall and the token similarity
of matched formulas.

Tesseract reads the born-digital page drawn at 300 dpi and the scan itself; PyMuPDF's text is
the born-digital page's text layer in its own order (a scan has none)."""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
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
SCAN_SUFFIX = "-scan.jpg"
"""A page's scanned variant lies beside its PDF as <name>-scan.jpg."""
VARIANTS = ("born-digital", "scanned")


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


def tesseract(image: Path) -> str | None:
    """Tesseract's text of an image (default page segmentation, English), or None when it is
    not installed."""
    if shutil.which("tesseract") is None:
        return None
    done = subprocess.run(["tesseract", str(image), "-", "-l", "eng"], capture_output=True,
                          text=True, timeout=300)
    return done.stdout if done.returncode == 0 else None


def _tesseract_of_pdf(pdf: Path) -> str | None:
    with tempfile.TemporaryDirectory() as work, pymupdf.open(pdf) as document:
        image = Path(work) / "page.png"
        document[0].get_pixmap(dpi=300, colorspace=pymupdf.csGRAY).save(image)
        return tesseract(image)


def _scored(text: str | None, truth: str) -> float | None:
    return None if text is None else round(text_similarity(text, truth), 4)


def measure(folder: Path, engine, tesseract_too: bool = True, inline_math: bool = True) -> dict:
    from engine.options import ConvertOptions

    pages = []
    tally = FaultTally()
    for pdf in sorted(folder.glob("*.pdf")):
        truth = pdf.with_suffix(".md").read_text(encoding="utf-8")
        meta = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))
        scan = pdf.with_name(pdf.stem + SCAN_SUFFIX)
        for variant, source in (("born-digital", pdf), ("scanned", scan)):
            if not source.is_file():
                continue
            with tempfile.TemporaryDirectory() as out:
                started = time.perf_counter()
                result = engine.convert(str(source), ConvertOptions(
                    output_dir=out, write_json=False, write_content_list=False,
                    inline_math=inline_math))
                seconds = time.perf_counter() - started
            markdown = result.markdown
            predicted, wanted = inline_spans(markdown), inline_spans(truth)
            matched, scores = match_spans(predicted, wanted)
            row = {"page": pdf.stem, "variant": variant, **meta, "seconds": round(seconds, 3),
                   "paperlens": round(text_similarity(markdown, truth), 4)}
            if variant == "born-digital":
                with pymupdf.open(pdf) as document:
                    row["pymupdf"] = _scored("\n".join(p.get_text() for p in document), truth)
            if tesseract_too:
                row["tesseract"] = _scored(_tesseract_of_pdf(pdf) if variant == "born-digital"
                                           else tesseract(scan), truth)
            row.update({"inline_truth": len(wanted), "inline_found": len(predicted),
                        "inline_matched": matched,
                        "inline_similarity": round(statistics.fmean(scores), 4) if scores
                        else 0.0,
                        "math_faults": tally.check(f"{pdf.stem} {variant}", result)})
            pages.append(row)
    return {"pages": pages, "families": summary(pages), "variants": totals(pages),
            "math_faults": tally.summary()}


def _scores(group: list[dict]) -> dict:
    """Text similarity means (each tool over the pages it read) and the pooled inline counts."""
    truth = sum(p["inline_truth"] for p in group)
    found = sum(p["inline_found"] for p in group)
    matched = sum(p["inline_matched"] for p in group)
    # Each matched formula weighs the same: a page's mean similarity counts once per match.
    sims = [p["inline_similarity"] for p in group for _ in range(p["inline_matched"])]
    row: dict = {"pages": len(group)}
    for tool in ("paperlens", "pymupdf", "tesseract"):
        values = [p[tool] for p in group if p.get(tool) is not None]
        if values:
            row[tool] = round(statistics.fmean(values), 4)
    row.update({"inline_precision": round(matched / found, 4) if found else 0.0,
                "inline_recall": round(matched / truth, 4) if truth else 0.0,
                "inline_similarity": round(statistics.fmean(sims), 4) if sims else 0.0,
                "seconds": round(statistics.fmean(p["seconds"] for p in group), 3)})
    return row


def summary(pages: list[dict]) -> dict:
    """Scores per variant, font family and column count ("born-digital cm-1col")."""
    families: dict[str, dict] = {}
    keys = {(p.get("variant", "born-digital"), p["family"], p["columns"]) for p in pages}
    for key in sorted(keys, key=lambda k: (VARIANTS.index(k[0]), k[1], k[2])):
        group = [p for p in pages if (p.get("variant", "born-digital"), p["family"],
                                      p["columns"]) == key]
        families[f"{key[0]} {key[1]}-{key[2]}col"] = {"variant": key[0], **_scores(group)}
    return families


def totals(pages: list[dict]) -> dict:
    """Scores per variant over all its pages: what the acceptance targets are set on."""
    return {variant: _scores([p for p in pages if p.get("variant", "born-digital") == variant])
            for variant in VARIANTS if any(p.get("variant", "born-digital") == variant
                                           for p in pages)}

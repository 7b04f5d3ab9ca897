"""`python -m tools.structure eval`: Paperlens, the PDF's own text order (PyMuPDF) and Tesseract
(default page segmentation) on every generated page, scored like `make eval`: order-sensitive
text similarity, plus a bag-of-words F1 that tells wrong words from a wrong order and a
paragraph F1 that tells where paragraphs end; Paperlens' display-math faults
(tools/eval/math_faults.py) counted on every page."""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import time
from collections import Counter, defaultdict
from pathlib import Path

import pymupdf

from engine.text import UNSPACED
from tools.eval.edit_distance import similarity
from tools.eval.markdown_text import strip_markdown
from tools.eval.math_faults import FaultTally
from tools.eval.scoring import text_similarity
from tools.structure.cjk_layouts import CJK_FAMILIES

_UNSPACED = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in UNSPACED)
# A word: one Chinese or Japanese character (they are written without spaces), or a run of
# anything else between spaces.
_WORD = re.compile(f"[{_UNSPACED}]|[^\\s{_UNSPACED}]+")
# Tesseract's models for the Chinese families (Debian tesseract-ocr-chi-sim and -chi-sim-vert).
TESSERACT_LANGUAGES = {"zh_vertical": "chi_sim_vert"} | {
    family: "chi_sim" for family in CJK_FAMILIES if family != "zh_vertical"}


def words(text: str) -> list[str]:
    return _WORD.findall(strip_markdown(text))


def word_f1(pred: str, truth: str) -> float:
    p, t = Counter(words(pred)), Counter(words(truth))
    common = sum((p & t).values())
    if not p or not t:
        return float(p == t)
    precision, recall = common / sum(p.values()), common / sum(t.values())
    return 0.0 if common == 0 else 2 * precision * recall / (precision + recall)


def paragraphs(markdown: str) -> list[str]:
    """The plain text of each block of a Markdown text (blank-line separated), empty ones left
    out."""
    return [text for block in markdown.split("\n\n") if (text := strip_markdown(block))]


def paragraph_f1(pred: str, truth: str, min_similarity: float = 0.9) -> float:
    """F1 of the truth's paragraphs found as paragraphs of `pred`: a truth paragraph is found
    when a paragraph of `pred` not yet taken is at least `min_similarity` like it (character
    similarity) and its length within a tenth of it. The text's order aside, it scores where
    paragraphs end: one merged with the next, or split line by line, is not found."""
    ours, wanted = paragraphs(pred), paragraphs(truth)
    if not ours or not wanted:
        return float(ours == wanted)
    taken: set[int] = set()
    for paragraph in wanted:
        for i, candidate in enumerate(ours):
            if (i not in taken and abs(len(candidate) - len(paragraph)) <= 0.1 * len(paragraph) + 2
                    and similarity(candidate, paragraph) >= min_similarity):
                taken.add(i)
                break
    if not taken:
        return 0.0
    precision, recall = len(taken) / len(ours), len(taken) / len(wanted)
    return 2 * precision * recall / (precision + recall)


def pdf_text_order(pdf: Path) -> str:
    """What the text layer gives in PyMuPDF's own order: the floor for born-digital pages."""
    with pymupdf.open(pdf) as doc:
        return "\n".join(page.get_text() for page in doc)


def tesseract(image: Path, language: str = "eng") -> str | None:
    if shutil.which("tesseract") is None:
        return None
    done = subprocess.run(["tesseract", str(image), "-", "-l", language], capture_output=True,
                          text=True, timeout=300)
    return done.stdout if done.returncode == 0 else None


def paperlens(engine, path: Path):
    """Paperlens' DocumentResult of one page."""
    from engine.options import ConvertOptions

    return engine.convert(path, ConvertOptions())


def evaluate(folder: Path, tools: tuple[str, ...], families: tuple[str, ...] | None = None,
             limit: int | None = None) -> dict:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    pages = [p for p in manifest["pages"] if families is None or p["family"] in families]
    per_family: dict[str, list] = defaultdict(list)
    engine = None
    if "paperlens" in tools:
        from engine.api import Engine
        from settings import SettingsStore

        engine = Engine(SettingsStore().load())
    rows = []
    tally = FaultTally()
    for page in pages[:limit] if limit else pages:
        truth = (folder / f"{page['id']}.md").read_text(encoding="utf-8")
        inputs = {"digital": folder / f"{page['id']}.pdf",
                  "scanned": folder / f"{page['id']}.scan.jpg"}
        for variant, path in inputs.items():
            outputs: dict[str, str | None] = {}
            if engine is not None:
                start = time.perf_counter()
                result = paperlens(engine, path)
                seconds = time.perf_counter() - start
                outputs["paperlens"] = result.markdown
                faults = tally.check(f"{page['id']} {variant}", result)
            if "text_layer" in tools and variant == "digital":
                outputs["text_layer"] = pdf_text_order(path)
            if "tesseract" in tools and variant == "scanned":
                outputs["tesseract"] = tesseract(
                    path, TESSERACT_LANGUAGES.get(page["family"], "eng"))
            for tool, text in outputs.items():
                if text is None:
                    continue
                row = {"id": page["id"], "family": page["family"], "variant": variant,
                       "tool": tool, "similarity": round(text_similarity(text, truth), 4),
                       "word_f1": round(word_f1(text, truth), 4),
                       "paragraph_f1": round(paragraph_f1(text, truth), 4)}
                if tool == "paperlens":
                    row["seconds"] = round(seconds, 3)
                    row["math_faults"] = faults
                rows.append(row)
                per_family[(page["family"], variant, tool)].append(row)
    summary = {f"{family}/{variant}/{tool}": {
        "pages": len(found),
        "similarity": round(statistics.fmean(r["similarity"] for r in found), 4),
        "min_similarity": round(min(r["similarity"] for r in found), 4),
        "word_f1": round(statistics.fmean(r["word_f1"] for r in found), 4),
        "paragraph_f1": round(statistics.fmean(r["paragraph_f1"] for r in found), 4)}
        for (family, variant, tool), found in sorted(per_family.items())}
    return {"set": {"count": manifest["count"], "seed": manifest["seed"]},
            "summary": summary, "math_faults": tally.summary() if engine else None,
            "pages": rows}

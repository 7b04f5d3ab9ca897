"""The rule that reads an image input as one formula, scored on a generated set through the real
Engine: each image converted with default options (what `paperlens-cli convert image.png`
does), as tools/eval/formula_convert.py does for the formula evaluation set.

    python -m tools.formula_images measure build/formula_images/seed-1 [--out FILE]

"Read as formula": the result holds a formula block with LaTeX. For formula images that is a hit
(recall), scored by token similarity against the corpus LaTeX (0 for a miss); for text images
it is a false positive. Figures per family (renderer/background), per structure or text kind,
per margin. Each item also keeps what the rule looked at (layout regions and OCR lines before
the formula-image stage, the formula model's reading of the whole image on light paper), so a
rule can be tried on the recorded items without converting again. Display-math faults
(tools/eval/math_faults.py) are kept per item and counted."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path
from statistics import fmean

from engine.formulas.image_rules import FORMULA_IMAGE, FormulaImageRules
from engine.types import BlockKind
from tools.eval.formula_scores import token_similarity
from tools.eval.math_faults import math_faults, summary_line, summary_of

DIAGNOSED_STAGE = "line_numbers"
"""The stage just before `formula_image`: its page is what the rule looks at."""


def _page_facts(page) -> dict:
    from engine.formulas.image_rule import on_light_paper, paper_level
    from engine.imaging import ink_bounds
    from engine.page import CROP_MARGIN_PX

    image = page.image
    facts = {"paper_level": paper_level(image), "size": [int(image.shape[1]), int(image.shape[0])],
             "regions": [{"kind": r.kind.value, "label": r.label, "score": round(r.score, 3),
                          "box": [round(v, 1) for v in (r.box.x0, r.box.y0, r.box.x1, r.box.y1)]}
                         for r in page.regions or ()],
             "lines": [{"text": ln.text, "score": round(ln.score, 3),
                        "box": [round(v, 1) for v in (ln.box.x0, ln.box.y0, ln.box.x1, ln.box.y1)]}
                       for ln in page.lines]}
    bounds = ink_bounds(on_light_paper(image))
    facts["ink"] = list(bounds) if bounds else None
    facts["crop"] = None
    if bounds is not None:  # as the stage crops it (engine.page.PageState.crop)
        x0, y0 = max(0, bounds[0] - CROP_MARGIN_PX), max(0, bounds[1] - CROP_MARGIN_PX)
        facts["crop"] = image[y0:bounds[3] + CROP_MARGIN_PX, x0:bounds[2] + CROP_MARGIN_PX]
    return facts


def _reading_record(reading) -> dict | None:
    from engine.formulas.reading import looks_like_math

    if reading is None:
        return None
    return {"latex": reading.latex, "confidence": round(reading.confidence, 4),
            "tokens": reading.tokens, "guard": reading.guard, "truncated": reading.truncated,
            "looks_like_math": looks_like_math(reading.latex)}


def measure_item(engine, folder: Path, record: dict) -> dict:
    """One image through a plain conversion, with what the rule saw."""
    from engine import events
    from engine.options import ConvertOptions

    seen = {}

    def on_event(event) -> None:
        if isinstance(event, events.PageProgress) and event.stage == DIAGNOSED_STAGE:
            seen["page"] = event

    started = time.perf_counter()
    result = engine.convert(folder / record["file"], ConvertOptions(), on_event=on_event)
    seconds = time.perf_counter() - started
    blocks = [b for page in result.pages for b in page.blocks]
    formulas = [b.formula for b in blocks
                if b.kind is BlockKind.FORMULA and b.formula and b.formula.latex]
    latex = " \\\\ ".join(f.latex for f in formulas)
    row = {key: record[key] for key in ("id", "kind", "family", "detail", "renderer")}
    row.update(margin=record["look"]["margin"], background=record["family"].split("/")[1],
               seconds=round(seconds, 3), formula=bool(formulas), latex=latex,
               blocks=[b.kind.value for b in blocks],
               math_faults=[asdict(fault) for fault in math_faults(result)])
    if record["kind"] == "formula":
        row["similarity"] = round(token_similarity(latex, record["content"]), 4) if formulas else 0.0
    if "page" in seen:
        event = seen["page"]
        facts = _page_facts(_Seen(event.image, event.lines, event.regions))
        crop = facts.pop("crop")
        recognizer = engine.models.formula_recognizer()
        reading = recognizer.read([crop])[0] if crop is not None and recognizer else None
        facts["reading"] = _reading_record(reading)
        if reading is not None and record["kind"] == "formula":
            facts["reading"]["similarity"] = round(token_similarity(reading.latex,
                                                                    record["content"]), 4)
        row["seen"] = facts
    return row


class _Seen:
    def __init__(self, image, lines, regions):
        self.image, self.lines, self.regions = image, lines, regions


def summarise(rows: list[dict]) -> dict:
    """Per group: formula images (count, recall, mean token similarity with misses as 0) and
    text images (count, false positives)."""
    def figures(group: list[dict]) -> dict:
        formulas = [r for r in group if r["kind"] == "formula"]
        texts = [r for r in group if r["kind"] == "text"]
        out: dict = {}
        if formulas:
            out.update(formulas=len(formulas),
                       recall=round(fmean(r["formula"] for r in formulas), 3),
                       similarity=round(fmean(r["similarity"] for r in formulas), 3))
        if texts:
            out.update(texts=len(texts), false_positives=sum(r["formula"] for r in texts))
        return out

    by: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        by["family"][row["family"]].append(row)
        by["background"][row["background"]].append(row)
        by["margin"][row["margin"]].append(row)
        by["formula structure" if row["kind"] == "formula" else "text kind"][row["detail"]].append(row)
    summary = {"overall": figures(rows)}
    for name, groups in by.items():
        summary[name] = {key: figures(group) for key, group in sorted(groups.items())}
    return summary


def rule_decision(row: dict, rules: FormulaImageRules = FORMULA_IMAGE) -> bool:
    """What the engine's rule (engine/formulas/image_rule.py) decides under `rules` on an
    item's recorded facts: the rule tried without converting again. An item whose reading was
    not recorded (no ink) is not a formula."""
    from engine.formulas.image_rule import may_be_formula_image, reads_as_formula
    from engine.formulas.reading import FormulaReading
    from engine.types import Box, Line, Region

    seen = row.get("seen")
    if not seen:
        return False
    regions = tuple(Region(BlockKind(r["kind"]), Box(*r["box"]), r["score"], r["label"])
                    for r in seen["regions"])
    lines = tuple(Line(ln["text"], Box(*ln["box"]), ln["score"]) for ln in seen["lines"])
    recorded = seen.get("reading")
    reading = recorded and FormulaReading(recorded["latex"], recorded["confidence"],
                                          recorded["tokens"], recorded["truncated"],
                                          recorded["guard"])
    return may_be_formula_image(regions, lines, rules) and reads_as_formula(reading, rules)


def replay(measured: Path, rules: FormulaImageRules = FORMULA_IMAGE) -> dict:
    """The rule under `rules` (a variant to try, or the present set) on the items of an
    earlier `measure` run: per group, how many formula images it takes (and the token
    similarity of their whole-image readings, misses 0) and how many text images."""
    rows = json.loads(measured.read_text(encoding="utf-8"))["items"]
    decided = []
    for row in rows:
        taken = rule_decision(row, rules)
        reading = (row.get("seen") or {}).get("reading") or {}
        decided.append({**row, "formula": taken,
                        "similarity": reading.get("similarity", 0.0) if taken else 0.0})
    return summarise(decided)


def main(folder: Path, out: Path, limit: int | None = None) -> int:
    from engine.api import Engine
    from settings import SettingsStore

    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    records = manifest["items"]
    if limit:
        records = ([r for r in records if r["kind"] == "formula"][:limit]
                   + [r for r in records if r["kind"] == "text"][:limit])
    engine = Engine(SettingsStore().load())
    # Each row is appended to a side file as it is measured, so a run that is stopped goes on
    # where it was when started again; the side file goes once the results are written.
    partial = out.with_suffix(".partial.jsonl")
    done = {}
    if partial.is_file():
        for text in partial.read_text(encoding="utf-8").splitlines():
            row = json.loads(text)
            done[row["id"]] = row
    rows = []
    with open(partial, "a", encoding="utf-8") as side:
        for n, record in enumerate(records, 1):
            if record["id"] not in done:
                done[record["id"]] = measure_item(engine, folder, record)
                side.write(json.dumps(done[record["id"]]) + "\n")
                side.flush()
            rows.append(done[record["id"]])
            if n % 25 == 0 or n == len(records):
                print(f"{n}/{len(records)}", flush=True)
    summary = summarise(rows)
    # Rows measured before faults were counted (a resumed side file) have none to count.
    faults = summary_of(r["math_faults"] for r in rows if "math_faults" in r)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps({"set": str(folder), "seed": manifest["seed"], "summary": summary,
                               "math_faults": faults, "items": rows}, indent=1) + "\n",
                   encoding="utf-8")
    tmp.replace(out)
    partial.unlink()
    print(json.dumps(summary["overall"]), "\n", json.dumps(summary["family"], indent=1))
    print(summary_line(faults))
    print(f"written to {out}")
    return 0

"""How inline spans on scans are found and spelled, chosen by measurement:

    python -m tools.mathset.choose_spans [--seed 3] [--count 2] [--prose | --crops | --grow]

The scanned pages of a math-set seed that is neither trained on (tools/mathset/train_spans.py)
nor reported (tools/mathset: seed 2) are read once up to the inline-math stage (kept under
build/spans/choose-<seed>); the stage is then run again on each page under every variant of
engine/formulas/inline_ocr.py's switches (where spans come from, where their LaTeX comes from,
the classifier's threshold) and the pages scored as tools/mathset scores them. Writes
docs/results/mathset_spans_choice.json; with --prose, the chosen switches are kept and the
shapes of prose cut out of found runs (inline_prose.PROSE_RUNS) are varied instead, written to
docs/results/mathset_spans_prose.json; with --crops, the rows of the page the formula model
reads of a span (inline_ocr.CROP_ROWS) and whether a function's name joins two math words
(inline_ocr.FUNCTIONS_JOIN), written to docs/results/mathset_spans_crops.json; with --grow, the
probability at which a word beside a math word joins it (inline_ocr.GROW), written to
docs/results/mathset_spans_grow.json."""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
from pathlib import Path

from tools.mathset.generate import REPO, generate
from tools.mathset.measure import SCAN_SUFFIX, inline_spans, match_spans

VARIANTS = [(source, latex, threshold)
            for source in ("rules", "classifier", "both")
            for latex in ("characters", "model", "confident")
            for threshold in ((0.5,) if source == "rules" else (0.4, 0.5, 0.6, 0.7))]
PROSE_SHAPES = ("settings", "words", "quantities", "numbers", "glued")
PROSE_VARIANTS = [()] + [(shape,) for shape in PROSE_SHAPES] + [PROSE_SHAPES]
CROP_VARIANTS = [(rows, functions) for rows in ("words", "ink") for functions in (False, True)]
"""What the formula model reads of a span (inline_ocr.CROP_ROWS) and whether a function's name
joins two math words (inline_ocr.FUNCTIONS_JOIN), varied with --crops."""
THRESHOLD_ONLY = 1.0
"""GROW for the first choice: no word grows a run, as when it was made."""
GROW_VARIANTS = (0.6, 0.5, 0.4, 0.3, 0.2, 0.1)
"""inline_ocr.GROW, varied with --grow (0.6, the threshold itself: no word grows a run)."""


def kept_states(folder: Path, seed: int, count: int, engine) -> list[tuple[str, object, str]]:
    """(page, state at the inline stage, truth Markdown) of the seed's scanned pages."""
    from tools.mathset.span_pages import read_to_inline_stage

    if not any(folder.glob("*.pdf")):
        generate(folder, seed, count)
    states = []
    for image in sorted(folder.glob(f"*{SCAN_SUFFIX}")):
        kept = image.with_suffix(".pickle")
        if not kept.is_file():
            kept.write_bytes(pickle.dumps(read_to_inline_stage(engine, image)))
        truth = image.with_name(image.name.removesuffix(SCAN_SUFFIX) + ".md")
        states.append((image.stem, pickle.loads(kept.read_bytes()),
                       truth.read_text(encoding="utf-8")))
    return states


def scored(states, models, source: str, latex: str, threshold: float,
           prose: tuple[str, ...] | None = None,
           crops: tuple[str, bool] | None = None, grow: float | None = None) -> dict:
    """The inline stage run again on every page under one variant (`prose`: the shapes of
    prose cut out of runs, `crops`: CROP_ROWS and FUNCTIONS_JOIN, `grow`: GROW, None for the
    engine's own),
    pooled as tools/mathset pools a variant's pages."""
    import engine.formulas.inline_ocr as inline_ocr
    import engine.formulas.inline_prose as inline_prose
    from engine.output.markdown import render_markdown
    from tools.eval.scoring import text_similarity

    saved = (inline_ocr.SPAN_SOURCE, inline_ocr.LATEX_FROM, inline_ocr.THRESHOLD,
             inline_prose.PROSE_RUNS, inline_ocr.CROP_ROWS, inline_ocr.FUNCTIONS_JOIN,
             inline_ocr.GROW)
    inline_ocr.SPAN_SOURCE, inline_ocr.LATEX_FROM, inline_ocr.THRESHOLD = source, latex, threshold
    if prose is not None:
        inline_prose.PROSE_RUNS = prose
    if crops is not None:
        inline_ocr.CROP_ROWS, inline_ocr.FUNCTIONS_JOIN = crops
    if grow is not None:
        inline_ocr.GROW = grow
    truth_count = found = matched = 0
    similarities, texts = [], []
    try:
        for _, state, truth in states:
            markdown = render_markdown([inline_ocr.find_ocr_inline_math(state, models).result()])
            predicted, wanted = inline_spans(markdown), inline_spans(truth)
            count, scores = match_spans(predicted, wanted)
            truth_count, found, matched = truth_count + len(wanted), found + len(predicted), \
                matched + count
            similarities += scores
            texts.append(text_similarity(markdown, truth))
    finally:
        (inline_ocr.SPAN_SOURCE, inline_ocr.LATEX_FROM, inline_ocr.THRESHOLD,
         inline_prose.PROSE_RUNS, inline_ocr.CROP_ROWS, inline_ocr.FUNCTIONS_JOIN,
         inline_ocr.GROW) = saved
    return {"spans": source, "latex": latex, "threshold": threshold,
            **({} if prose is None else {"prose": list(prose)}),
            **({} if crops is None else {"crop_rows": crops[0], "functions_join": crops[1]}),
            **({} if grow is None else {"grow": grow}),
            "inline_precision": round(matched / found, 4) if found else 0.0,
            "inline_recall": round(matched / truth_count, 4) if truth_count else 0.0,
            "inline_similarity": round(statistics.fmean(similarities), 4) if similarities
            else 0.0, "paperlens": round(statistics.fmean(texts), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.mathset.choose_spans")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--count", type=int, default=2, help="pages per family and columns")
    parser.add_argument("--results", type=Path, default=None)
    parser.add_argument("--prose", action="store_true",
                        help="vary the shapes of prose cut out of runs (inline_prose.PROSE_RUNS)")
    parser.add_argument("--crops", action="store_true",
                        help="vary the rows read of a span and the joining function names")
    parser.add_argument("--grow", action="store_true",
                        help="vary the probability at which a word beside a formula joins it")
    args = parser.parse_args()
    results = args.results or REPO / "docs" / "results" / (
        "mathset_spans_prose.json" if args.prose else "mathset_spans_crops.json" if args.crops
        else "mathset_spans_grow.json" if args.grow else "mathset_spans_choice.json")
    import engine.formulas.inline_ocr as inline_ocr

    from engine.api import Engine
    from settings import SettingsStore

    engine = Engine(SettingsStore().load())
    states = kept_states(REPO / "build" / "spans" / f"choose-{args.seed}", args.seed,
                         args.count, engine)
    rows = []
    chosen = inline_ocr.SPAN_SOURCE, inline_ocr.LATEX_FROM, inline_ocr.THRESHOLD
    variants = ([(*chosen, prose, None) for prose in PROSE_VARIANTS] if args.prose
                else [(*chosen, None, crops) for crops in CROP_VARIANTS] if args.crops
                else [(*chosen, None, None, grow) for grow in GROW_VARIANTS] if args.grow
                else [(*variant, (), ("words", False), THRESHOLD_ONLY)
                      for variant in VARIANTS])
    for variant in variants:
        rows.append(scored(states, engine.models, *variant))
        print(rows[-1], flush=True)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps({"seed": args.seed, "count": args.count,
                                   "pages": len(states), "variants": rows}, indent=1)
                       + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""How inline spans on scans are found and spelled, chosen by measurement:

    python -m tools.mathset.choose_spans [--seed 3] [--count 2] [--prose]
    python -m tools.mathset.choose_spans --scripts --seed 3 1 4

The scanned pages of a math-set seed that is neither trained on (tools/mathset/train_spans.py)
nor reported (tools/mathset: seed 2) are read once up to the inline-math stage (kept under
build/spans/choose-<seed>); the stage is then run again on each page under every variant of
the inline span rules (engine/formulas/inline_rules.py: where spans come from, where their
LaTeX comes from, the classifier's threshold), each built with `dataclasses.replace` and
passed to the stage, and the pages scored as tools/mathset scores them. Writes
docs/results/mathset_spans_choice.json; with --prose, the chosen switches are kept and the
shapes of prose cut out of found runs (`InlineSpanRules.prose_runs`) are varied instead,
written to docs/results/mathset_spans_prose.json; with --scripts, words whose ink shows a
script (`InlineSpanRules.scripts`) are taken as math or not, on every seed given
(docs/results/mathset_spans_scripts.json)."""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
from dataclasses import replace
from pathlib import Path

from tools.mathset.generate import REPO, generate
from tools.mathset.measure import SCAN_SUFFIX, inline_spans, match_spans

VARIANTS = [(source, latex, threshold)
            for source in ("rules", "classifier", "both")
            for latex in ("characters", "model", "confident")
            for threshold in ((0.5,) if source == "rules" else (0.4, 0.5, 0.6, 0.7))]
PROSE_SHAPES = ("settings", "words", "quantities", "numbers")
PROSE_VARIANTS = [()] + [(shape,) for shape in PROSE_SHAPES] + [PROSE_SHAPES]


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


def variant(source: str, latex: str, threshold: float, prose: tuple[str, ...] | None = None,
            scripts: bool | None = None):
    """The engine's inline span rules with the switches given (`prose`: the shapes of prose
    cut out of runs, `scripts`: whether scripts found in the ink make a word math; None for
    the engine's own)."""
    from engine.formulas.inline_rules import INLINE_SPANS

    changes = {"span_source": source, "latex_from": latex, "threshold": threshold}
    if prose is not None:
        changes["prose_runs"] = tuple(prose)
    if scripts is not None:
        changes["scripts"] = scripts
    return replace(INLINE_SPANS, **changes)


def scored(states, models, source: str, latex: str, threshold: float,
           prose: tuple[str, ...] | None = None, scripts: bool | None = None) -> dict:
    """The inline stage run again on every page under one variant of the rules (`variant`),
    pooled as tools/mathset pools a variant's pages."""
    from engine.formulas.inline_ocr import find_ocr_inline_math
    from engine.output.markdown import render_markdown
    from tools.eval.scoring import text_similarity

    rules = variant(source, latex, threshold, prose, scripts)
    truth_count = found = matched = 0
    similarities, texts = [], []
    for _, state, truth in states:
        markdown = render_markdown([find_ocr_inline_math(state, models, rules).result()])
        predicted, wanted = inline_spans(markdown), inline_spans(truth)
        count, scores = match_spans(predicted, wanted)
        truth_count, found, matched = truth_count + len(wanted), found + len(predicted), \
            matched + count
        similarities += scores
        texts.append(text_similarity(markdown, truth))
    return {"spans": source, "latex": latex, "threshold": threshold,
            **({} if prose is None else {"prose": list(prose)}),
            **({} if scripts is None else {"scripts": scripts}),
            "inline_precision": round(matched / found, 4) if found else 0.0,
            "inline_recall": round(matched / truth_count, 4) if truth_count else 0.0,
            "inline_similarity": round(statistics.fmean(similarities), 4) if similarities
            else 0.0, "paperlens": round(statistics.fmean(texts), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.mathset.choose_spans")
    parser.add_argument("--seed", type=int, nargs="+", default=[3])
    parser.add_argument("--count", type=int, default=2, help="pages per family and columns")
    parser.add_argument("--results", type=Path, default=None)
    parser.add_argument("--prose", action="store_true",
                        help="vary the shapes of prose cut out of runs "
                        "(InlineSpanRules.prose_runs)")
    parser.add_argument("--scripts", action="store_true",
                        help="take words whose ink shows a script as math or not "
                        "(InlineSpanRules.scripts), on each seed given")
    args = parser.parse_args()
    results = args.results or REPO / "docs" / "results" / (
        "mathset_spans_scripts.json" if args.scripts else
        "mathset_spans_prose.json" if args.prose else "mathset_spans_choice.json")
    from engine.api import Engine
    from engine.formulas.inline_rules import INLINE_SPANS
    from settings import SettingsStore

    engine = Engine(SettingsStore().load())
    if args.scripts:
        rows = []
        for seed in args.seed:
            states = kept_states(REPO / "build" / "spans" / f"choose-{seed}", seed, args.count,
                                 engine)
            for scripts in (False, True):
                rows.append({"seed": seed, "pages": len(states), **scored(
                    states, engine.models, INLINE_SPANS.span_source, INLINE_SPANS.latex_from,
                    INLINE_SPANS.threshold, None, scripts)})
                print(rows[-1], flush=True)
        results.parent.mkdir(parents=True, exist_ok=True)
        results.write_text(json.dumps({"seeds": args.seed, "count": args.count,
                                       "variants": rows}, indent=1) + "\n", encoding="utf-8")
        return
    if len(args.seed) != 1:
        parser.error("one --seed, except with --scripts")
    args.seed = args.seed[0]
    states = kept_states(REPO / "build" / "spans" / f"choose-{args.seed}", args.seed,
                         args.count, engine)
    rows = []
    chosen = INLINE_SPANS.span_source, INLINE_SPANS.latex_from, INLINE_SPANS.threshold
    variants = ([(*chosen, prose) for prose in PROSE_VARIANTS] if args.prose
                else [(*variant, ()) for variant in VARIANTS])
    for variant in variants:
        rows.append(scored(states, engine.models, *variant))
        print(rows[-1], flush=True)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps({"seed": args.seed, "count": args.count,
                                   "pages": len(states), "variants": rows}, indent=1)
                       + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

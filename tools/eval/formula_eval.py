"""`python -m tools.eval formula`: the formula recogniser on formula images with LaTeX truth.

Reads the formula evaluation set (../shared/eval/formula: im2latex-100k renders and KaTeX browser
screenshots) and the dev set's formula crops, recognises every image in one batched call, scores
each reading against its truth (tools.eval.formula_scores), checks which readings typeset
(tools.eval.latex_compile), and writes per-item rows plus a summary per group.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from statistics import fmean

import cv2
import numpy as np

from engine.errors import ModelUnavailable
from engine.formulas.model import DECODER_THREADS, FormulaReading, FormulaRecognizerModel, load_vocabulary
from engine.imaging import composite_on_white
from engine.models.sources import sha256_file
from engine.model_set import ModelSet
from engine.runtime.sessions import SessionFactory
from settings import SettingsStore
from tools.eval.formula_scores import latex_corpus_bleu, token_exact, token_similarity
from tools.eval.latex_compile import CompileCheckUnavailable, check_formulas, find_compiler
from tools.eval.formula_items import (DEV_GROUP, DEV_MANIFEST, FORMULA_SET_DIR, REPO_ROOT,
                                       SET_GROUPS, FormulaItem, is_multiline, load_dev_crops,
                                       load_formula_set, read_chunk_index)

DEFAULT_OUT = REPO_ROOT / "build" / "eval" / "formula.json"

RENDER_GROUP = "renders"
OVERALL = "overall"
"""The whole formula set (im2latex + katex); the dev crops are reported beside it, not in it."""


def load_render_set(folder: Path) -> list[FormulaItem]:
    """Held-out training renders (tools.formula.render --split val): chunk files of PNGs with
    their tokens. The clean check for choosing between trained models, since the formula set is
    the test; they are our own typesetting, so they say nothing about real crops."""
    items: list[FormulaItem] = []
    for chunk, records in read_chunk_index(folder):
        for n, record in enumerate(records):
            items.append(FormulaItem(id=f"{chunk.stem}/{n}", group=RENDER_GROUP, image_path=chunk,
                                     truth=record["tokens"],
                                     multiline=is_multiline(record["tokens"]),
                                     span=(record["offset"], record["size"])))
    return items


def cpu_model_set(sessions: SessionFactory | None = None) -> ModelSet:
    """The app's model set over the user's model folder (settings), every session on the CPU."""
    settings = SettingsStore().load()
    return ModelSet(Path(settings.model.base_dir), settings.model.index_url,
                    sessions=sessions or SessionFactory())


def load_recognizer(models: ModelSet | None = None) -> FormulaRecognizerModel:
    """The formula recogniser the app uses: the model manifest's default formula model."""
    recognizer = (models or cpu_model_set()).formula_recognizer()
    if recognizer is None:
        raise ModelUnavailable("the model manifest names no formula model")
    return recognizer


def load_candidate(folder: Path, sessions: SessionFactory) -> FormulaRecognizerModel:
    """A formula model not (yet) in the manifest: the two graphs and the vocabulary that
    tools.formula.export writes, every session on the CPU."""
    paths = [folder / name for name in ("formula-encoder.onnx", "formula-decoder.onnx", "vocab.txt")]
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        raise ModelUnavailable(f"{folder} lacks {', '.join(missing)} (tools.formula.export writes them)")
    return FormulaRecognizerModel(sessions.session("formula", paths[0], cpu_only=True),
                                  sessions.session("formula", paths[1], cpu_only=True,
                                                   threads=DECODER_THREADS),
                                  load_vocabulary(paths[2]))


def load_crop(path: Path, span: tuple[int, int] | None = None) -> np.ndarray:
    """An image file (or the PNG at `span` inside one) as the engine hands crops over: RGB (or
    grey), alpha laid on white."""
    if span is None:
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    else:
        with path.open("rb") as blob:
            blob.seek(span[0])
            data = np.frombuffer(blob.read(span[1]), np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if len(data) == span[1] else None
    if image is None:
        raise ValueError(f"{path}{f' at {span[0]}' if span else ''} is not a readable image")
    if image.ndim == 3 and image.shape[2] == 4:
        image = composite_on_white(image)
    if image.ndim == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    return image


@dataclass(frozen=True)
class CompileOutcome:
    predictions: list[bool] | None
    truths: list[bool] | None
    compiler: str | None
    reason: str | None
    """Why nothing was checked (None when it was)."""


def compile_outcome(predictions: Sequence[str | None], truths: Sequence[str],
                    check: Callable[[Sequence[str]], list[bool]] = check_formulas
                    ) -> CompileOutcome:
    """Which readings (and, as a yardstick for the checker, which truths) typeset.

    A missing reading does not compile; without LaTeX both lists are None and `reason` says why."""
    try:
        typeset = check([p for p in predictions if p is not None])
        truth_typeset = check(list(truths))
    except CompileCheckUnavailable as error:
        return CompileOutcome(None, None, None, str(error))
    verdicts = iter(typeset)
    per_prediction = [next(verdicts) if p is not None else False for p in predictions]
    return CompileOutcome(per_prediction, truth_typeset, find_compiler(), None)


def score_rows(items: Sequence[FormulaItem], readings: Sequence[FormulaReading | None],
               compiled: CompileOutcome) -> list[dict]:
    rows = []
    for index, (item, reading) in enumerate(zip(items, readings)):
        prediction = reading.latex if reading else ""
        rows.append({
            "id": item.id,
            "group": item.group,
            "multiline": item.multiline,
            "truth": item.truth,
            "prediction": reading.latex if reading else None,
            "similarity": token_similarity(prediction, item.truth),
            "exact": token_exact(prediction, item.truth),
            "confidence": reading.confidence if reading else None,
            "compiles": compiled.predictions[index] if compiled.predictions else None,
            "truth_compiles": compiled.truths[index] if compiled.truths else None,
        })
    return rows


def _mean_or_none(values: Sequence[float]) -> float | None:
    return fmean(values) if values else None


def summarise_rows(rows: Sequence[dict]) -> dict:
    """Means of one subset: similarity, exact share, corpus BLEU-4, compile shares, and the mean
    confidence of right (exact) and wrong readings."""
    compiled = [r["compiles"] for r in rows if r["compiles"] is not None]
    truth_compiled = [r["truth_compiles"] for r in rows if r["truth_compiles"] is not None]
    read = [r for r in rows if r["prediction"] is not None]
    return {
        "n": len(rows),
        "similarity": fmean(r["similarity"] for r in rows),
        "exact": fmean(float(r["exact"]) for r in rows),
        "bleu4": latex_corpus_bleu([r["prediction"] or "" for r in rows],
                                   [r["truth"] for r in rows]),
        "compiles": _mean_or_none([float(c) for c in compiled]),
        "truth_compiles": _mean_or_none([float(c) for c in truth_compiled]),
        "confidence_right": _mean_or_none([r["confidence"] for r in read if r["exact"]]),
        "confidence_wrong": _mean_or_none([r["confidence"] for r in read if not r["exact"]]),
        "no_reading": len(rows) - len(read),
    }


def summarise(rows: Sequence[dict]) -> dict[str, dict]:
    """Per group of the formula set, single- and multi-line, the whole set, and the dev crops."""
    formula_set = [r for r in rows if r["group"] != DEV_GROUP]
    subsets = {name: [r for r in formula_set if r["group"] == name] for name in SET_GROUPS.values()}
    subsets["single_line"] = [r for r in formula_set if not r["multiline"]]
    subsets["multi_line"] = [r for r in formula_set if r["multiline"]]
    subsets[OVERALL] = formula_set
    subsets[DEV_GROUP] = [r for r in rows if r["group"] == DEV_GROUP]
    return {name: summarise_rows(subset) for name, subset in subsets.items() if subset}


def _cell(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_summary(summary: dict[str, dict]) -> list[str]:
    lines = [f"{'subset':<12} {'n':>4} {'similarity':>10} {'exact':>6} {'BLEU-4':>6} "
             f"{'compiles':>8} {'truth compiles':>14} {'conf right/wrong':>16}"]
    lines.append("-" * len(lines[0]))
    for name, row in summary.items():
        confidence = f"{_cell(row['confidence_right'], 2)}/{_cell(row['confidence_wrong'], 2)}"
        lines.append(
            f"{name:<12} {row['n']:>4} {row['similarity']:10.3f} {row['exact']:6.3f} "
            f"{row['bleu4']:6.3f} {_cell(row['compiles']):>8} {_cell(row['truth_compiles']):>14} "
            f"{confidence:>16}"
        )
    return lines


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.eval formula",
        description="Recognise formula images with Paperlens's formula model and score the LaTeX.")
    parser.add_argument("--formula-set", type=Path, default=FORMULA_SET_DIR,
                        help="folder with manifest.json and images/ (default %(default)s)")
    parser.add_argument("--dev-manifest", type=Path, default=DEV_MANIFEST,
                        help="dev set whose LaTeX-truth items are added as a group (default "
                             "%(default)s)")
    parser.add_argument("--no-dev", action="store_true", help="leave the dev crops out")
    parser.add_argument("--no-compile", action="store_true", help="skip the LaTeX compile check")
    parser.add_argument("--ids", nargs="+", metavar="ID", help="only these item ids")
    parser.add_argument("--renders", type=Path, metavar="FOLDER",
                        help="score held-out training renders (build/formula/renders-val) instead "
                             "of the formula set and the dev crops: the set for choosing between "
                             "candidates")
    parser.add_argument("--limit", type=int, help="only the first N items")
    parser.add_argument("--model-dir", type=Path,
                        help="score exported graphs from this folder instead of the shipped model "
                             "(a training run's candidate, before it replaces resources/formula)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="results JSON to write")
    parser.add_argument("--no-convert", action="store_true",
                        help="skip the second pass: each image through a plain conversion, as "
                             "a user dropping it in gets it (tools.eval.formula_convert)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.renders:
        items = load_render_set(args.renders)
    elif not (args.formula_set / "manifest.json").is_file():
        print(f"error: no formula set at {args.formula_set} (manifest.json)", file=sys.stderr)
        return 2
    else:
        items = load_formula_set(args.formula_set)
        if not args.no_dev and args.dev_manifest.is_file():
            items += load_dev_crops(args.dev_manifest)
    if args.ids:
        items = [item for item in items if item.id in args.ids]
    items = items[:args.limit]
    if not items:
        print("error: no formula item to evaluate", file=sys.stderr)
        return 2

    sessions = SessionFactory()
    models = cpu_model_set(sessions)
    try:
        recognizer = (load_candidate(args.model_dir, sessions) if args.model_dir
                      else load_recognizer(models))
    except ModelUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        crops = [load_crop(item.image_path, item.span) for item in items]
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"recognising {len(items)} formula images on the CPU ({sessions.threads} threads)...")
    started = time.perf_counter()
    readings = recognizer.read(crops)
    recognise_s = time.perf_counter() - started

    if args.no_compile:
        compiled = CompileOutcome(None, None, None, "--no-compile")
    else:
        compiled = compile_outcome([r.latex if r else None for r in readings],
                                   [item.truth for item in items])
    rows = score_rows(items, readings, compiled)
    summary = summarise(rows)
    print("\n".join(format_summary(summary)))
    print(f"{1000 * recognise_s / len(items):.0f} ms per formula (batch {recognizer.batch_size})")
    if compiled.reason:
        print(f"compile check not run: {compiled.reason}")

    through_convert = None
    if not (args.no_convert or args.renders or args.model_dir):
        through_convert = convert_pass(items, args.no_compile)

    report = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "formula_set": str(args.renders or args.formula_set),
        "dev_manifest": None if args.no_dev or args.renders else str(args.dev_manifest),
        "model": {"id": (f"candidate {args.model_dir}" if args.model_dir
                         else models.store.default_for_role("formula").id),
                  "sha256": {Path(info.model_path).name: sha256_file(Path(info.model_path))
                             for info in sessions.created()}},
        "scoring": "tokens normalised by engine.formulas.latex_tokens.normalized; similarity = 1 - "
                   "token edit distance / longer length; BLEU-4 corpus-level, uniform weights",
        "compile_check": {"compiler": compiled.compiler, "not_run_because": compiled.reason,
                          "typeset_as": "\\setbox0=\\hbox{$\\displaystyle ...$}, Tier-B preamble"},
        "timing": {"recognise_s": recognise_s, "ms_per_formula": 1000 * recognise_s / len(items),
                   "threads": sessions.threads, "batch_size": recognizer.batch_size},
        "summary": summary,
        "items": rows,
        "through_convert": through_convert,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"results written to {args.out}")
    return 0


def convert_pass(items: Sequence[FormulaItem], no_compile: bool) -> dict:
    """The same images through `Engine.convert` with default options, scored the same way."""
    from engine.api import Engine
    from tools.eval.formula_convert import read_through_convert

    files = [item for item in items if item.span is None]
    print(f"converting {len(files)} formula images as documents (default options)...")
    started = time.perf_counter()
    readings = read_through_convert(Engine(SettingsStore().load()), files)
    seconds = time.perf_counter() - started
    compiled = (CompileOutcome(None, None, None, "--no-compile") if no_compile else
                compile_outcome([r.latex if r else None for r in readings],
                                [item.truth for item in files]))
    rows = score_rows(files, readings, compiled)
    summary = summarise(rows)
    print("through a plain conversion:")
    print("\n".join(format_summary(summary)))
    return {"options": "ConvertOptions() (what paperlens-cli convert does without flags)",
            "seconds": seconds, "summary": summary, "items": rows}

"""Pure statistics over timing samples: page walls, medians, ratios, summaries, acceptance figures."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.runtime.steps import ONNX_PREFIX, STEP_PREFIX

OCR_SOURCE = "ocr"
TEXT_LAYER_SOURCE = "txt"

# Which model roles each pipeline stage runs: the stage's wall time over their pure ONNX time is
# that stage's pipeline/inference ratio. Stages the engine adds later get a line here.
STAGE_ROLES: dict[str, tuple[str, ...]] = {
    "ocr": ("det", "orientation", "cls", "rec"),
    "layout": ("layout",),
    "table": ("table",),
    "formula": ("formula",),
}


@dataclass(frozen=True)
class PageSample:
    """One page of one run: its wall time, the engine's stage wall times and pure ONNX times."""

    page_number: int
    text_source: str
    wall_s: float
    """The page's share of the convert wall time: its own stages plus an equal share of the
    document's open/export overhead, so the pages of a run sum to the convert wall time."""
    stages_s: dict[str, float]
    onnx_s: dict[str, float]
    """Pure session.run seconds per model role (det, cls, rec, ...)."""

    @property
    def inference_s(self) -> float:
        return sum(self.onnx_s.values())


@dataclass(frozen=True)
class RunSample:
    """One timed `engine.convert` of one document."""

    convert_s: float
    export_s: float
    pages: tuple[PageSample, ...]
    onnx_total_s: dict[str, float] = field(default_factory=dict)
    """The inference clock's advance over the whole convert, per role (a cross-check)."""


@dataclass(frozen=True)
class DocumentSummary:
    """Medians over the runs of one document, per page unless the name says otherwise."""

    label: str
    kind: str
    page_count: int
    text_sources: tuple[str, ...]
    runs: int
    convert_s: float
    convert_min_s: float
    convert_max_s: float
    page_s: float
    pages_per_s: float
    stages_s: dict[str, float]
    onnx_s: dict[str, float]
    other_s: float
    """Page wall time outside every named stage (document open, glue, events)."""
    ocr_ratio: float | None
    """OCR pages' wall time over their pure inference time; None without OCR pages."""
    stage_ratios: dict[str, float]


@dataclass(frozen=True)
class AcceptanceFigures:
    digital_page_s: float | None
    digital_pages: int
    digital_slowest_s: float | None
    digital_slowest_label: str
    scanned_ratio: float | None
    scanned_label: str
    scanned_breakdown_s: dict[str, float]
    """Where the scanned page's wall time goes: inference, then each stage's time outside it."""


def median(values: Iterable[float]) -> float:
    data = list(values)
    if not data:
        raise ValueError("median of no values")
    return float(statistics.median(data))


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when the denominator is not positive."""
    if denominator <= 0:
        return None
    return numerator / denominator


def split_page_walls(convert_s: float, started_at: float,
                     done_at: Sequence[float]) -> list[float]:
    """Per-page wall times from event times: each page's interval since the previous event, plus
    an equal share of what the convert spent outside the pages (open, export)."""
    if not done_at:
        return []
    intervals = []
    previous = started_at
    for moment in done_at:
        intervals.append(moment - previous)
        previous = moment
    overhead = max(0.0, convert_s - (done_at[-1] - started_at))
    share = overhead / len(done_at)
    return [interval + share for interval in intervals]


def split_timings(timings_s: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """A page's engine timings -> (stage wall times, pure ONNX seconds per role). The steps
    inside the stages (`step_...`) are neither: they would count the stages' time twice."""
    stages = {k: v for k, v in timings_s.items()
              if not k.startswith((ONNX_PREFIX, STEP_PREFIX))}
    onnx = {k[len(ONNX_PREFIX):]: v for k, v in timings_s.items() if k.startswith(ONNX_PREFIX)}
    return stages, onnx


def _per_page(run: RunSample, pick) -> dict[str, float]:
    totals: dict[str, float] = {}
    for page in run.pages:
        for key, seconds in pick(page).items():
            totals[key] = totals.get(key, 0.0) + seconds
    count = max(1, len(run.pages))
    return {key: seconds / count for key, seconds in totals.items()}


def _median_of_keys(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    """Median per key; a key missing from a row counts as 0 there (a role that did not run)."""
    keys: list[str] = []
    for row in rows:
        keys.extend(k for k in row if k not in keys)
    return {key: median(row.get(key, 0.0) for row in rows) for key in keys}


def _ocr_ratio(run: RunSample) -> float | None:
    ocr_pages = [p for p in run.pages if p.text_source == OCR_SOURCE]
    return ratio(sum(p.wall_s for p in ocr_pages), sum(p.inference_s for p in ocr_pages))


def _stage_ratios(stages_s: dict[str, float], onnx_s: dict[str, float]) -> dict[str, float]:
    ratios = {}
    for stage, roles in STAGE_ROLES.items():
        value = ratio(stages_s.get(stage, 0.0), sum(onnx_s.get(role, 0.0) for role in roles))
        if stage in stages_s and value is not None:
            ratios[stage] = value
    return ratios


def summarise_document(label: str, kind: str, runs: Sequence[RunSample]) -> DocumentSummary:
    if not runs:
        raise ValueError(f"{label}: no runs to summarise")
    page_count = len(runs[0].pages)
    converts = [r.convert_s for r in runs]
    stage_rows = []
    for run in runs:
        row = _per_page(run, lambda p: p.stages_s)
        row["export"] = run.export_s / max(1, len(run.pages))
        stage_rows.append(row)
    onnx_rows = [_per_page(run, lambda p: p.onnx_s) for run in runs]
    page_walls = [r.convert_s / max(1, len(r.pages)) for r in runs]
    others = [wall - sum(stages.values()) for wall, stages in zip(page_walls, stage_rows)]
    ratios = [x for x in (_ocr_ratio(r) for r in runs) if x is not None]
    stages_s = _median_of_keys(stage_rows)
    onnx_s = _median_of_keys(onnx_rows)
    return DocumentSummary(
        label=label, kind=kind, page_count=page_count,
        text_sources=tuple(p.text_source for p in runs[-1].pages), runs=len(runs),
        convert_s=median(converts), convert_min_s=min(converts), convert_max_s=max(converts),
        page_s=median(page_walls),
        pages_per_s=median(len(r.pages) / r.convert_s for r in runs if r.convert_s > 0),
        stages_s=stages_s, onnx_s=onnx_s, other_s=max(0.0, median(others)),
        ocr_ratio=median(ratios) if ratios else None,
        stage_ratios=_stage_ratios(stages_s, onnx_s))


def _pages_by_position(runs: Sequence[RunSample]) -> list[list[PageSample]]:
    """The same page across runs: position i of every run."""
    count = min(len(r.pages) for r in runs) if runs else 0
    return [[r.pages[i] for r in runs] for i in range(count)]


def digital_page_seconds(documents: dict[str, Sequence[RunSample]]) -> list[tuple[float, str]]:
    """For every text-layer page of every document, its median wall time over the runs and
    its name (document, and page number when the document has several)."""
    figures = []
    for label, runs in documents.items():
        pages = _pages_by_position(runs)
        for samples in pages:
            if all(s.text_source == TEXT_LAYER_SOURCE for s in samples):
                name = label if len(pages) == 1 else f"{label} p{samples[0].page_number}"
                figures.append((median(s.wall_s for s in samples), name))
    return figures


def scanned_page_ratios(runs: Sequence[RunSample]) -> list[float]:
    """For every OCR page of a document, the median over runs of page wall / pure inference."""
    figures = []
    for samples in _pages_by_position(runs):
        values = [ratio(s.wall_s, s.inference_s) for s in samples
                  if s.text_source == OCR_SOURCE]
        values = [v for v in values if v is not None]
        if values:
            figures.append(median(values))
    return figures


def scanned_breakdown(runs: Sequence[RunSample]) -> dict[str, float]:
    """Median per OCR page: inference, then what each stage spends outside inference."""
    rows = []
    for run in runs:
        for page in run.pages:
            if page.text_source != OCR_SOURCE:
                continue
            row = {"inference": page.inference_s}
            for stage, seconds in page.stages_s.items():
                roles = STAGE_ROLES.get(stage, ())
                outside = seconds - sum(page.onnx_s.get(role, 0.0) for role in roles)
                row[f"{stage} outside inference" if roles else stage] = outside
            row["open, export, glue"] = page.wall_s - sum(page.stages_s.values())
            rows.append(row)
    return _median_of_keys(rows) if rows else {}


def acceptance_figures(documents: dict[str, Sequence[RunSample]],
                       scanned_labels: Sequence[str]) -> AcceptanceFigures:
    """The issue's two figures: median digital page wall, and the scanned page's ratio.

    The ratio is taken over the OCR pages of `scanned_labels` (the reference A4 scan); when none
    of them was measured, over every OCR page measured."""
    digital = digital_page_seconds(documents)
    chosen = [label for label in scanned_labels if label in documents] or list(documents)
    ratios: list[float] = []
    breakdown_runs: list[RunSample] = []
    used: list[str] = []
    for label in chosen:
        found = scanned_page_ratios(documents[label])
        if found:
            ratios.extend(found)
            breakdown_runs.extend(documents[label])
            used.append(label)
    slowest = max(digital, default=(None, ""))
    return AcceptanceFigures(
        digital_page_s=median(s for s, _ in digital) if digital else None,
        digital_pages=len(digital), digital_slowest_s=slowest[0],
        digital_slowest_label=slowest[1],
        scanned_ratio=median(ratios) if ratios else None, scanned_label=", ".join(used),
        scanned_breakdown_s=scanned_breakdown(breakdown_runs))

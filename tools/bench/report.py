"""The benchmark's readable tables, acceptance lines and JSON document."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from tools.bench.formula_speed import FormulaSpeed
from tools.bench.measure import ColdStart
from tools.bench.stats import AcceptanceFigures, DocumentSummary, RunSample

DIGITAL_TARGET_S = 0.3
RATIO_TARGET = 1.2
# Parts of the scanned page's time below a millisecond are left out of its breakdown line.
SHOWN_PART_S = 0.0005
# Stages shown first, in pipeline order; stages the engine adds later follow, export last.
STAGE_ORDER = ("render", "text_layer", "layout", "ocr", "table", "formula", "blocks")


@dataclass(frozen=True)
class BenchReport:
    machine: dict[str, object]
    config: dict[str, object]
    cold_start: ColdStart | None
    summaries: list[DocumentSummary]
    figures: AcceptanceFigures
    peak_rss_mib: float
    runs: dict[str, list[RunSample]] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    formula: FormulaSpeed | None = None
    formula_skipped: str | None = None
    """Why the formula recogniser was not timed."""
    created: str = ""
    """When the run ended (UTC, ISO 8601)."""


def seconds(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Plain-text table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows)]

    def line(cells: Sequence[str]) -> str:
        parts = [str(cells[0]).ljust(widths[0])]
        parts += [str(c).rjust(w) for c, w in zip(cells[1:], widths[1:])]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def _sources(summary: DocumentSummary) -> str:
    kinds = sorted(set(summary.text_sources))
    return "/".join(kinds) if kinds else "-"


def documents_table(summaries: Sequence[DocumentSummary]) -> str:
    headers = ["document", "kind", "text", "pages", "s/page", "convert min-max s", "pages/s",
               "inference s/page", "wall/inference"]
    rows = []
    for s in summaries:
        inference = sum(s.onnx_s.values())
        rows.append([s.label, s.kind, _sources(s), str(s.page_count), seconds(s.page_s),
                     f"{seconds(s.convert_min_s)}-{seconds(s.convert_max_s)}",
                     seconds(s.pages_per_s, 2), seconds(inference) if inference else "-",
                     seconds(s.ocr_ratio, 2)])
    return format_table(headers, rows)


def stage_names(summaries: Sequence[DocumentSummary]) -> list[str]:
    seen: list[str] = []
    for s in summaries:
        seen.extend(k for k in s.stages_s if k not in seen)
    ordered = [k for k in STAGE_ORDER if k in seen]
    ordered += [k for k in seen if k not in ordered and k != "export"]
    return ordered + (["export"] if "export" in seen else [])


def role_names(summaries: Sequence[DocumentSummary]) -> list[str]:
    seen: list[str] = []
    for s in summaries:
        seen.extend(k for k in s.onnx_s if k not in seen)
    return seen


def stages_table(summaries: Sequence[DocumentSummary]) -> str:
    stages = stage_names(summaries)
    roles = role_names(summaries)
    ratio_stages = [k for k in stages if any(k in s.stage_ratios for s in summaries)]
    headers = (["document"] + stages + ["other"] + [f"onnx {r}" for r in roles]
               + [f"{k}/onnx" for k in ratio_stages])
    rows = []
    for s in summaries:
        row = [s.label]
        row += [seconds(s.stages_s.get(k)) for k in stages]
        row.append(seconds(s.other_s))
        row += [seconds(s.onnx_s.get(r)) for r in roles]
        row += [seconds(s.stage_ratios.get(k), 2) for k in ratio_stages]
        rows.append(row)
    return format_table(headers, rows)


def formula_lines(speed: FormulaSpeed | None, skipped: str | None) -> list[str]:
    if speed is None:
        return [f"formula recogniser: not timed ({skipped})"]
    headers = ["formula recogniser", "images", "ms/formula", "min-max ms", "images/s",
               "encoder ms", "decoder ms", "other ms"]
    row = ["CPU, batch %d" % speed.batch_size, str(speed.images), f"{speed.ms_per_formula:.1f}",
           f"{speed.ms_per_formula_min:.1f}-{speed.ms_per_formula_max:.1f}",
           f"{speed.images_per_s:.1f}", f"{speed.encoder_ms:.1f}", f"{speed.decoder_ms:.1f}",
           f"{speed.other_ms:.1f}"]
    return [f"Formula recogniser (median of {speed.repeats} reads of every image; per formula):",
            format_table(headers, [row])]


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def acceptance_lines(figures: AcceptanceFigures) -> list[str]:
    lines = []
    if figures.digital_page_s is None:
        lines.append("digital PDF page: no text-layer page measured")
    else:
        lines.append(f"digital PDF page: median {figures.digital_page_s:.3f} s "
                     f"(target < {DIGITAL_TARGET_S} s) "
                     f"{_verdict(figures.digital_page_s < DIGITAL_TARGET_S)}, over "
                     f"{figures.digital_pages} text-layer page(s)")
        slowest = figures.digital_slowest_s
        lines.append(f"  slowest text-layer page: {figures.digital_slowest_label} "
                     f"{slowest:.3f} s ({'within' if slowest < DIGITAL_TARGET_S else 'over'} "
                     f"the target)")
    if figures.scanned_ratio is None:
        lines.append("scanned A4 page at 200 dpi: no OCR page measured")
    else:
        lines.append(f"scanned A4 page at 200 dpi: pipeline/pure-ONNX ratio "
                     f"{figures.scanned_ratio:.2f} (target <= {RATIO_TARGET}) "
                     f"{_verdict(figures.scanned_ratio <= RATIO_TARGET)}, on "
                     f"{figures.scanned_label}")
        parts = [f"{name} {value:.3f}" for name, value in figures.scanned_breakdown_s.items()
                 if value >= SHOWN_PART_S]
        lines.append("  where its time goes (median s per page): " + ", ".join(parts))
    return lines


# A 1-minute load average above this when the benchmark starts means another process was
# using the CPU: ORT's intra-op threads then wait for cores and every figure is inflated.
BUSY_LOAD = 0.5


def machine_lines(machine: dict[str, object]) -> list[str]:
    load = machine.get("load_average_1m_at_start")
    lines = [
        f"machine: {machine.get('cpu_model')}, {machine.get('logical_cores')} logical / "
        f"{machine.get('physical_cores')} physical cores, device {machine.get('device')}, "
        f"ORT {machine.get('onnxruntime')} ({machine.get('ort_intra_op_threads')} intra-op "
        f"threads), Python {machine.get('python')}, load at start {load}",
    ]
    if isinstance(load, (int, float)) and load > BUSY_LOAD:
        lines.append(f"WARNING: load average {load} at start: other processes were using the "
                     "CPU, so these timings are inflated; rerun on a quiet machine")
    return lines


def render_report(report: BenchReport) -> str:
    config = report.config
    out = machine_lines(report.machine)
    out.append(f"runs: median of {config.get('runs')} after {config.get('warmup')} warm-up "
               f"convert(s) per document; dpi {config.get('dpi')}, method "
               f"{config.get('method')}, outputs written: {config.get('write_outputs')}")
    if report.cold_start is not None:
        cold = report.cold_start
        roles = ", ".join(cold.roles_loaded) or "none"
        out.append(f"cold start: engine import {cold.import_s:.3f} s; first convert "
                   f"({cold.label}, sessions created: {roles}) {cold.convert_s:.3f} s")
    documents = bool(report.summaries or report.failures)  # none with --formula-only
    if documents:
        out += ["", "Per document (medians; per page):", documents_table(report.summaries)]
        out += ["", "Per stage (median wall s per page; pure ONNX s per page per role):",
                stages_table(report.summaries)]
    for label, reason in report.failures.items():
        out.append(f"FAILED {label}: {reason}")
    out += ["", *formula_lines(report.formula, report.formula_skipped)]
    out += ["", f"peak RSS: {report.peak_rss_mib:.0f} MiB"]
    if documents:
        out += ["", *acceptance_lines(report.figures)]
    return "\n".join(out)


def report_json(report: BenchReport) -> dict[str, object]:
    return {
        "created": report.created,
        "machine": report.machine,
        "config": report.config,
        "cold_start": asdict(report.cold_start) if report.cold_start else None,
        "documents": [asdict(s) for s in report.summaries],
        "acceptance": {
            **asdict(report.figures),
            "digital_target_s": DIGITAL_TARGET_S,
            "ratio_target": RATIO_TARGET,
        },
        "formula": asdict(report.formula) if report.formula else None,
        "formula_skipped": report.formula_skipped,
        "peak_rss_mib": round(report.peak_rss_mib, 1),
        "failures": report.failures,
        "runs": {label: [asdict(r) for r in runs] for label, runs in report.runs.items()},
    }


def results_json(report: BenchReport) -> dict[str, object]:
    """The committed summary (docs/results/bench.json): the report without per-run samples."""
    return {key: value for key, value in report_json(report).items() if key != "runs"}

"""The README's speed block, made from a committed bench summary (docs/results/bench.json) by
`python -m tools.readme_tables`: the run's machine and settings, a table per document and for
the formula recogniser, and the per-stage ratios, cold start, peak RSS and targets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tools.bench.report import BUSY_LOAD, DIGITAL_TARGET_S, RATIO_TARGET
from tools.gfm import gfm_table

# What each built-in document is, in words (tools/bench/documents.py); others show their label.
DESCRIPTIONS = {
    "a4-scan-200dpi": "A4 scan, 200 dpi PNG",
    "docling-ocr_test": "A4 scan in a PDF, 600 dpi embedded",
    "olmocr-lincoln_letter": "handwritten letter, scanned PDF",
    "docling-2305.03393v1-pg9": "digital paper page with a table",
    "docling-amt_handbook_sample": "digital handbook page",
    "olmocr-multi_column_miss": "digital two-column page",
    "olmocr-earnings": "digital earnings report page",
    "tesseract-phototest": "Tesseract's test page, PNG",
}
# The models a page ran, as the table names them, in pipeline order.
ROLES = (("layout", "layout"), ("table", "table"), ("formula", "formula"))
# Stages whose pipeline / pure inference ratio is summarised (stats.STAGE_ROLES).
RATIO_STAGES = (("layout", "layout"), ("ocr", "OCR"), ("table", "tables"), ("formula", "formulas"))


def _two(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _text(document: Mapping) -> str:
    """What read the document's pages: its text sources, then the models that ran."""
    sources = set(document["text_sources"])
    parts = [name for key, name in (("txt", "text layer"), ("ocr", "OCR")) if key in sources]
    onnx = document["onnx_s"]
    parts += [name for role, name in ROLES if onnx.get(role, 0.0) > 0]
    return " + ".join(parts) or "-"


def document_row(document: Mapping) -> list[str]:
    label = document["label"]
    name = DESCRIPTIONS.get(label, label)
    inference = sum(document["onnx_s"].values())
    ratio = document["page_s"] / inference if inference > 0 else None
    return [f"{name} (`{label}`)", _text(document), str(document["page_count"]),
            _two(document["page_s"]), _two(inference) if inference > 0 else "-", _two(ratio)]


def formula_row(formula: Mapping) -> list[str]:
    inference_ms = formula["encoder_ms"] + formula["decoder_ms"]
    return [f"formula crops, batches of {formula['batch_size']} ({formula['images']} images)",
            "formula model", "-", f"{formula['ms_per_formula'] / 1000:.3f} per formula",
            f"encoder {formula['encoder_ms'] / 1000:.3f}, decoder "
            f"{formula['decoder_ms'] / 1000:.3f}", _two(formula["ms_per_formula"] / inference_ms)]


def speed_table(results: Mapping) -> str:
    rows = [document_row(document) for document in results["documents"]]
    acceptance = results.get("acceptance") or {}
    if acceptance.get("digital_page_s") is not None:
        rows.append([f"text-layer pages, median of {acceptance['digital_pages']}", "text layer",
                     str(acceptance["digital_pages"]), _two(acceptance["digital_page_s"]), "", ""])
    if results.get("formula"):
        rows.append(formula_row(results["formula"]))
    return gfm_table(["document", "text", "pages", "s/page", "pure ONNX s/page",
                      "wall / ONNX"], rows)


def _ratio_ranges(documents: Sequence[Mapping]) -> str:
    parts = []
    for stage, name in RATIO_STAGES:
        values = [d["stage_ratios"][stage] for d in documents if stage in d["stage_ratios"]]
        if values:
            low, high = min(values), max(values)
            parts.append(f"{name} {low:.2f}x" if f"{low:.2f}" == f"{high:.2f}"
                         else f"{name} {low:.2f}-{high:.2f}x")
    return ", ".join(parts)


def _formula_share(results: Mapping) -> str:
    every = results["config"].get("formula_every")
    if not results.get("formula") or not every:
        return ""
    return (" (formulas: all images of the formula set)" if every == 1
            else f" (formulas: 1 image in {every} of the formula set)")


def _settings(results: Mapping) -> str:
    machine, config = results["machine"], results["config"]
    when = str(results.get("created", ""))[:10]
    load = machine.get("load_average_1m_at_start")
    text = (f"Measured{f' on {when}' if when else ''} on {machine.get('cpu_model')}, "
            f"{machine.get('logical_cores')} logical cores, {str(machine.get('device')).upper()} "
            f"only (ONNX Runtime {machine.get('onnxruntime')}, "
            f"{machine.get('ort_intra_op_threads')} intra-op threads); per page, medians of "
            f"{config.get('runs')} converts after {config.get('warmup')} warm-up"
            f"{_formula_share(results)}; load average {load} at the start.")
    if isinstance(load, (int, float)) and load > BUSY_LOAD:
        text += (" Other processes were using the CPU, so these seconds are inflated; the "
                 "ratios, measured on both sides at once, much less.")
    return text


def _notes(results: Mapping) -> str:
    notes = []
    ranges = _ratio_ranges(results["documents"])
    if ranges:
        notes.append(f"Per stage, wall time over pure inference: {ranges}.")
    cold = results.get("cold_start")
    if cold:
        notes.append(f"Cold start: engine import {cold['import_s']:.2f} s, first convert "
                     f"{cold['convert_s']:.2f} s.")
    notes.append(f"Peak RSS {results['peak_rss_mib'] / 1024:.1f} GiB over the run.")
    acceptance = results.get("acceptance") or {}
    targets = []
    if acceptance.get("digital_page_s") is not None:
        targets.append(f"a text-layer page under {DIGITAL_TARGET_S} s (median "
                       f"{acceptance['digital_page_s']:.2f}, slowest "
                       f"{acceptance['digital_slowest_s']:.2f})")
    if acceptance.get("scanned_ratio") is not None:
        targets.append(f"the A4 scan's wall / inference at most {RATIO_TARGET} "
                       f"({acceptance['scanned_ratio']:.2f})")
    if targets:
        notes.append(f"Targets: {'; '.join(targets)}.")
    for label, reason in (results.get("failures") or {}).items():
        notes.append(f"{label} failed: {reason}.")
    return " ".join(notes)


def readme_markdown(results: Mapping) -> str:
    """The README's speed block."""
    return "\n".join([_settings(results), "", speed_table(results), "", _notes(results)])

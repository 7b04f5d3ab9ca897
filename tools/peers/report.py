"""The peers run's Markdown file: the table, what its numbers mean, the machine and versions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

from tools.bench.report import BUSY_LOAD
from tools.peers.comparison import markdown_table, rows_from_json
from tools.peers.plan import LABELS, Tool

REGENERATE = "`make peers` (`.venv/bin/python -m tools.peers`)"


@dataclass(frozen=True)
class ToolState:
    """A tool's load time and versions, or why it was skipped or stopped during the run."""

    load_s: float | None = None
    versions: dict[str, str] = field(default_factory=dict)
    skipped: str = ""
    """Why the tool never ran (not installed, failed to load)."""
    failed: str = ""
    """Why the tool stopped part-way; its items up to then are in the results."""

    def to_json(self) -> dict:
        return asdict(self)


def _versions(states: Mapping[Tool, ToolState]) -> str:
    parts = []
    for tool, state in states.items():
        if not state.versions:
            continue
        own = {Tool.PAPERLENS: "paperlens", Tool.RAPIDOCR: "rapidocr",
               Tool.TESSERACT: "tesseract", Tool.PYMUPDF4LLM: "pymupdf4llm"}[tool]
        rest = ", ".join(f"{name} {version}" for name, version in state.versions.items()
                         if name != own and version)
        parts.append(f"{LABELS[tool]} {state.versions.get(own, '?')}"
                     + (f" ({rest})" if rest else ""))
    return "; ".join(parts)


def _budget(config: Mapping[str, object]) -> str:
    budget = config.get("budget_s")
    return f" (fewer once they add up to {budget:g} s)" if budget else ""


def measured_sentence(machine: Mapping[str, object], config: Mapping[str, object]) -> str:
    """The machine, its load and the run's settings, in one sentence."""
    return (f"Measured in one run on {machine.get('cpu_model')}, {machine.get('logical_cores')} "
            f"logical cores, CPU only (ONNX Runtime {machine.get('onnxruntime')}, "
            f"{machine.get('ort_intra_op_threads')} intra-op threads for Paperlens); load average "
            f"{machine.get('load_average_1m_at_start')} at the start and "
            f"{machine.get('load_average_1m_at_end')} at the end. {config['items']} dev-set "
            f"items; per item and tool {config['warmup']} untimed run, then the median of "
            f"{config['runs']} timed runs{_budget(config)}.")


def _loads(states: Mapping[Tool, ToolState]) -> str:
    return ", ".join(f"{LABELS[tool]} {state.load_s:.2f} s" for tool, state in states.items()
                     if state.load_s is not None)


def render_markdown(table: str, machine: Mapping[str, object], config: Mapping[str, object],
                    states: Mapping[Tool, ToolState]) -> str:
    """results.md: the table with its legend, machine, load times and versions."""
    loads = _loads(states)
    render = config.get("render_s_per_page_median")
    lines = [
        measured_sentence(machine, config),
        "",
        table,
        "",
        "Score: each item's primary metric (text similarity, TEDS for table crops, formula "
        "similarity, or the share of olmOCR facts that hold), averaged per category. "
        "s/page: seconds per page, model load excluded. In brackets: Paperlens / the peer on "
        "the items that peer read (n= when fewer than the category has); a score ratio above 1 "
        "and a time ratio below 1 favour Paperlens. RapidOCR reads every item as page images, "
        "Tesseract the scans and images, pymupdf4llm the digital PDFs; — where a peer reads no "
        "item of the category.",
    ]
    if render is not None:
        lines += ["", f"RapidOCR and Tesseract read PDFs as PNG pages rendered beforehand at "
                      f"200 dpi (median {render:.3f} s/page, not counted); Paperlens's s/page "
                      f"includes its own rendering."]
    if loads:
        lines += ["", f"Load (imports, models, one tiny page), not in s/page: {loads}."]
    lines += ["", f"Versions: {_versions(states)}."]
    lines += _trouble(states)
    lines += ["", f"Regenerate: {REGENERATE}; method: docs/benchmarks.md.", ""]
    return "\n".join(lines)


def _trouble(states: Mapping[Tool, ToolState]) -> list[str]:
    lines = []
    for tool, state in states.items():
        if state.skipped:
            lines += ["", f"{LABELS[tool]} was skipped: {state.skipped}"]
        if state.failed:
            lines += ["", f"{LABELS[tool]} stopped part-way: {state.failed}"]
    return lines


def tool_states(report: Mapping) -> dict[Tool, ToolState]:
    """The tools of a results file (results.json, docs/results/peers.json)."""
    return {Tool(name): ToolState(**state) for name, state in report["tools"].items()}


def peers_table(report: Mapping) -> str:
    """The comparison table of a results file: the peers that ran, in the order chosen."""
    states = tool_states(report)
    peers = [name for name in report["config"]["peers"]
             if Tool(name) in states and not states[Tool(name)].skipped]
    return markdown_table(rows_from_json(report["categories"]), peers,
                          {tool.value: label for tool, label in LABELS.items()},
                          LABELS[Tool.PAPERLENS])


def readme_markdown(report: Mapping) -> str:
    """The README's peers block (python -m tools.readme_tables): the table between the run's
    settings and the tools' load times and versions."""
    states = tool_states(report)
    when = str(report.get("created", ""))[:10]
    machine = report["machine"]
    loads = [machine.get(f"load_average_1m_at_{moment}") for moment in ("start", "end")]
    busy = any(isinstance(load, (int, float)) and load > BUSY_LOAD for load in loads)
    first = (measured_sentence(machine, report["config"]) + (f" Run of {when}." if when else "")
             + (" Other processes were using the CPU, so the seconds are inflated and the time "
                "ratios less reliable than on a quiet machine (the tools need not suffer "
                "alike); the scores are not affected." if busy else ""))
    lines = [first, "", peers_table(report), ""]
    load_times = _loads(states)
    tail = f"Versions: {_versions(states)}."
    if load_times:
        tail = f"Model load, not in s/page: {load_times}. " + tail
    lines.append(tail)
    lines += _trouble(states)
    return "\n".join(lines)

"""Timing one tool on one item: untimed warm-up runs, then timed runs (standard library only)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

# A converter turns one input file into (Markdown, pages read). Multi-page inputs that a tool
# only takes as page images arrive as several files, one per page.
Convert = Callable[[Path], tuple[str, int]]

# Pages of one item are joined the way Paperlens joins pages in its Markdown.
PAGE_JOINER = "\n\n"


@dataclass(frozen=True)
class ItemTiming:
    """What one tool made of one item: its Markdown and the seconds of each timed run."""

    markdown: str
    pages: int
    run_s: tuple[float, ...]
    error: str = ""
    """Why the tool produced nothing for this item; empty when it did."""

    @property
    def median_s(self) -> float | None:
        return float(statistics.median(self.run_s)) if self.run_s else None

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> ItemTiming:
        return cls(markdown=str(data["markdown"]), pages=int(data["pages"]),
                   run_s=tuple(float(s) for s in data["run_s"]), error=str(data["error"]))


def _convert_all(convert: Convert, inputs: Sequence[Path]) -> tuple[str, int]:
    texts, pages = [], 0
    for path in inputs:
        text, count = convert(path)
        texts.append(text.strip())
        pages += count
    return PAGE_JOINER.join(t for t in texts if t), pages


def time_item(convert: Convert, inputs: Sequence[Path], runs: int, warmup: int,
              budget_s: float | None = None) -> ItemTiming:
    """`warmup` untimed passes over `inputs` (lazy loads, file cache), then up to `runs` timed
    ones, stopping early once the timed passes have taken `budget_s` in all (at least one runs):
    a slow item's runs vary little relative to their length, and repeating them is what makes a
    comparison run long.

    The Markdown is the last timed pass's. A failure in any pass is the item's result, with no
    time: one tool failing on one document is a finding, not a reason to stop the comparison.
    """
    if runs < 1 or warmup < 0:
        raise ValueError("runs must be at least 1 and warmup at least 0")
    run_s: list[float] = []
    try:
        for _ in range(warmup):
            _convert_all(convert, inputs)
        for _ in range(runs):
            start = time.perf_counter()
            markdown, pages = _convert_all(convert, inputs)
            run_s.append(time.perf_counter() - start)
            if budget_s is not None and sum(run_s) >= budget_s:
                break
    except Exception as error:  # noqa: BLE001 - any peer failure is reported per item
        detail = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
        return ItemTiming("", 0, (), f"{type(error).__name__}: {detail}".rstrip(": "))
    return ItemTiming(markdown, pages, tuple(run_s))

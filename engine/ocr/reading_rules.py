"""The page reader's thresholds (engine/ocr/page_reader.py), in one frozen set (STYLE habit 20):
which recognised lines are text, and when a page read turned over is upside down. The reader
holds its set (`PageReader.rules`); the stages that read line crops again through the reader
(engine/ocr/stage.py) judge their lines by the same set. How each was chosen:
docs/adr/0026-rules-as-data.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageReadingRules:
    min_line_score: float = 0.5
    """Lines read with less confidence than this are noise (texture, photos), not text."""
    turn_sample_lines: int = 6
    """The widest lines, this many, are read turned over to confirm an upside-down verdict."""
    turn_score_gain: float = 0.25
    """...which holds when they read this much better turned (turned dev and generated pages
    gained 0.27-0.64, upright Hebrew and Hindi pages -0.14 to 0.18)..."""
    turn_score_sure: float = 0.9
    """...or read turned at a mean score this high (turned one-line Chinese images: 1.0; an
    upright Hebrew page 0.59)."""


PAGE_READING = PageReadingRules()

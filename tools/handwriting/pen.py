"""Writing like a hand: text laid glyph by glyph on a PyMuPDF page with the irregularities of a
pen (size, baseline, slant and spacing varying per glyph and per word, lines that drift, wander
and tilt), in one ink colour. A font alone is too regular to stand for handwriting."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import pymupdf

INKS = {  # RGB 0..1: ballpoint blue, black, blue-black, iron-gall brown, pencil grey
    "blue": (0.10, 0.16, 0.55), "black": (0.08, 0.08, 0.10), "blue-black": (0.10, 0.12, 0.30),
    "brown": (0.33, 0.20, 0.10), "pencil": (0.35, 0.35, 0.38)}


@dataclass(frozen=True)
class Hand:
    """How one person writes on one page."""

    font: Path
    size_pt: float
    slant: float
    """Shear of the strokes: x moves by slant * height above the baseline (0 upright)."""
    slant_jitter: float
    size_jitter: float
    baseline_jitter: float
    """Per-glyph baseline noise, as a share of the size."""
    wobble: float
    """Slow wave of the baseline along a line, as a share of the size."""
    wobble_period_pt: float
    tilt_deg: float
    """Largest tilt of a line (each line draws its own)."""
    spacing_jitter: float
    word_gap: float
    """Space between words, as a share of the size."""
    pitch: float
    """Distance between baselines, as a share of the size."""
    pitch_jitter: float
    ink: str
    weight: float
    """Stroke added around each glyph, as a share of the size (0: the font's own weight)."""


def random_hand(rng: random.Random, fonts: tuple[Path, ...], ink: str | None = None) -> Hand:
    return Hand(font=rng.choice(fonts), size_pt=rng.uniform(13, 22),
                slant=rng.choice((0.0, rng.uniform(-0.08, 0.35))),
                slant_jitter=rng.uniform(0.01, 0.06), size_jitter=rng.uniform(0.02, 0.09),
                baseline_jitter=rng.uniform(0.01, 0.05), wobble=rng.uniform(0.0, 0.12),
                wobble_period_pt=rng.uniform(80, 400), tilt_deg=rng.uniform(0.2, 2.0),
                spacing_jitter=rng.uniform(0.01, 0.06), word_gap=rng.uniform(0.25, 0.6),
                pitch=rng.uniform(1.35, 2.1), pitch_jitter=rng.uniform(0.02, 0.12),
                ink=ink or rng.choice(("blue", "blue", "black", "blue-black", "brown", "pencil")),
                weight=rng.choice((0.0, 0.0, rng.uniform(0.01, 0.04))))


class Pen:
    """Writes a Hand's lines on one page; `finish()` puts them on the page."""

    def __init__(self, page: pymupdf.Page, hand: Hand, rng: random.Random, name: str) -> None:
        self.page, self.hand, self.rng, self.name = page, hand, rng, name
        self.font = pymupdf.Font(fontfile=str(hand.font))
        self.shape = page.new_shape()
        self.chars = 0

    def line_height(self) -> float:
        return self.hand.size_pt * self.hand.pitch * (1 + self.rng.gauss(0, self.hand.pitch_jitter))

    def write_line(self, words: list[str], x: float, baseline: float, right: float) -> int:
        """As many of `words` as fit between x and `right` on one line; how many were written
        (at least one, so a long word never stalls a paragraph)."""
        hand, rng = self.hand, self.rng
        tilt = math.radians(rng.uniform(-hand.tilt_deg, hand.tilt_deg))
        phase = rng.uniform(0, 2 * math.pi)
        start, drift, written = x, 0.0, 0
        for word in words:
            width = self.font.text_length(word, hand.size_pt) * 1.05
            if written and x + width > right:
                break
            slant = hand.slant + rng.gauss(0, hand.slant_jitter)
            for ch in word:
                if not self.font.has_glyph(ord(ch)):
                    continue
                size = hand.size_pt * (1 + rng.gauss(0, hand.size_jitter))
                drift = 0.6 * drift + 0.4 * rng.gauss(0, hand.baseline_jitter * hand.size_pt)
                y = (baseline + math.tan(tilt) * (x - start) + drift
                     + hand.wobble * hand.size_pt
                     * math.sin(2 * math.pi * (x - start) / hand.wobble_period_pt + phase))
                point = pymupdf.Point(x, y)
                turn = pymupdf.Matrix(math.degrees(-tilt))
                self.shape.insert_text(point, ch, fontsize=size, fontname=self.name,
                                       fontfile=str(hand.font), color=INKS[hand.ink],
                                       fill=INKS[hand.ink],
                                       render_mode=2 if hand.weight else 0,
                                       border_width=hand.weight,
                                       morph=(point, pymupdf.Matrix(1, 0, slant, 1, 0, 0) * turn))
                advance = self.font.text_length(ch, size)
                x += advance * (1 + rng.gauss(0, hand.spacing_jitter))
                self.chars += 1
            x += hand.size_pt * hand.word_gap * (1 + rng.gauss(0, 0.25))
            written += 1
        return max(written, 1)

    def write_paragraph(self, text: str, left: float, right: float, baseline: float,
                        bottom: float, indent: float = 0.0) -> float:
        """A paragraph wrapped between left and right, each line a little off the margin;
        the baseline after its last line (it stops at `bottom`)."""
        words = text.split()
        first = True
        while words and baseline < bottom:
            margin = left + (indent if first else 0.0) + self.rng.gauss(0, 0.12 * self.hand.size_pt)
            count = self.write_line(words, margin, baseline,
                                    right - self.rng.uniform(0, 2.5 * self.hand.size_pt))
            words = words[count:]
            baseline += self.line_height()
            first = False
        return baseline

    def finish(self) -> None:
        self.shape.commit()

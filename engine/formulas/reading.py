"""Formula recognition: the interface a formula model plugs into, its readings, and the
warning for a manifest without a formula model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from engine.formulas.latex_tokens import DROPPED, tokenize

UNAVAILABLE_WARNING = ("formula recognition is unavailable (no formula model installed); "
                       "formulas are kept as images with their OCR text")

LOW_CONFIDENCE = 0.80
"""Below this mean token probability a reading is shown with its image beside it."""


@dataclass(frozen=True)
class FormulaReading:
    latex: str
    confidence: float
    """Mean probability of the chosen tokens (0..1)."""
    tokens: int
    truncated: bool = False
    """The reading reached the token cap without its end token (often a loop: x x x ...)."""
    guard: str = ""
    """The decoding stop rule that ended the reading ("length", "repetition"; see
    engine/formulas/guards.py), "" when it ended with its end token. A guarded reading is
    doubtful whatever its confidence."""

    @property
    def low_confidence(self) -> bool:
        return self.confidence < LOW_CONFIDENCE or self.truncated or bool(self.guard)


class FormulaRecognizer(Protocol):
    """Reads cropped formula images (RGB) into LaTeX; None where a crop cannot be read."""

    def read(self, crops: list[np.ndarray]) -> list[FormulaReading | None]:
        ...


# Commands that only style letters, and spacing: a reading of these, letters and digits is text.
_TEXT_STYLE = frozenset({"\\text", "\\textrm", "\\textbf", "\\textit", "\\textup", "\\mbox",
                         "\\mathrm", "\\mathbf", "\\mathit", "\\mathsf", "\\mathtt",
                         "\\operatorname", "\\ensuremath"})
_SPACING = DROPPED | {"\\quad", "\\qquad"}
_MATH_MARKS = frozenset("^_=+<>")


def looks_like_math(latex: str) -> bool:
    """True when a reading holds math beyond styled letters and digits: a script, a relation or
    operator sign, or a command that is not a text, font or spacing one (\\frac, \\alpha, ...).

    The formula model also reads plain text, confidently: "Chapter 3" comes out as
    \\text { C h a p t e r 3 }, which is text; "x = 5" is math."""
    text_depth = 0
    style_next = False
    for token in tokenize(latex):
        if text_depth:
            text_depth += (token == "{") - (token == "}")
        elif style_next and token == "{":
            text_depth = 1
        elif token in _TEXT_STYLE or token in _SPACING:
            style_next = token in _TEXT_STYLE
            continue
        elif token in _MATH_MARKS or token.startswith("\\"):
            return True
        style_next = False
    return False

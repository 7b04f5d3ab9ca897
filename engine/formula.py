"""Formula recognition: the interface a formula model plugs into, and how its absence is handled."""

from __future__ import annotations

from typing import Protocol

import numpy as np

UNAVAILABLE_WARNING = ("formula recognition is unavailable (no formula model installed); "
                       "formulas are kept as images with their OCR text")


class FormulaRecognizer(Protocol):
    """Reads cropped formula images (RGB) into LaTeX; None where a crop cannot be read."""

    def recognize(self, crops: list[np.ndarray]) -> list[str | None]:
        ...

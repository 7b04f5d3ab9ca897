"""A display formula as typed content: its LaTeX, how sure the reading is, and the decoding
guard that ended it. The formula stages put it on a region, the blocks carry it on, and the
Markdown, the JSON, the content list and the exports read it."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TAG = re.compile(r"\\tag\s*\{([^{}]*)\}")


@dataclass(frozen=True)
class Formula:
    latex: str
    """The LaTeX as written to every output, the equation number as `\\tag{..}` at its end
    where the formula has one."""
    confidence: float | None = None
    """How sure the reading is: the formula model's mean token probability (0..1), 1.0 for an
    Office document's own equation; None where no reading measured it."""
    guard: str = ""
    """The decoding guard that ended a runaway reading ("length": longer than the crop's width
    allows; "repetition": a token or n-gram repeated beyond any training formula), "" when the
    reading ended by itself. Such a reading is doubtful and keeps its image."""

    @property
    def tag(self) -> str:
        """The equation number the LaTeX carries as `\\tag{..}` ("" when none)."""
        match = _TAG.search(self.latex)
        return match.group(1) if match else ""

    @property
    def untagged(self) -> str:
        """The LaTeX without its `\\tag{..}`: the formula itself, for comparing readings."""
        return _TAG.sub("", self.latex)

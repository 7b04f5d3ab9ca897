"""TeX Live renders (latex + dvipng, through tools/formula/render.py's typesetter) of formulas
and of text set in the same fonts: a line of Computer Modern prose is the text a formula model
is most easily fooled by."""

from __future__ import annotations

import random
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools.formula.render import _typeset

# The font set-ups of tools/formula/render.py that TeX Live's recommended fonts hold, by weight.
FONTS = (("cm", 40), ("lmodern", 20), ("times", 20), ("palatino", 20))
# 96-120 dpi: a PDF page on screen at 100%; 150-300: zoomed in or a high-density display.
DPIS = (96, 120, 150, 200, 300)
_SPECIAL = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "&": "\\&",
            "%": "\\%", "#": "\\#", "_": "\\_", "^": "\\^{}", "~": "\\~{}"}


@dataclass(frozen=True)
class TexSetup:
    font: str
    display: bool
    dpi: int

    def record(self) -> dict:
        return {"font": self.font, "display": self.display, "dpi": self.dpi}


def draw_setup(rng: random.Random) -> TexSetup:
    font = rng.choices([f for f, _ in FONTS], weights=[w for _, w in FONTS])[0]
    return TexSetup(font, rng.random() < 0.7, rng.choice(DPIS))


def escaped(text: str) -> str:
    """Plain text as LaTeX text-mode source."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def text_source(kind: str, text: str, rng: random.Random) -> str:
    """Math-mode source that sets `text` as text: a paragraph in a box 6-13 cm wide, a heading
    in bold, a line or phrase as it is."""
    if kind == "paragraph":
        return f"\\parbox{{{rng.randint(6, 13)}cm}}{{\\normalfont {escaped(text)}}}"
    if kind == "heading":
        return f"\\text{{\\large\\bfseries {escaped(text)}}}"
    return f"\\text{{{escaped(text)}}}"


def typeset(sources: dict[str, tuple[str, TexSetup]]) -> dict[str, np.ndarray]:
    """{id: (math-mode source, set-up)} -> {id: black-on-white grey image}; sources TeX cannot
    set are left out. One latex run per set-up."""
    groups: dict[TexSetup, list[str]] = defaultdict(list)
    for key, (_, setup) in sources.items():
        groups[setup].append(key)
    images: dict[str, np.ndarray] = {}
    for setup, keys in groups.items():
        with tempfile.TemporaryDirectory() as tmp:
            rendered = _typeset([sources[k][0] for k in keys],
                                {"font": setup.font, "display": setup.display, "dpi": setup.dpi},
                                Path(tmp))
        images.update((k, img) for k, img in zip(keys, rendered) if img is not None)
    return images

"""Training images typeset by KaTeX in headless Chromium: formulas as users copy them from web
pages (KaTeX's own fonts and spacing, the browser's anti-aliasing, screen zooms). The shots are
the ones the formula-image generator (`tools.formula_images`) takes too: 14-40 px, display style
70% of the time, zoom 1-3; here black on white, and render.py crops and stores them like its TeX
renders."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np

from tools.formula import browser
from tools.formula.browser import NODE_DIR, Shot

ZOOMS = (1.0, 1.0, 1.25, 1.5, 2.0, 3.0)
"""The browser zooms a shot is taken at (a screen's scaling)."""
WHITE_PAGE = "rgb(255,255,255)"
BLACK_ON_WHITE = "color:rgb(0,0,0);background:rgb(255,255,255);"


def katex_shot(shot_id: str, out: str, latex: str, page: str, colours: str,
               rng: random.Random) -> Shot:
    """KaTeX at 14-40 px, display style 70% of the time, at one of ZOOMS; `page` is the page's
    CSS background, `colours` the CSS colour and background of the shot."""
    style = f"display:inline-block;padding:6px;font-size:{rng.randint(14, 40)}px;{colours}"
    return Shot(shot_id, out, "@@MATH0@@", style, page, rng.choice(ZOOMS),
                math=[{"latex": latex, "display": rng.random() < 0.7}])


def typeset(formulas: list[str], seed: int, work: Path) -> list[np.ndarray | None]:
    """One grey image per formula, None where KaTeX refuses it (a macro it lacks: \\slashed,
    \\nicefrac, ...) or the shot failed."""
    rng = random.Random(seed)
    shots = [katex_shot(str(i), str(work / f"{i}.png"), latex.replace("\n", " "), WHITE_PAGE,
                        BLACK_ON_WHITE, rng) for i, latex in enumerate(formulas)]
    outcomes = browser.take(shots, NODE_DIR, work)
    images: list[np.ndarray | None] = []
    for shot in shots:
        ok = outcomes.get(shot.id) == "ok"
        images.append(cv2.imread(shot.out, cv2.IMREAD_GRAYSCALE) if ok else None)
    return images

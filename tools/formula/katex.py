"""Training images typeset by KaTeX in headless Chromium: formulas as users copy them from web
pages (KaTeX's own fonts and spacing, the browser's anti-aliasing, screen zooms). The shots are
the formula-image generator's (`tools.formula_images`: 14-40 px, display style 70% of the time,
zoom 1-3), black on white; render.py crops and stores them like its TeX renders."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np

from tools.formula_images import browser
from tools.formula_images.generate import DEFAULT_ROOT
from tools.formula_images.html_items import formula_shot
from tools.formula_images.looks import Look

NODE_DIR = DEFAULT_ROOT / "node"
"""The npm folder (KaTeX, puppeteer-core) the formula-image generator installs and shares."""
BLACK_ON_WHITE = Look("white", (255, 255, 255), (0, 0, 0), "none", 1.0, 0)


def typeset(formulas: list[str], seed: int, work: Path) -> list[np.ndarray | None]:
    """One grey image per formula, None where KaTeX refuses it (a macro it lacks: \\slashed,
    \\nicefrac, ...) or the shot failed."""
    rng = random.Random(seed)
    shots = [formula_shot(str(i), str(work / f"{i}.png"), latex.replace("\n", " "),
                          BLACK_ON_WHITE, rng) for i, latex in enumerate(formulas)]
    outcomes = browser.take(shots, NODE_DIR, work)
    images: list[np.ndarray | None] = []
    for shot in shots:
        ok = outcomes.get(shot.id) == "ok"
        images.append(cv2.imread(shot.out, cv2.IMREAD_GRAYSCALE) if ok else None)
    return images

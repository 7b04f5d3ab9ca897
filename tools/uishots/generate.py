"""`python -m tools.uishots generate`: the screenshot set into build/uishots/, reproducibly.

Each shot is `<family>-<nn>@<scale>x.png` with its truth `<family>-<nn>.md` (and, for code,
`<family>-<nn>.code`: the listing exactly as shown). The same --count and --seed draw the same
pages; the pixels are Chromium's."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tools.uishots.draw import screenshot
from tools.uishots.pages import FAMILIES, shot

DEFAULT_OUT = Path("build/uishots")
SCALES = (1, 2)


def shot_seed(seed: int, family: str, n: int) -> int:
    return seed * 1_000_003 + FAMILIES.index(family) * 10_007 + n


def generate(out: Path, count: int, seed: int, families: tuple[str, ...] = FAMILIES
             ) -> list[dict]:
    unknown = sorted(set(families) - set(FAMILIES))
    if unknown:
        raise ValueError(f"unknown families {unknown}; known: {', '.join(FAMILIES)}")
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    for family in families:
        for n in range(count):
            drawn_from = shot_seed(seed, family, n)
            page = shot(family, random.Random(drawn_from))
            stem = f"{family}-{n:02d}"
            (out / f"{stem}.md").write_text(page.truth, encoding="utf-8")
            if page.code:
                (out / f"{stem}.code").write_text(page.code, encoding="utf-8")
            for scale in SCALES:
                screenshot(page.html, page.width, page.height, scale, out / f"{stem}@{scale}x.png")
                shots.append({"id": f"{stem}@{scale}x", "truth": stem, "family": family,
                              "scale": scale, "language": page.language,
                              "code": bool(page.code)})
    manifest = {"count": count, "seed": seed, "families": list(families), "shots": shots}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return shots

"""`python -m tools.structure generate`: the structure set into build/structure/, reproducibly.

Each page is `<family>-<nnn>.pdf` (born-digital), `<family>-<nnn>.scan.jpg` (its scanned
variant) and `<family>-<nnn>.md` (the truth). The same --count and --seed give the same bytes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tools.structure.layouts import FAMILIES, draw_page
from tools.structure.scans import scan
from tools.structure.text_source import load_prose

DEFAULT_OUT = Path("build/structure")


def generate(out: Path, count: int, seed: int, families: tuple[str, ...] = FAMILIES
             ) -> list[dict]:
    out.mkdir(parents=True, exist_ok=True)
    prose = load_prose()
    pages = []
    for family in families:
        for n in range(count):
            page_seed = seed * 1_000_003 + FAMILIES.index(family) * 10_007 + n
            pdf, truth = draw_page(family, prose, page_seed)
            stem = f"{family}-{n:03d}"
            (out / f"{stem}.pdf").write_bytes(pdf)
            (out / f"{stem}.scan.jpg").write_bytes(scan(pdf, random.Random(page_seed)))
            (out / f"{stem}.md").write_text(truth, encoding="utf-8")
            pages.append({"id": stem, "family": family, "seed": page_seed})
    manifest = {"count": count, "seed": seed, "families": list(families), "pages": pages}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return pages

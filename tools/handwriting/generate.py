"""`python -m tools.handwriting generate`: the handwriting set into build/handwriting/seed-<n>/.

Each page is `<kind>-<nnn>.jpg` (a scan); manifest.json lists every page with its kind, label
(mostly handwriting or not), the share of its characters written by hand and its fonts. The
same --count, --seed and font choice give the same bytes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tools.handwriting.fonts import font_pools
from tools.handwriting.pages import HANDWRITING_KINDS, PRINTED_KINDS, draw_page
from tools.handwriting.scan import scan
from tools.structure.text_source import load_prose

DEFAULT_ROOT = Path("build/handwriting")
KINDS = HANDWRITING_KINDS + PRINTED_KINDS


def set_folder(root: Path, seed: int) -> Path:
    return root / f"seed-{seed}"


def generate(root: Path, count: int, seed: int, npm_fonts: bool = True) -> list[dict]:
    """`count` pages of each label (handwriting, not), spread over the kinds of each label."""
    fonts = font_pools(root / "fonts" if npm_fonts else None)
    out = set_folder(root, seed)
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.jpg"):  # pages of an earlier, larger or different run
        stale.unlink()
    prose = load_prose()
    pages = []
    for kinds in (HANDWRITING_KINDS, PRINTED_KINDS):
        for n in range(count):
            kind = kinds[n % len(kinds)]
            page_seed = seed * 1_000_003 + KINDS.index(kind) * 10_007 + n
            rng = random.Random(page_seed)
            drawn = draw_page(kind, prose, fonts, rng)
            aged = kind != "printed" and rng.random() < 0.25
            # A quarter of the print is a poor copy (its own draw: the other pages keep theirs).
            poor = kind in PRINTED_KINDS and random.Random(page_seed + 1).random() < 0.25
            stem = f"{kind}-{n:03d}"
            (out / f"{stem}.jpg").write_bytes(scan(drawn.pdf, rng, aged=aged, poor=poor))
            pages.append({"id": stem, "kind": kind, "seed": page_seed,
                          "handwriting": drawn.handwriting_share > 0.5,
                          "handwriting_share": round(drawn.handwriting_share, 3), "poor": poor,
                          "fonts": list(drawn.fonts)})
    manifest = {"count": count, "seed": seed, "npm_fonts": npm_fonts, "pages": pages}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return pages

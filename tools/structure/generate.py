"""`python -m tools.structure generate`: the structure set into build/structure/, reproducibly.

Each page is `<family>-<nnn>.pdf` (born-digital), `<family>-<nnn>.scan.jpg` (its scanned
variant) and `<family>-<nnn>.md` (the truth). The same --count and --seed give the same bytes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tools.structure.cjk_layouts import CJK_FAMILIES, draw_cjk_page
from tools.structure.cjk_text import load_chinese_prose, without_latin
from tools.structure.layouts import A4, FAMILIES, Sheet, draw_page, draw_sheet
from tools.structure.mosaic import (BROADSHEET_PT, MOSAIC_FAMILIES, broadsheet, broadsheet_full,
                                    journal)
from tools.structure.scans import scan
from tools.structure.text_source import Prose, load_prose

ALL_FAMILIES = FAMILIES + CJK_FAMILIES + MOSAIC_FAMILIES
MOSAIC = {"broadsheet": broadsheet, "journal": journal, "broadsheet_full": broadsheet_full}
SHEET_SIZES = {"broadsheet_full": BROADSHEET_PT}
"""Families not drawn on A4 (points)."""

DEFAULT_OUT = Path("build/structure")


def page_seed(seed: int, family: str, n: int) -> int:
    """The seed of page `n` of a family in the set drawn from `seed`."""
    return seed * 1_000_003 + ALL_FAMILIES.index(family) * 10_007 + n


def draw_family_page(family: str, seed: int, texts: dict[str, Prose]) -> tuple[bytes, str]:
    """A page of any family, its prose loaded once into `texts` (English or Chinese)."""
    if family in CJK_FAMILIES:
        if "zh" not in texts:
            texts["zh"] = load_chinese_prose()
            texts["zh_vertical"] = without_latin(texts["zh"])
        return draw_cjk_page(family, texts["zh_vertical" if family == "zh_vertical" else "zh"],
                             seed)
    if "en" not in texts:
        texts["en"] = load_prose()
    if family in MOSAIC:
        return draw_sheet(Sheet, MOSAIC[family], texts["en"], seed, SHEET_SIZES.get(family, A4))
    return draw_page(family, texts["en"], seed)


def generate(out: Path, count: int, seed: int, families: tuple[str, ...] = ALL_FAMILIES,
             only: frozenset[str] | None = None, scans: bool = True) -> list[dict]:
    """`count` pages per family; `only`: just the pages of those stems (`family-nnn`), each the
    same bytes as in the whole set; `scans=False`: the born-digital pages and truth alone."""
    unknown = sorted(set(families) - set(ALL_FAMILIES))
    if unknown:
        raise ValueError(f"unknown families {unknown}; known: {', '.join(ALL_FAMILIES)}")
    out.mkdir(parents=True, exist_ok=True)
    texts: dict[str, Prose] = {}
    pages = []
    for family in families:
        for n in range(count):
            stem = f"{family}-{n:03d}"
            if only is not None and stem not in only:
                continue
            drawn_from = page_seed(seed, family, n)
            pdf, truth = draw_family_page(family, drawn_from, texts)
            (out / f"{stem}.pdf").write_bytes(pdf)
            if scans:
                (out / f"{stem}.scan.jpg").write_bytes(scan(pdf, random.Random(drawn_from)))
            (out / f"{stem}.md").write_text(truth, encoding="utf-8")
            pages.append({"id": stem, "family": family, "seed": drawn_from})
    manifest = {"count": count, "seed": seed, "families": list(families), "pages": pages}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return pages

"""Writes the labelled set: formula images (TeX Live and KaTeX-in-Chromium renders of corpus
formulas, one line or several) and images of text (browser screenshots and TeX-set text), each
finished in a drawn look (tools/formula_images/looks.py), plus manifest.json.

    python -m tools.formula_images generate --seed 1 [--formulas 250] [--texts 250]

The set goes to build/formula_images/seed-<seed>/ (images/ and manifest.json, written last). The
same seed gives the same set on the same TeX Live, Chromium and fonts. Needs TeX Live with dvipng
(`make formula-sysdeps`, or on Debian at least texlive-latex-recommended texlive-latex-extra
texlive-fonts-recommended lmodern dvipng), Chromium and Node with npm (`apt-get install chromium
nodejs npm`); the two npm packages are installed under build/formula_images/node on first use.
Formulas never include an evaluation truth (tools.formula.corpus.eval_keys)."""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tools.formula.corpus import eval_keys
from tools.formula import browser
from tools.formula_images import tex
from tools.formula_images.html_items import TEXT_KINDS, formula_shot, text_shot
from tools.formula_images.looks import Look, colourise, draw_look, encode, finish
from tools.formula_images.sources import FormulaPool, load_text

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ROOT = REPO_ROOT / "build" / "formula_images"
MULTI_LINE_SHARE = 0.35
TEX_TEXT_SHARE = 0.2
"""Of the text images, this share is set by TeX (the rest are browser screenshots)."""
TEX_TEXT_KINDS = ("paragraph", "line", "phrase", "heading")
LIGHT_INK_ON_TRANSPARENT = 0.15
"""Of the transparent images, this share has light ink (made for a dark theme)."""
SPARE = 1.3
"""Planned items per wanted one: some formulas KaTeX or TeX cannot set."""


@dataclass
class Planned:
    id: str
    kind: str
    """"formula" or "text"."""
    renderer: str
    """"tex", "katex" (formulas) or "browser" (text)."""
    detail: str
    """The formula's structure ("single", "aligned", ...) or the text's kind (TEXT_KINDS)."""
    content: str
    """The formula's LaTeX, or the text shown."""
    look: Look
    source: str = ""
    setup: tex.TexSetup | None = None
    shot: browser.Shot | None = None
    extra: dict = field(default_factory=dict)


def _plan_formulas(count: int, rng: random.Random, pool: FormulaPool, raw: Path) -> list[Planned]:
    planned = []
    for n in range(round(count * SPARE)):
        renderer = "tex" if n % 2 == 0 else "katex"
        formula = pool.multi() if rng.random() < MULTI_LINE_SHARE else pool.single()
        look = draw_look(rng, LIGHT_INK_ON_TRANSPARENT)
        item = Planned(f"f{n:04d}-{renderer}", "formula", renderer, formula.structure,
                       formula.latex, look, formula.source)
        if renderer == "tex":
            item.setup = tex.draw_setup(rng)
        else:
            item.shot = formula_shot(item.id, str(raw / f"{item.id}.png"), formula.latex, look, rng)
        planned.append(item)
    return planned


def _plan_texts(count: int, rng: random.Random, pool: FormulaPool, raw: Path) -> list[Planned]:
    text = load_text()
    planned = []
    for n in range(round(count * SPARE)):
        look = draw_look(rng, LIGHT_INK_ON_TRANSPARENT)
        if rng.random() < TEX_TEXT_SHARE:
            kind = rng.choice(TEX_TEXT_KINDS)
            content = {"paragraph": lambda: rng.choice(text.paragraphs),
                       "line": lambda: text.sentence(rng),
                       "phrase": lambda: text.words(rng, rng.randint(1, 4)),
                       "heading": lambda: f"{rng.randint(1, 9)} {rng.choice(text.titles)}"}[kind]()
            item = Planned(f"t{n:04d}-tex", "text", "tex", kind, content, look,
                           setup=tex.draw_setup(rng))
        else:
            kind = TEXT_KINDS[n % len(TEXT_KINDS)]
            item_id = f"t{n:04d}-browser"
            shot, shown = text_shot(item_id, str(raw / f"{item_id}.png"), kind, look, text, pool,
                                    rng)
            item = Planned(item_id, "text", "browser", kind, shown, look, shot=shot)
        planned.append(item)
    return planned


def _render(planned: list[Planned], raw: Path, rng: random.Random) -> dict[str, np.ndarray]:
    """{id: RGB or RGBA image in the item's colours, before its margin}; failures left out."""
    sources = {}
    for item in planned:
        if item.setup is None:
            continue
        if item.kind == "formula":
            sources[item.id] = (item.content, item.setup)
        else:
            sources[item.id] = (tex.text_source(item.detail, item.content, rng), item.setup)
    images = {key: colourise(grey, next(p.look for p in planned if p.id == key))
              for key, grey in tex.typeset(sources).items()}
    shots = [item.shot for item in planned if item.shot is not None]
    outcomes = browser.take(shots, browser.NODE_DIR) if shots else {}
    for item in planned:
        if item.shot is None or outcomes.get(item.id) != "ok":
            continue
        image = cv2.imread(item.shot.out, cv2.IMREAD_UNCHANGED)
        if image is None:
            continue
        if image.ndim == 3 and image.shape[2] == 4 and item.look.background == "transparent":
            images[item.id] = cv2.cvtColor(image, cv2.COLOR_BGRA2RGBA)
        else:
            images[item.id] = cv2.cvtColor(image[..., :3], cv2.COLOR_BGR2RGB)
    return images


def _keep(planned: list[Planned], rendered: dict, want: int, group) -> list[Planned]:
    """The first `want` rendered items of each group (renderer), in plan order."""
    kept, counts = [], {}
    for item in planned:
        key = group(item)
        if item.id in rendered and counts.get(key, 0) < want:
            counts[key] = counts.get(key, 0) + 1
            kept.append(item)
    return kept


def generate(out: Path, seed: int, formulas: int, texts: int) -> list[dict]:
    """Writes the set into `out` (replacing one there) and returns the manifest's records."""
    rng = random.Random(seed)
    pool = FormulaPool(seed, eval_keys())
    build = out.with_name(out.name + ".partial")
    shutil.rmtree(build, ignore_errors=True)
    (build / "images").mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp)
        planned = _plan_formulas(formulas, rng, pool, raw) + _plan_texts(texts, rng, pool, raw)
        rendered = _render(planned, raw, rng)
        kept = (_keep([p for p in planned if p.kind == "formula"], rendered, -(-formulas // 2),
                      lambda p: p.renderer)
                + _keep([p for p in planned if p.kind == "text"], rendered, texts,
                        lambda p: "all"))
        records = []
        for item in kept:
            finish_rng = random.Random(f"{seed}/{item.id}")
            image, scale = finish(rendered[item.id], item.look, finish_rng)
            data, suffix = encode(image, item.look)
            name = f"images/{item.id}{suffix}"
            (build / name).write_bytes(data)
            records.append({
                "id": item.id, "kind": item.kind, "file": name, "renderer": item.renderer,
                "detail": item.detail, "multiline": item.kind == "formula"
                and item.detail != "single", "content": item.content, "source": item.source,
                "family": f"{item.renderer}/{item.look.family_background}",
                "look": item.look.record(), "scale": scale,
                "tex": item.setup.record() if item.setup else None,
                "zoom": item.shot.scale if item.shot else None,
                "size": [int(image.shape[1]), int(image.shape[0])]})
    manifest = {"seed": seed, "formulas": sum(r["kind"] == "formula" for r in records),
                "texts": sum(r["kind"] == "text" for r in records), "items": records}
    (build / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    os.replace(build, out)
    return records

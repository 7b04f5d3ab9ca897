"""`python -m tools.photos`' measurement: every photo of a generated set read by Paperlens (the
photo steps on, and off) and by Tesseract (default page segmentation), scored by
tools/eval/scoring.py's order-sensitive text similarity against the page's truth; Paperlens'
page status (ok, partial), warnings and display-math faults (tools/eval/math_faults.py) recorded
beside its score."""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import time
from collections import defaultdict
from pathlib import Path

from tools.eval.math_faults import FaultTally, summary_of
from tools.eval.scoring import text_similarity
from tools.photos import pages


def tesseract(image: Path, language: str) -> str | None:
    """Tesseract's text, or None when it or the language's model is not installed."""
    if shutil.which("tesseract") is None:
        return None
    done = subprocess.run(["tesseract", str(image), "-", "-l", language], capture_output=True,
                          text=True, timeout=300)
    return done.stdout if done.returncode == 0 else None


def paperlens_variants() -> dict[str, object]:
    """Paperlens as shipped, and with the photo steps off (what they change)."""
    from engine.options import ConvertOptions

    return {"paperlens": ConvertOptions(), "paperlens_steps_off": ConvertOptions(dewarp=False)}


def measure(folder: Path, tesseract_too: bool = True, earlier: dict | None = None) -> dict:
    """The set in `folder` measured; with `earlier` (a former result of a set with the same
    seed), only the pages in the folder's manifest are read and the rows of other pages are
    kept from it."""
    from engine.api import Engine
    from settings import SettingsStore

    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    engine = Engine(SettingsStore().load())
    variants = paperlens_variants()
    rows = []
    tally = FaultTally()
    for photo in manifest["photos"]:
        truth = (folder / photo["truth"]).read_text(encoding="utf-8")
        image = folder / photo["image"]
        base = {"id": photo["id"], "page": photo["page"], "effect": photo["effect"],
                "strength": photo["strength"]}
        for tool, options in variants.items():
            start = time.perf_counter()
            result = engine.convert(image, options)
            seconds = time.perf_counter() - start
            page = result.pages[0]
            rows.append(base | {"tool": tool,
                                "similarity": round(text_similarity(result.markdown, truth), 4),
                                "status": page.status.value, "warnings": list(page.warnings),
                                "seconds": round(seconds, 2),
                                "math_faults": tally.check(f"{photo['id']} {tool}", result)})
            print(f"{photo['id']} {tool}: {rows[-1]['similarity']} {page.status.value}",
                  flush=True)
        text = tesseract(image, photo["language"]) if tesseract_too else None
        if text is not None:
            rows.append(base | {"tool": "tesseract",
                                "similarity": round(text_similarity(text, truth), 4)})
            print(f"{photo['id']} tesseract: {rows[-1]['similarity']}", flush=True)
    if earlier is not None:
        rows = merged(earlier, manifest, rows)
    return summarised(manifest["seed"], rows)


def merged(earlier: dict, manifest: dict, rows: list[dict]) -> list[dict]:
    """`rows` (of the pages in `manifest`) with an earlier result's rows of the other pages,
    in the order of tools/photos/pages.py's pages."""
    if earlier["set"]["seed"] != manifest["seed"]:
        raise ValueError(f"the earlier results are of seed {earlier['set']['seed']}, "
                         f"this set of seed {manifest['seed']}: measure the whole set")
    read = {photo["page"] for photo in manifest["photos"]}
    rows = [row for row in earlier["photos"] if row["page"] not in read] + rows
    order = {name: i for i, name in enumerate(pages.PAGES)}
    return sorted(rows, key=lambda row: order.get(row["page"], len(order)))  # stable


def summarised(seed: int, rows: list[dict]) -> dict:
    """The results file: each page and effect's mean and least similarity per tool, the
    display-math faults, every row."""
    groups: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        groups[f"{row['page']}/{row['effect']}/{row['tool']}"].append(row["similarity"])
    summary = {key: {"photos": len(found), "similarity": round(statistics.fmean(found), 4),
                     "min_similarity": round(min(found), 4)}
               for key, found in sorted(groups.items())}
    photos = len({row["id"] for row in rows})
    return {"set": {"seed": seed, "photos": photos},
            "summary": summary,
            "math_faults": summary_of(row["math_faults"] for row in rows if "math_faults" in row),
            "photos": rows}

"""The formula sets as items: the formula evaluation set, the dev set's formula crops. Read by
the formula evaluation and by the training corpus, which leaves every one of them out; and the
chunks of a training render folder (tools/formula/render.py writes them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tools.eval.manifest import load_manifest

REPO_ROOT = Path(__file__).resolve().parents[2]
FORMULA_SET_DIR = REPO_ROOT.parent / "shared" / "eval" / "formula"
DEV_MANIFEST = REPO_ROOT.parent / "shared" / "eval" / "dev" / "manifest.json"
# The formula set's `group` field starts with one of these; the report uses the short name.
SET_GROUPS = {"im2latex-100k": "im2latex", "KaTeX screenshotter": "katex"}
DEV_GROUP = "dev_crops"
@dataclass(frozen=True)
class FormulaItem:
    id: str
    group: str
    image_path: Path
    truth: str
    multiline: bool
    span: tuple[int, int] | None = None
    """(offset, size) of a PNG inside `image_path` (a training render chunk); None: a whole file."""


def is_multiline(latex: str) -> bool:
    """The formula set's rule: a line break `\\\\` or any environment."""
    return "\\\\" in latex or "\\begin{" in latex


def _short_group(group: str, item_id: str) -> str:
    for prefix, name in SET_GROUPS.items():
        if group.startswith(prefix):
            return name
    raise ValueError(f"{item_id}: unknown group {group!r}; expected one of {list(SET_GROUPS)}")


def load_formula_set(folder: Path) -> list[FormulaItem]:
    """The formula evaluation set's records (manifest.json in `folder`)."""
    records = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return [
        FormulaItem(id=r["id"], group=_short_group(r["group"], r["id"]),
                    image_path=folder / r["input"], truth=r["truth"],
                    multiline=bool(r["multiline"]))
        for r in records
    ]


def load_dev_crops(manifest: Path) -> list[FormulaItem]:
    """The dev set's items whose truth is LaTeX (formula crops); its pages are left to `make
    eval`, where formulas are one part of a page's facts."""
    return [
        FormulaItem(id=item.id, group=DEV_GROUP, image_path=item.input_path,
                    truth=item.truth.strip(), multiline=is_multiline(item.truth))
        for item in load_manifest(manifest)
        if item.truth_format == "latex"
    ]


def read_chunk_index(renders: Path):
    """Every finished chunk of a render folder, in order: its ``.bin`` path and its items
    (``offset``, ``size`` and ``tokens`` of each PNG). Chunks without their JSON are unfinished."""
    for meta in sorted(renders.glob("chunk-*.json")):
        yield meta.with_suffix(".bin"), json.loads(meta.read_text(encoding="utf-8"))["items"]

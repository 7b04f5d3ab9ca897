"""Reading an evaluation manifest: items with input, truth file and truth format."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tools.eval.olmocr_checks import FactFileError, olmocr_score
from tools.eval.scoring import TRUTH_FORMATS


class ManifestError(ValueError):
    """The manifest or one of its truth files cannot be used; the message names the item."""


@dataclass(frozen=True)
class ManifestItem:
    """One document to convert and the ground truth to score its Markdown against."""

    id: str
    category: str
    input_path: Path
    truth_path: Path
    truth_format: str
    truth: str
    tags: tuple[str, ...] = ()


def _item(entry: object, folder: Path, position: int) -> ManifestItem:
    if not isinstance(entry, dict):
        raise ManifestError(f"manifest entry {position} is not an object")
    required = ("id", "category", "input", "truth", "truth_format")
    missing = [key for key in required if key not in entry]
    if missing:
        raise ManifestError(f"manifest entry {entry.get('id', position)!r} lacks {missing}")
    item_id = str(entry["id"])
    truth_format = entry["truth_format"]
    if truth_format not in TRUTH_FORMATS:
        raise ManifestError(f"{item_id}: unknown truth_format {truth_format!r}")
    input_path = (folder / entry["input"]).resolve()
    truth_path = (folder / entry["truth"]).resolve()
    for label, path in (("input", input_path), ("truth", truth_path)):
        if not path.is_file():
            raise ManifestError(f"{item_id}: {label} file {path} does not exist")
    truth = truth_path.read_text(encoding="utf-8")
    if truth_format == "olmocr_tests":
        # Run the facts once on empty output now, so a malformed fact stops the run before
        # any conversion rather than in the middle of it.
        try:
            _, total, _ = olmocr_score("", truth.splitlines())
        except FactFileError as error:
            raise ManifestError(f"{item_id}: {truth_path.name}: {error}") from error
        if total == 0:
            raise ManifestError(f"{item_id}: {truth_path.name} holds no fact")
    return ManifestItem(
        id=item_id,
        category=str(entry["category"]),
        input_path=input_path,
        truth_path=truth_path,
        truth_format=truth_format,
        truth=truth,
        tags=tuple(entry.get("tags", ())),
    )


def load_manifest(path: Path) -> list[ManifestItem]:
    """All items of a manifest; paths inside it are relative to the manifest's folder."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ManifestError(f"cannot read manifest {path}: {error.strerror}") from error
    except json.JSONDecodeError as error:
        raise ManifestError(
            f"manifest {path} is not JSON: {error.msg} (line {error.lineno})"
        ) from error
    if not isinstance(entries, list):
        raise ManifestError(f"manifest {path} must be a JSON list of items")
    items = [_item(entry, path.parent, position) for position, entry in enumerate(entries)]
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise ManifestError(f"item id {item.id!r} appears twice in {path}")
        seen.add(item.id)
    return items

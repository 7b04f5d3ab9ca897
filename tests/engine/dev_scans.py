"""The dev set's scans and their conversion with the searchable PDF export, shared by the
session's fixture (tests/engine/conftest.py) and the determinism test's second pass."""

from __future__ import annotations

from pathlib import Path

import pytest


def dev_scan_paths(eval_dev_dir: Path) -> list[Path]:
    """The dev set's scans (its scanned_image category), in the manifest's order."""
    import json

    manifest = json.loads((eval_dev_dir / "manifest.json").read_text(encoding="utf-8"))
    paths = [eval_dev_dir / entry["input"] for entry in manifest
             if entry["category"] == "scanned_image"]
    paths = [p for p in paths if p.is_file()]
    if not paths:
        pytest.skip(f"no scanned items in {eval_dev_dir}")
    return paths


def convert_dev_scans(engine, inputs: list[Path], out: Path) -> list[tuple[Path, object, Path]]:
    """Each scan converted with the searchable PDF export into `out`, named by its item folder
    (items are folders holding input.<ext>): (source, result, searchable PDF) for each."""
    from engine.formats import OutputFormat
    from engine.options import ConvertOptions

    converted = []
    for path in inputs:
        name = path.parent.name
        result = engine.convert(path, ConvertOptions(output_dir=str(out), output_name=name,
                                                     exports=(OutputFormat.PDF,)))
        converted.append((path, result, out / f"{name}.searchable.pdf"))
    return converted

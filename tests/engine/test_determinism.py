"""The same input and settings give the same bytes: the dev set's scans converted twice with the
real models, the second time in the opposite order and with the cores busy, are identical file
for file (Markdown, JSON, content list, page images)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

from engine.options import ConvertOptions


def scanned_items(eval_dev_dir: Path) -> list[Path]:
    manifest = json.loads((eval_dev_dir / "manifest.json").read_text(encoding="utf-8"))
    paths = [eval_dev_dir / entry["input"] for entry in manifest
             if entry["category"] == "scanned_image"]
    paths = [p for p in paths if p.is_file()]
    if not paths:
        pytest.skip(f"no scanned items in {eval_dev_dir}")
    return paths


def convert_all(engine, inputs: list[Path], out: Path) -> None:
    for path in inputs:
        # Items are folders holding input.<ext>: the folder name keeps the outputs apart.
        engine.convert(path, ConvertOptions(output_dir=str(out), output_name=path.parent.name))


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


class BusyCores:
    """Matrix products on two threads (NumPy releases the GIL) while a conversion runs, so every
    model run takes a different time than it did on the quiet pass."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._spin, daemon=True) for _ in range(2)]

    def _spin(self) -> None:
        a = np.random.default_rng(0).random((300, 300))
        while not self._stop.is_set():
            a = np.tanh(a @ a)

    def __enter__(self) -> "BusyCores":
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for t in self._threads:
            t.join()


@pytest.mark.model
@pytest.mark.slow
def test_two_runs_over_the_dev_scans_are_byte_identical(engine, eval_dev_dir, tmp_path):
    inputs = scanned_items(eval_dev_dir)
    convert_all(engine, inputs, tmp_path / "first")
    with BusyCores():
        convert_all(engine, list(reversed(inputs)), tmp_path / "second")
    first, second = tree(tmp_path / "first"), tree(tmp_path / "second")
    assert sorted(first) == sorted(second)
    assert len([name for name in first if name.endswith(".md")]) == len(inputs)
    differing = [name for name in first if first[name] != second[name]]
    assert differing == []

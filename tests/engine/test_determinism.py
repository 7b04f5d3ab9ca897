"""The same input and settings give the same bytes: the dev set's scans converted twice with the
real models, the second time in the opposite order and with the cores busy, are identical file
for file (Markdown, JSON, content list, page images, searchable PDF)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from dev_scans import convert_dev_scans


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
def test_two_runs_over_the_dev_scans_are_byte_identical(engine, dev_scans_converted, tmp_path):
    # The first pass is the session's own conversion of the scans (searchable PDFs included),
    # made on a quiet machine before this test.
    first_dir, converted = dev_scans_converted
    inputs = [source for source, _result, _pdf in converted]
    with BusyCores():
        convert_dev_scans(engine, list(reversed(inputs)), tmp_path / "second")
    first, second = tree(first_dir), tree(tmp_path / "second")
    assert sorted(first) == sorted(second)
    assert len([name for name in first if name.endswith(".md")]) == len(inputs)
    assert len([name for name in first if name.endswith(".pdf")]) == len(inputs)
    differing = [name for name in first if first[name] != second[name]]
    assert differing == []

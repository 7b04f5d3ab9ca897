"""Make the fakes in this folder importable, and keep device tests off the user's data folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    # Reports and the last decision go to the data folder; never the developer's real one.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    for name in ("PAPERLENS_MODEL_ONNX_DEVICE", "PAPERLENS_CALIBRATION_TIMEOUT_S",
                 "PAPERLENS_CONFIG"):
        monkeypatch.delenv(name, raising=False)

"""The settings file is read with a size cap, and only when it is a regular file."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from settings import SettingsStore


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config" / "settings.json"
    path.parent.mkdir()
    return path


def store_of(config: Path, tmp_path: Path) -> SettingsStore:
    return SettingsStore(config, {"HOME": str(tmp_path / "home")})


def test_oversized_file_is_set_aside_not_parsed(config: Path, tmp_path: Path) -> None:
    # Valid JSON, padded past 1 MiB: read whole, its setting would be taken.
    text = json.dumps({"model": {"onnx_device": "cpu"}}) + " " * (2 * 1024 * 1024)
    config.write_text(text, encoding="utf-8")
    settings = store_of(config, tmp_path).load()
    assert settings.model.onnx_device == "auto"
    assert any("larger than 1024 KiB" in w for w in settings.warnings), settings.warnings
    aside = [p for p in config.parent.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].stat().st_size == len(text)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_as_settings_file_is_left_alone(config: Path, tmp_path: Path) -> None:
    os.mkfifo(config)
    loaded: list = []
    reader = threading.Thread(target=lambda: loaded.append(store_of(config, tmp_path).load()),
                              daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():  # opening the pipe blocks until a writer comes: release it
        fd = os.open(config, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        reader.join(timeout=10)
        pytest.fail("loading the settings blocked on a named pipe")
    [settings] = loaded
    assert settings.model.onnx_device == "auto"
    assert any("not a regular file" in w for w in settings.warnings), settings.warnings
    assert config.exists(), "a pipe is not moved aside"

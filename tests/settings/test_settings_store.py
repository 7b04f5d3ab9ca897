"""The write path: unknown keys kept, validation, corrupt and read-only files."""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import pytest

import settings.config_file as config_file
from settings import InvalidSetting, SettingsError, SettingsStore


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return tmp_path / "config" / "settings.json"


@pytest.fixture
def store(config: Path, tmp_path: Path) -> SettingsStore:
    return SettingsStore(config, {"HOME": str(tmp_path / "home")})


def write(path: Path, raw: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(raw), encoding="utf-8")


def read(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_load_and_construction_create_nothing(config: Path, store: SettingsStore, tmp_path: Path) -> None:
    store.load()
    assert not config.parent.exists()
    assert not (tmp_path / "home").exists()


def test_set_creates_the_file_and_a_lock_beside_it(config: Path, store: SettingsStore) -> None:
    settings = store.set("model.onnx_device", "cpu")
    assert settings.model.onnx_device == "cpu" and settings.origin("model.onnx_device") == "file"
    assert read(config) == {"model": {"onnx_device": "cpu"}}
    assert (config.parent / "settings.json.lock").exists()
    assert leftovers(config.parent) == []
    assert store.read_only is False and store.warnings == []


def test_update_with_the_documented_mutator(store: SettingsStore) -> None:
    settings = store.update(lambda raw: raw.setdefault("model", {}).update(onnx_device="gpu"))
    assert settings.model.onnx_device == "gpu"
    assert store.load().model.onnx_device == "gpu"


def test_mutator_may_return_a_replacement(config: Path, store: SettingsStore) -> None:
    store.set("ui.language", "en")
    store.update(lambda raw: {"output": {"table_format": "markdown"}})
    assert read(config) == {"output": {"table_format": "markdown"}}


def test_unknown_keys_are_preserved(config: Path, store: SettingsStore) -> None:
    write(config, {
        "future_section": {"nested": [1, {"x": None}]},
        "model": {"onnx_device": "gpu", "future_key": "kept", "layout": "cdla"},
        "window": "geometry",
    })
    store.set("model.onnx_device", "cpu")
    store.set("output.dir", Path("/tmp/out"))
    assert read(config) == {
        "future_section": {"nested": [1, {"x": None}]},
        "model": {"onnx_device": "cpu", "future_key": "kept", "layout": "cdla"},
        "window": "geometry",
        "output": {"dir": "/tmp/out"},
    }


def test_a_retired_key_still_loads_and_is_kept(config: Path, store: SettingsStore) -> None:
    # model.small_backend was a setting until nothing read it; files that still carry it load
    # without a warning and keep it, like any unknown key.
    write(config, {"model": {"onnx_device": "gpu", "small_backend": "onnx"}})
    settings = store.load()
    assert settings.model.onnx_device == "gpu" and settings.warnings == ()
    assert not hasattr(settings.model, "small_backend")
    store.set("ui.language", "en")
    assert read(config) == {"model": {"onnx_device": "gpu", "small_backend": "onnx"},
                            "ui": {"language": "en"}}


def test_invalid_update_writes_nothing(config: Path, store: SettingsStore) -> None:
    write(config, {"model": {"onnx_device": "gpu"}})
    before = config.read_bytes()
    with pytest.raises(InvalidSetting, match=r"model\.layout.*allowed: doclaynet, cdla"):
        store.update(lambda raw: raw["model"].update(layout="yolo", onnx_device="cpu"))
    assert config.read_bytes() == before


def test_update_that_is_not_json_is_refused(config: Path, store: SettingsStore) -> None:
    with pytest.raises(SettingsError, match="JSON"):
        store.update(lambda raw: raw.update(when=object()))
    with pytest.raises(SettingsError, match="JSON object"):
        store.update(lambda raw: [1, 2])
    assert not config.exists()


def test_a_bad_key_already_in_the_file_does_not_block_other_keys(config: Path, store: SettingsStore) -> None:
    write(config, {"model": {"onnx_device": "fast"}})
    settings = store.set("model.layout", "cdla")
    assert settings.model.layout == "cdla"
    assert any("model.onnx_device" in w for w in settings.warnings)
    assert read(config) == {"model": {"onnx_device": "fast", "layout": "cdla"}}
    settings = store.set("model.onnx_device", "cpu")
    assert settings.warnings == () and settings.model.onnx_device == "cpu"


@pytest.mark.parametrize(
    ("content", "reason"),
    [(b'{"model": {"onnx_device": "cpu"', "not valid JSON"), (b"[1, 2]", "not an object"),
     (b"\xff\xfe\x00garbage", "not UTF-8")],
)
def test_corrupt_file_is_moved_aside_and_reported(
    config: Path, store: SettingsStore, content: bytes, reason: str
) -> None:
    config.parent.mkdir(parents=True)
    config.write_bytes(content)
    settings = store.load()

    assert settings.model.onnx_device == "auto" and settings.origin("model.onnx_device") == "default"
    assert not config.exists()
    aside = [p for p in config.parent.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1
    assert re.fullmatch(r"settings\.json\.corrupt-\d{8}-\d{6}", aside[0].name)
    assert aside[0].read_bytes() == content
    assert len(store.warnings) == 1 and store.warnings == list(settings.warnings)
    assert reason in store.warnings[0] and aside[0].name in store.warnings[0]

    store.set("ui.language", "en")
    assert read(config) == {"ui": {"language": "en"}}
    assert aside[0].read_bytes() == content


def test_corrupt_file_found_by_update_is_moved_aside_too(config: Path, store: SettingsStore) -> None:
    config.parent.mkdir(parents=True)
    config.write_text("{oops")
    settings = store.set("model.onnx_device", "gpu")
    assert settings.model.onnx_device == "gpu"
    assert any("corrupt" in w for w in settings.warnings)
    assert read(config) == {"model": {"onnx_device": "gpu"}}
    assert len([p for p in config.parent.iterdir() if ".corrupt-" in p.name]) == 1


def test_two_corrupt_files_in_one_second_are_both_kept(config: Path) -> None:
    config.parent.mkdir(parents=True)
    for text in ("{one", "{two"):
        config.write_text(text)
        config_file.move_aside(config, now=1_700_000_000)
    kept = sorted(p.read_text() for p in config.parent.iterdir() if ".corrupt-" in p.name)
    assert kept == ["{one", "{two"]


def test_corrupt_file_that_cannot_be_moved_is_left_untouched(
    config: Path, store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    config.parent.mkdir(parents=True)
    config.write_text("{oops")

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(src))

    monkeypatch.setattr(config_file.os, "rename", refuse)
    settings = store.set("ui.language", "en")
    assert settings.ui.language == "en"
    assert config.read_text() == "{oops"
    assert store.read_only is True
    assert any("could not be moved aside" in w for w in store.warnings)


def test_empty_file_reads_as_no_settings(config: Path, store: SettingsStore) -> None:
    config.parent.mkdir(parents=True)
    config.write_text("  \n")
    settings = store.load()
    assert settings.warnings == () and config.exists()


def _refuse_replace_onto(target: Path, monkeypatch: pytest.MonkeyPatch, error: OSError) -> None:
    real_replace = os.replace

    def replace(src: object, dst: object) -> None:
        if Path(dst) == target:
            raise error
        real_replace(src, dst)

    monkeypatch.setattr(config_file.os, "replace", replace)


@pytest.mark.parametrize("code", [errno.EACCES, errno.EROFS])
def test_read_only_file_keeps_changes_in_memory(
    config: Path, store: SettingsStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    # Tests run as root, where permission bits do not stop a write: inject the refusal instead.
    write(config, {"model": {"onnx_device": "gpu"}, "extra": 1})
    before = config.read_bytes()
    with monkeypatch.context() as patch:
        _refuse_replace_onto(config, patch, OSError(code, os.strerror(code), str(config)))

        settings = store.set("model.onnx_device", "cpu")
        assert settings.model.onnx_device == "cpu"
        assert store.read_only is True
        assert any("kept in memory for this process only" in w for w in settings.warnings)
        assert config.read_bytes() == before
        assert leftovers(config.parent) == []

        # The change stays visible to this process, and later changes build on it.
        assert store.load().model.onnx_device == "cpu"
        settings = store.set("ui.language", "en")
        assert (settings.model.onnx_device, settings.ui.language) == ("cpu", "en")
        # Another process still sees the file as it is.
        other = SettingsStore(config, {"HOME": str(tmp_path / "home")}).load()
        assert other.model.onnx_device == "gpu" and other.ui.language == "system"

    # Once the file can be written again, the next update saves the kept changes with it.
    settings = store.set("output.table_format", "markdown")
    assert store.read_only is False
    assert read(config) == {"model": {"onnx_device": "cpu"}, "extra": 1,
                            "ui": {"language": "en"}, "output": {"table_format": "markdown"}}
    assert not any("memory" in w for w in settings.warnings)


def test_file_marked_read_only_is_not_replaced(
    config: Path, store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # os.replace only needs a writable folder, so a read-only file must be checked for first.
    write(config, {"ui": {"language": "en"}})
    before = config.read_bytes()
    real_access = os.access
    monkeypatch.setattr(
        config_file.os, "access",
        lambda path, mode, **kw: False if Path(path) == config and mode == os.W_OK else real_access(path, mode, **kw),
    )
    settings = store.set("ui.language", "zh_CN")
    assert settings.ui.language == "zh_CN" and store.read_only is True
    assert config.read_bytes() == before


def test_other_write_failures_raise_and_change_nothing(
    config: Path, store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config, {"ui": {"language": "en"}})
    _refuse_replace_onto(config, monkeypatch, OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(SettingsError, match="No space left"):
        store.set("ui.language", "zh_CN")
    assert store.read_only is False
    assert store.load().ui.language == "en"
    assert leftovers(config.parent) == []


def test_written_file_keeps_its_mode(config: Path, store: SettingsStore) -> None:
    write(config, {})
    os.chmod(config, 0o640)
    store.set("ui.language", "en")
    assert config.stat().st_mode & 0o777 == 0o640


def test_lock_timeout_is_a_settings_error(config: Path, tmp_path: Path) -> None:
    from filelock import FileLock

    store = SettingsStore(config, {"HOME": str(tmp_path)}, lock_timeout_s=0.2)
    config.parent.mkdir(parents=True)
    holder = FileLock(str(config.parent / "settings.json.lock"))
    # A lock held through another open file is a different holder, even in this process.
    with holder, pytest.raises(SettingsError, match="locked by another process"):
        store.set("ui.language", "en")

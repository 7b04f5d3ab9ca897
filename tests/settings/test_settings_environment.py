"""Environment overrides: reported as such, validated, and never written back to the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from settings import InvalidSetting, SettingsStore, load_settings


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return tmp_path / "config" / "settings.json"


def env(tmp_path: Path, **values: str) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), **values}


def test_env_overrides_file_and_is_reported(config: Path, tmp_path: Path) -> None:
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"model": {"onnx_device": "gpu", "base_dir": "/from/file"}}))
    environ = env(tmp_path, PAPERLENS_MODEL_ONNX_DEVICE="cpu", PAPERLENS_MODEL_DIR=str(tmp_path / "m"))
    settings = SettingsStore(config, environ).load()

    assert settings.model.onnx_device == "cpu"
    assert settings.origin("model.onnx_device") == "env"
    assert settings.model.base_dir == tmp_path / "m"
    assert settings.origin("model.base_dir") == "env"
    assert settings.origin("model.layout") == "default"


def test_env_values_are_never_written_back(config: Path, tmp_path: Path) -> None:
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"model": {"onnx_device": "gpu"}}))
    environ = env(tmp_path, PAPERLENS_MODEL_ONNX_DEVICE="cpu", PAPERLENS_MODEL_DIR=str(tmp_path / "m"))
    store = SettingsStore(config, environ)

    settings = store.set("ui.language", "en")
    settings = store.update(lambda raw: raw.setdefault("output", {}).update(table_format="markdown"))

    assert settings.model.onnx_device == "cpu" and settings.origin("model.onnx_device") == "env"
    written = json.loads(config.read_text())
    assert written == {"model": {"onnx_device": "gpu"}, "ui": {"language": "en"},
                       "output": {"table_format": "markdown"}}
    # Without the variables, the file's own values show through again.
    plain = SettingsStore(config, env(tmp_path)).load()
    assert plain.model.onnx_device == "gpu" and plain.origin("model.onnx_device") == "file"
    assert plain.origin("model.base_dir") == "default"


def test_mutator_sees_the_file_not_the_environment(config: Path, tmp_path: Path) -> None:
    store = SettingsStore(config, env(tmp_path, PAPERLENS_MODEL_ONNX_DEVICE="gpu"))
    seen: list[dict] = []
    store.update(lambda raw: seen.append(json.loads(json.dumps(raw))))
    assert seen == [{}]


def test_saving_the_device_under_an_env_override_changes_the_file_only(config: Path, tmp_path: Path) -> None:
    store = SettingsStore(config, env(tmp_path, PAPERLENS_MODEL_ONNX_DEVICE="auto"))
    settings = store.set("model.onnx_device", "gpu")
    assert settings.model.onnx_device == "auto" and settings.origin("model.onnx_device") == "env"
    assert json.loads(config.read_text()) == {"model": {"onnx_device": "gpu"}}


def test_bad_env_device_raises_naming_key_values_and_variable(config: Path, tmp_path: Path) -> None:
    store = SettingsStore(config, env(tmp_path, PAPERLENS_MODEL_ONNX_DEVICE="cuda"))
    with pytest.raises(InvalidSetting) as caught:
        store.load()
    message = str(caught.value)
    assert "model.onnx_device" in message and '"cuda"' in message
    assert "cpu, gpu, auto" in message and "PAPERLENS_MODEL_ONNX_DEVICE" in message
    assert "\n" not in message
    # An update does not write anything while the environment is wrong.
    with pytest.raises(InvalidSetting):
        store.set("ui.language", "en")
    assert not config.exists()


def test_env_device_is_case_and_space_tolerant(config: Path, tmp_path: Path) -> None:
    settings = load_settings(config, env(tmp_path, PAPERLENS_MODEL_ONNX_DEVICE=" GPU "))
    assert settings.model.onnx_device == "gpu"


def test_empty_env_values_count_as_unset(config: Path, tmp_path: Path) -> None:
    settings = load_settings(config, env(tmp_path, PAPERLENS_MODEL_ONNX_DEVICE="", PAPERLENS_MODEL_DIR=" "))
    assert settings.origin("model.onnx_device") == "default"
    assert settings.origin("model.base_dir") == "default"


def test_relative_env_model_dir_is_relative_to_the_working_directory(
    config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings(config, env(tmp_path, PAPERLENS_MODEL_DIR="models"))
    assert settings.model.base_dir == tmp_path / "models"

"""Defaults, typed values, origins and validation of values read from the settings file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from settings import (
    Device,
    InvalidSetting,
    Language,
    LayoutModel,
    Origin,
    Settings,
    SettingsStore,
    TableFormat,
    UnknownSetting,
)


@pytest.fixture
def environ(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home")}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return tmp_path / "config" / "settings.json"


def write(path: Path, raw: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(raw), encoding="utf-8")


def test_defaults_without_a_file(config: Path, environ: dict[str, str], tmp_path: Path) -> None:
    settings = SettingsStore(config, environ).load()

    assert isinstance(settings, Settings)
    assert settings.model.onnx_device == "auto" and settings.model.onnx_device is Device.AUTO
    assert settings.model.base_dir == tmp_path / "home" / ".cache" / "paperlens" / "models"
    assert isinstance(settings.model.base_dir, Path)
    assert settings.model.index_url is None
    assert settings.model.layout == LayoutModel.DOCLAYNET == "doclaynet"
    assert settings.output.dir is None
    assert settings.output.table_format == TableFormat.HTML == "html"
    assert settings.output.write_json is True
    assert settings.output.keep_furniture is False and settings.output.inline_math is True
    assert settings.ui.language == Language.SYSTEM == "system"
    assert settings.device.calibration is None
    assert settings.warnings == ()
    assert settings.path == config
    for key in ("model.onnx_device", "model.base_dir", "ui.language", "device.calibration"):
        assert settings.origin(key) == Origin.DEFAULT == "default"


def test_enum_values_read_as_plain_strings(config: Path, environ: dict[str, str]) -> None:
    settings = SettingsStore(config, environ).load()
    assert str(settings.model.onnx_device) == "auto"
    assert f"{settings.ui.language}" == "system"
    assert json.dumps(settings.model.layout) == '"doclaynet"'


def test_settings_are_frozen(config: Path, environ: dict[str, str]) -> None:
    settings = SettingsStore(config, environ).load()
    with pytest.raises(AttributeError):
        settings.model.onnx_device = Device.CPU  # type: ignore[misc]


def test_values_from_the_file(config: Path, environ: dict[str, str]) -> None:
    calibration = {"schema": 1, "samples": [1.5, 2.0], "decision": {"device": "gpu"}}
    write(config, {
        "model": {"onnx_device": "gpu", "base_dir": "/srv/models", "index_url": "https://mirror.example/simple",
                  "layout": "cdla"},
        "output": {"dir": "out", "table_format": "markdown", "write_json": False},
        "ui": {"language": "zh_CN"},
        "device": {"calibration": calibration},
    })
    settings = SettingsStore(config, environ).load()

    assert settings.model.onnx_device == "gpu"
    assert settings.model.base_dir == Path("/srv/models")
    assert settings.model.index_url == "https://mirror.example/simple"
    assert settings.model.layout == "cdla"
    # A relative folder in the file is relative to the file's folder, not to the working directory.
    assert settings.output.dir == config.parent / "out"
    assert settings.output.table_format == "markdown"
    assert settings.output.write_json is False
    assert settings.ui.language == "zh_CN"
    assert settings.device.calibration == calibration
    assert settings.origin("model.onnx_device") == "file"
    assert settings.origin("device.calibration") == "file"
    assert settings.warnings == ()


def test_home_in_paths_is_the_injected_home(config: Path, environ: dict[str, str], tmp_path: Path) -> None:
    write(config, {"model": {"base_dir": "~/models"}})
    settings = SettingsStore(config, environ).load()
    assert settings.model.base_dir == tmp_path / "home" / "models"


def test_null_base_dir_means_the_cache_folder(config: Path, tmp_path: Path) -> None:
    write(config, {"model": {"base_dir": None}})
    environ = {"HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    settings = SettingsStore(config, environ, platform="linux").load()
    assert settings.model.base_dir == tmp_path / "cache" / "paperlens" / "models"
    assert settings.origin("model.base_dir") == "file"


def test_calibration_is_a_private_copy(config: Path, environ: dict[str, str]) -> None:
    write(config, {"device": {"calibration": {"ratio": 0.5}}})
    store = SettingsStore(config, environ)
    store.load().device.calibration["ratio"] = 9  # type: ignore[index]
    assert store.load().device.calibration == {"ratio": 0.5}


def test_bad_value_in_file_falls_back_to_default_and_leaves_file(config: Path, environ: dict[str, str]) -> None:
    write(config, {"model": {"onnx_device": "fast", "layout": "cdla"}, "output": {"write_json": "yes"}})
    before = config.read_bytes()
    store = SettingsStore(config, environ)
    settings = store.load()

    assert settings.model.onnx_device == "auto"
    assert settings.origin("model.onnx_device") == "default"
    assert settings.model.layout == "cdla"  # the good keys of the file still count
    assert settings.output.write_json is True
    assert len(settings.warnings) == 2
    device_warning = next(w for w in settings.warnings if "model.onnx_device" in w)
    assert '"fast"' in device_warning and "cpu, gpu, auto" in device_warning
    assert str(config) in device_warning and "default" in device_warning
    assert any("output.write_json" in w and "true, false" in w for w in settings.warnings)
    assert "\n" not in "".join(settings.warnings)
    assert store.warnings == list(settings.warnings)
    assert config.read_bytes() == before


def test_section_that_is_not_an_object_is_reported_once(config: Path, environ: dict[str, str]) -> None:
    write(config, {"model": "gpu", "ui": {"language": "en"}})
    settings = SettingsStore(config, environ).load()
    assert settings.model.onnx_device == "auto"
    assert settings.ui.language == "en"
    assert len(settings.warnings) == 1
    assert "Invalid value for model:" in settings.warnings[0] and "JSON object" in settings.warnings[0]


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("model.onnx_device", "tpu", "cpu, gpu, auto"),
        ("model.layout", "publaynet", "doclaynet, cdla"),
        ("model.index_url", "ftp://example.org", "http://, https:// or file:// URL"),
        ("model.base_dir", "", "folder path"),
        ("model.base_dir", 42, "folder path"),
        ("output.dir", [], "folder path"),
        ("output.table_format", "csv", "html, markdown"),
        ("output.write_json", 1, "true, false"),
        ("ui.language", "fr", "en, zh_CN, system"),
        ("device.calibration", [1, 2], "JSON object"),
    ],
)
def test_invalid_values_name_key_and_allowed_values(
    config: Path, environ: dict[str, str], key: str, value: object, allowed: str
) -> None:
    store = SettingsStore(config, environ)
    with pytest.raises(InvalidSetting) as caught:
        store.set(key, value)
    message = str(caught.value)
    assert message.startswith(f"Invalid value for {key}: ")
    assert allowed in message
    assert "\n" not in message
    assert caught.value.key == key
    assert not config.exists()


def test_enum_values_accept_any_case_and_are_written_canonically(config: Path, environ: dict[str, str]) -> None:
    store = SettingsStore(config, environ)
    assert store.set("ui.language", "ZH_cn").ui.language is Language.ZH_CN
    assert json.loads(config.read_text())["ui"]["language"] == "zh_CN"


def test_unknown_key_is_refused_by_set_and_origin(config: Path, environ: dict[str, str]) -> None:
    store = SettingsStore(config, environ)
    with pytest.raises(UnknownSetting, match="model.onnx_devcie"):
        store.set("model.onnx_devcie", "cpu")
    with pytest.raises(KeyError):
        store.load().origin("nope")


def test_the_reading_switches_are_settings(config: Path, environ: dict[str, str]) -> None:
    store = SettingsStore(config, environ)
    store.set("model.layout", "none")  # paragraphs by geometry only, as the CLI's --layout none
    store.set("output.keep_furniture", True)
    store.set("output.inline_math", False)
    settings = store.set("output.dewarp", False)  # photos read as taken, as --no-dewarp
    assert settings.model.layout is LayoutModel.NONE
    assert settings.output.keep_furniture is True and settings.output.inline_math is False
    assert settings.output.dewarp is False
    with pytest.raises(InvalidSetting):
        store.set("output.keep_furniture", "yes")


def test_pinned_languages_read_as_lang_takes_them(config: Path, environ: dict[str, str]) -> None:
    store = SettingsStore(config, environ)
    assert store.load().model.languages == ()
    assert store.set("model.languages", " rus + eng ").model.languages == ("rus", "eng")
    assert json.loads(config.read_text(encoding="utf-8"))["model"]["languages"] == "rus+eng"
    assert store.set("model.languages", ("chi_sim",)).model.languages == ("chi_sim",)
    assert store.set("model.languages", "").model.languages == ()
    assert json.loads(config.read_text(encoding="utf-8"))["model"]["languages"] is None
    with pytest.raises(InvalidSetting, match="language codes joined by"):
        store.set("model.languages", "rus eng")
    write(config, {"model": {"languages": 7}})  # a bad value in the file: automatic, and said
    settings = SettingsStore(config, environ).load()
    assert settings.model.languages == () and "model.languages" in settings.warnings[0]

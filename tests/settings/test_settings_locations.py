"""Platform locations of the settings file and the model cache, from an injected environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from settings import SettingsStore, config_path, default_model_dir


def test_linux_uses_xdg_folders(tmp_path: Path) -> None:
    environ = {"HOME": "/home/ann", "XDG_CONFIG_HOME": str(tmp_path / "c"), "XDG_CACHE_HOME": str(tmp_path / "k")}
    assert config_path(environ, "linux") == tmp_path / "c" / "paperlens" / "settings.json"
    assert default_model_dir(environ, "linux") == tmp_path / "k" / "paperlens" / "models"


def test_linux_falls_back_to_home_and_ignores_relative_xdg() -> None:
    environ = {"HOME": "/home/ann", "XDG_CONFIG_HOME": "relative/dir", "XDG_CACHE_HOME": ""}
    assert config_path(environ, "linux") == Path("/home/ann/.config/paperlens/settings.json")
    assert default_model_dir(environ, "linux") == Path("/home/ann/.cache/paperlens/models")


def test_macos_folders() -> None:
    environ = {"HOME": "/Users/ann"}
    assert config_path(environ, "darwin") == Path("/Users/ann/Library/Application Support/paperlens/settings.json")
    assert default_model_dir(environ, "darwin") == Path("/Users/ann/Library/Caches/paperlens/models")


def test_windows_folders() -> None:
    environ = {"USERPROFILE": "/u/ann", "APPDATA": "/u/ann/roaming", "LOCALAPPDATA": "/u/ann/local"}
    assert config_path(environ, "win32") == Path("/u/ann/roaming/paperlens/settings.json")
    assert default_model_dir(environ, "win32") == Path("/u/ann/local/paperlens/models")
    bare = {"USERPROFILE": "/u/bob"}
    assert config_path(bare, "win32") == Path("/u/bob/AppData/Roaming/paperlens/settings.json")
    assert default_model_dir(bare, "win32") == Path("/u/bob/AppData/Local/paperlens/models")


def test_paperlens_config_overrides_the_file_path(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "my.json"
    environ = {"HOME": str(tmp_path / "home"), "PAPERLENS_CONFIG": str(target)}
    store = SettingsStore(environ=environ)
    assert store.path == target
    store.set("ui.language", "en")
    assert target.exists()
    assert not (tmp_path / "home").exists()


def test_paperlens_config_with_home_prefix(tmp_path: Path) -> None:
    environ = {"HOME": str(tmp_path), "PAPERLENS_CONFIG": "~/p/settings.json"}
    assert SettingsStore(environ=environ).path == tmp_path / "p" / "settings.json"


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_default_store_path_lies_under_the_injected_home(tmp_path: Path, platform: str) -> None:
    environ = {"HOME": str(tmp_path), "USERPROFILE": str(tmp_path)}
    store = SettingsStore(environ=environ, platform=platform)
    assert store.path.is_relative_to(tmp_path)
    assert store.path.name == "settings.json" and store.path.parent.name == "paperlens"

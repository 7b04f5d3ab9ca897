"""Where the settings file and the model cache live on each platform (pure path arithmetic)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

APP_DIR_NAME = "paperlens"
CONFIG_FILE_NAME = "settings.json"
CONFIG_PATH_ENV = "PAPERLENS_CONFIG"
MODELS_DIR_NAME = "models"


def home_dir(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """The user's home folder as the given environment describes it."""
    if platform == "win32":
        profile = environ.get("USERPROFILE")
        if profile:
            return Path(profile)
        drive, rest = environ.get("HOMEDRIVE"), environ.get("HOMEPATH")
        if drive and rest:
            return Path(drive + rest)
    else:
        home = environ.get("HOME")
        if home:
            return Path(home)
    return Path.home()


def _xdg_dir(environ: Mapping[str, str], name: str, fallback: Path) -> Path:
    # The XDG base-directory spec says relative values are invalid and must be ignored.
    value = environ.get(name, "")
    return Path(value) if value and os.path.isabs(value) else fallback


def user_config_dir(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """The per-user configuration folder for Paperlens (not created here)."""
    home = home_dir(environ, platform)
    if platform == "win32":
        base = Path(environ["APPDATA"]) if environ.get("APPDATA") else home / "AppData" / "Roaming"
    elif platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = _xdg_dir(environ, "XDG_CONFIG_HOME", home / ".config")
    return base / APP_DIR_NAME


def user_cache_dir(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """The per-user cache folder for Paperlens (not created here)."""
    home = home_dir(environ, platform)
    if platform == "win32":
        local = environ.get("LOCALAPPDATA")
        base = Path(local) if local else home / "AppData" / "Local"
    elif platform == "darwin":
        base = home / "Library" / "Caches"
    else:
        base = _xdg_dir(environ, "XDG_CACHE_HOME", home / ".cache")
    return base / APP_DIR_NAME


def user_data_dir(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """The per-user data folder for Paperlens (not created here): what the app keeps that is
    neither a setting nor a cache, e.g. pasted images."""
    home = home_dir(environ, platform)
    if platform == "win32":
        local = environ.get("LOCALAPPDATA")
        base = Path(local) if local else home / "AppData" / "Local"
    elif platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = _xdg_dir(environ, "XDG_DATA_HOME", home / ".local" / "share")
    return base / APP_DIR_NAME


def default_model_dir(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """Where models go when `model.base_dir` is null."""
    return user_cache_dir(environ, platform) / MODELS_DIR_NAME


def config_path(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """The settings file: `PAPERLENS_CONFIG` when set, else the platform default."""
    override = environ.get(CONFIG_PATH_ENV, "").strip()
    if override:
        return expand_path(override, home_dir(environ, platform), Path.cwd())
    return Path(os.path.abspath(user_config_dir(environ, platform) / CONFIG_FILE_NAME))


def expand_path(text: str, home: Path, anchor: Path) -> Path:
    """Expand a leading `~` with the given home and make the path absolute against `anchor`.

    Symlinks are not followed: the path stays the one the user wrote, only made absolute.
    """
    if text == "~" or text.startswith(("~/", "~" + os.sep)):
        path = home / text[2:] if len(text) > 1 else home
    else:
        path = Path(text).expanduser()
    if not path.is_absolute():
        path = anchor / path
    return Path(os.path.normpath(path))

"""Paperlens settings: one typed model of one JSON file, with env overrides and locked atomic writes."""

from settings.errors import InvalidSetting, SettingsError, UnknownSetting
from settings.locations import (config_path, default_model_dir, user_cache_dir, user_config_dir,
                                user_data_dir)
from settings.choices import Device, Language, LayoutModel, TableFormat, TablesAcrossPages
from settings.schema import (
    DeviceSettings,
    ModelSettings,
    Origin,
    OutputSettings,
    Settings,
    UiSettings,
    WatchedFolder,
    WatchSettings,
)
from settings.store import SettingsStore, load_settings

__all__ = [
    "Device",
    "DeviceSettings",
    "InvalidSetting",
    "Language",
    "LayoutModel",
    "ModelSettings",
    "Origin",
    "OutputSettings",
    "Settings",
    "SettingsError",
    "SettingsStore",
    "TableFormat",
    "TablesAcrossPages",
    "UiSettings",
    "UnknownSetting",
    "WatchSettings",
    "WatchedFolder",
    "config_path",
    "default_model_dir",
    "load_settings",
    "user_cache_dir",
    "user_config_dir",
    "user_data_dir",
]

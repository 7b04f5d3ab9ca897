"""The Simplified Chinese catalogue: complete, in step with the code, and compiled into the .qm."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

from gui.i18n import install_translators, remove_translators
from resources import resource_path

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[2]
TS = resource_path("translations/paperlens_zh_CN.ts")
QM = resource_path("translations/paperlens_zh_CN.qm")


def messages(ts: Path) -> dict[tuple[str, str], tuple[str, str | None]]:
    """(context, source) -> (translation, its type attribute)."""
    found = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            translation = message.find("translation")
            found[(name, message.findtext("source"))] = (translation.text or "",
                                                         translation.get("type"))
    return found


def test_every_string_is_translated():
    catalogue = messages(TS)
    assert len(catalogue) > 150
    unfinished = [source for source, (text, kind) in catalogue.items() if kind or not text]
    assert unfinished == []


def test_catalogue_matches_the_strings_in_the_code(tmp_path):
    lupdate = Path(sys.executable).with_name("pyside6-lupdate")
    if not lupdate.exists() and shutil.which("pyside6-lupdate") is None:
        pytest.skip("pyside6-lupdate is not installed")
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(p) for p in (REPO / "gui").glob("*.py"))
    subprocess.run([str(lupdate if lupdate.exists() else "pyside6-lupdate"), *sources,
                    "-ts", str(fresh)], check=True, capture_output=True, timeout=120)
    assert set(messages(fresh)) == set(messages(TS)), "run pyside6-lupdate and translate"


def test_compiled_catalogue_has_every_translation(qapp):
    translator = QTranslator()
    assert translator.load(str(QM))
    for (context, source), (text, _kind) in messages(TS).items():
        assert translator.translate(context, source) == text, source


def test_chinese_interface(qapp, make_window):
    installed = install_translators(qapp, "zh_CN")
    try:
        assert installed, "the zh_CN catalogue did not load"
        window = make_window()
        assert window.commands.open_files.text() == "打开(&O)…"
        assert QCoreApplication.translate("QueueModel", "Waiting") == "等待中"
    finally:
        remove_translators(qapp, installed)
        remove_translators(qapp, install_translators(qapp, "en"))  # back to the default locale
    assert QCoreApplication.translate("QueueModel", "Waiting") == "Waiting"

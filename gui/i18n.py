"""Interface language: installs Paperlens' and Qt's own translations for the chosen language."""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from resources import resource_path

log = logging.getLogger(__name__)

TRANSLATIONS_DIR = "translations"
CATALOG = "paperlens"


def locale_for(language: str) -> QLocale:
    """The locale for a `ui.language` value: system, en or zh_CN."""
    if language == "system":
        return QLocale.system()
    return QLocale(language)


def install_translators(app: QCoreApplication, language: str) -> list[QTranslator]:
    """Load the app's catalogue and Qt's (standard buttons, dialogs) for `language`.

    English is the source language, so it needs no catalogue; a language without one falls
    back to English."""
    locale = locale_for(language)
    QLocale.setDefault(locale)
    installed = []
    for name, folder in ((CATALOG, str(resource_path(TRANSLATIONS_DIR))),
                         ("qtbase", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))):
        translator = QTranslator(app)
        if translator.load(locale, name, "_", folder):
            app.installTranslator(translator)
            installed.append(translator)
        elif name == CATALOG and locale.language() != QLocale.Language.English:
            log.info("no %s translation for %s; using English", name, locale.name())
    return installed


def remove_translators(app: QCoreApplication, translators: list[QTranslator]) -> None:
    for translator in translators:
        app.removeTranslator(translator)

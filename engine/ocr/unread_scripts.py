"""Which model store entries would read the lines a page left unread for want of a recogniser:
its ScriptUnavailable errors name them in their install hint (engine/ocr/script_reading.py),
and a front end offers to fetch them (the GUI's Download and Read Again)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.ocr.scripts import OSD_MODEL_ID, SCRIPT_MODELS
from engine.ocr.stage import SCRIPT_UNAVAILABLE

# The hint's own words: "... or `paperlens-cli models fetch tesseract-cyrillic`."
_FETCH = re.compile(r"models fetch ([A-Za-z0-9_.-]+)")
_SCRIPT_MODEL_IDS = frozenset({m.model_id for m in SCRIPT_MODELS.values()} | {OSD_MODEL_ID})


def models_for_unread_scripts(errors: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """The model ids, in first-named order and each once, that the (kind, message) pairs of
    ScriptUnavailable page errors name; other errors, and ids that are no script model, are
    passed over."""
    found: list[str] = []
    for kind, message in errors:
        if kind != SCRIPT_UNAVAILABLE:
            continue
        for model_id in _FETCH.findall(message):
            model_id = model_id.rstrip(".")
            if model_id in _SCRIPT_MODEL_IDS and model_id not in found:
                found.append(model_id)
    return tuple(found)

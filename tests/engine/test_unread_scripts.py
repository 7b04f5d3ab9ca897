"""The model ids a page's ScriptUnavailable errors name, read back from the page reader's own
messages (what the GUI's Download and Read Again fetches)."""

from __future__ import annotations

from engine.ocr.script_detection import Unreadable, install_hint
from engine.ocr.scripts import OSD_MODEL_ID, SCRIPT_MODELS
from engine.ocr.stage import SCRIPT_UNAVAILABLE
from engine.ocr.unread_scripts import models_for_unread_scripts


def test_every_script_models_install_hint_names_its_model():
    for script, model in SCRIPT_MODELS.items():
        message = Unreadable(script, 3, install_hint(script)).message()
        assert models_for_unread_scripts([(SCRIPT_UNAVAILABLE, message)]) == (model.model_id,)


def test_models_are_named_once_in_order_and_other_errors_are_passed_over():
    arabic = Unreadable("Arabic", 1, install_hint("Arabic")).message()
    thai = Unreadable("Thai", 2, install_hint("Thai")).message()
    unknown = Unreadable("Ogham", 1, install_hint("Ogham")).message()  # no model for it yet
    detection = (f"4 lines in the unknown script not read: install it with `paperlens-cli "
                 f"models fetch {OSD_MODEL_ID}`.")
    errors = [(SCRIPT_UNAVAILABLE, thai), ("ModelUnavailable", "run `paperlens-cli models fetch "
                                           "ppocrv6-det-small`"),
              (SCRIPT_UNAVAILABLE, arabic), (SCRIPT_UNAVAILABLE, thai),
              (SCRIPT_UNAVAILABLE, unknown), (SCRIPT_UNAVAILABLE, detection),
              (SCRIPT_UNAVAILABLE, "models fetch ppocrv6-rec-small")]
    assert models_for_unread_scripts(errors) == ("tesseract-thai", "tesseract-arabic",
                                                 OSD_MODEL_ID)

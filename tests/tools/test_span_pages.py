"""The span pages (tools/mathset/span_pages.py) read a scan up to the inline-math stage through
the engine's own page stages, without replacing any of them."""

from __future__ import annotations

import cv2
import numpy as np


def test_a_scan_is_read_up_to_the_inline_stage(engine, tmp_path):
    from engine.types import TextSource
    from tools.mathset.span_pages import read_to_inline_stage

    page = np.full((200, 700, 3), 255, np.uint8)
    cv2.putText(page, "the value of x is 42", (20, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.4,
                (20, 20, 20), 2, cv2.LINE_AA)
    path = tmp_path / "scan.png"
    cv2.imwrite(str(path), page)
    state = read_to_inline_stage(engine, path)
    assert state.document is None and state.image is not None
    assert state.text_source is TextSource.OCR and state.options.inline_math
    assert "42" in " ".join(block.text for block in state.blocks)

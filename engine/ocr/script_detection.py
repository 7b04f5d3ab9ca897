"""Which script, beyond PP-OCR's, text lines are in, and whether they are upside down:
Tesseract's script detection looks at the lines stacked into one image; when it is unsure, a
line is read with each installed script's data until one reading is trusted. A script no
installed data reads is reported (Unreadable), never read as garbage."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.errors import ModelUnavailable
from engine.ocr.scripts import (OSD_DEBIAN_PACKAGE, OSD_MODEL_ID, PP_OCR_SCRIPTS, RULES,
                                SCRIPT_MODELS, ScriptRules, accepted, normalised, osd_script)
from engine.ocr.tesseract import LineReading, ScriptGuess, TesseractLines

# Lines stacked for script detection are scaled to this height, cut to OSD_MAX_HEIGHTS line
# heights long, with this much white between, and repeated up to OSD_MIN_LINES: on one line of
# Hindi at 48 px the detection answered nothing, on four of them at 64 px "Devanagari" (all
# seven scripts of tools/scripts named right that way; its time grows with the image's area).
OSD_LINE_PX = 64
OSD_MAX_HEIGHTS = 14
OSD_GAP_PX = 16
OSD_MIN_LINES = 4

Asked = dict[tuple[int, ...], ScriptGuess | None]
"""The detection's answers on one page, by the indices of the lines it looked at: the same
lines are not looked at twice (the script probe, then read_again, on a page whose few lines
are all doubted)."""


@dataclass(frozen=True)
class Unreadable:
    """A script found on the page that no installed recogniser reads, and how to get one."""

    script: str
    lines: int
    install: str

    def message(self) -> str:
        noun = "line" if self.lines == 1 else "lines"
        return (f"{self.lines} {noun} in the {self.script} script not read: {self.install}")


def install_hint(script: str) -> str:
    model = SCRIPT_MODELS.get(script)
    if model is None:
        return f"Paperlens has no recogniser for the {script} script yet."
    return (f"install its recogniser with `sudo apt-get install {model.debian_package}` or "
            f"`paperlens-cli models fetch {model.model_id}`.")


def stack_lines(crops: list[np.ndarray]) -> np.ndarray:
    """The crops scaled to one height and stacked with white between them (one RGB image)."""
    import cv2

    scaled = [cv2.resize(c, (max(1, round(c.shape[1] * OSD_LINE_PX / max(c.shape[0], 1))),
                             OSD_LINE_PX),
                         interpolation=cv2.INTER_AREA)[:, :OSD_LINE_PX * OSD_MAX_HEIGHTS]
              for c in crops]
    scaled = [scaled[i % len(scaled)] for i in range(max(len(scaled), OSD_MIN_LINES))]
    width = max(s.shape[1] for s in scaled) + 2 * OSD_GAP_PX
    height = len(scaled) * (OSD_LINE_PX + OSD_GAP_PX) + OSD_GAP_PX
    sheet = np.full((height, width, 3), 255, dtype=np.uint8)
    for i, s in enumerate(scaled):
        y = OSD_GAP_PX + i * (OSD_LINE_PX + OSD_GAP_PX)
        sheet[y:y + OSD_LINE_PX, OSD_GAP_PX:OSD_GAP_PX + s.shape[1]] = s[:, :, :3]
    return sheet


class ScriptDetection:
    """Names the script of lines PP-OCR missed, with Tesseract's detection and data."""

    def __init__(self, tesseract: TesseractLines, rules: ScriptRules = RULES) -> None:
        self.tesseract = tesseract
        self.rules = rules

    def detect(self, crops: list[np.ndarray], indices: list[int],
               unreadable: list[Unreadable], most: bool = False,
               asked: Asked | None = None) -> str | None:
        """The script Tesseract's detection sees in these lines (the doubted ones), stacked
        into one image (the widest first); None when it cannot tell. `most`: most of the
        page's lines are doubted; the detection naming one of PP-OCR's own scripts then
        contradicts PP-OCR, and the trial decides (a degraded Thai page at 150 dpi was called
        Latin, which PP-OCR read as "AşvιknKa aknIng" at 0.48). `asked`: the page's answers
        so far (Asked)."""
        chosen = sorted(indices, key=lambda i: -crops[i].shape[1])[:self.rules.max_osd_lines]
        asked = {} if asked is None else asked
        key = tuple(chosen)
        try:
            if key not in asked:
                asked[key] = self.tesseract.detect_script(
                    stack_lines([crops[i] for i in chosen]), OSD_MODEL_ID)
        except ModelUnavailable:
            unreadable.append(Unreadable(
                "unknown", len(indices),
                "Paperlens cannot tell their script without Tesseract's script detection; "
                f"install it with `sudo apt-get install {OSD_DEBIAN_PACKAGE}` or "
                f"`paperlens-cli models fetch {OSD_MODEL_ID}`."))
            return None
        guess = asked[key]
        named = osd_script(guess.script) if guess is not None else None
        if named in PP_OCR_SCRIPTS and most:
            return self.trial(crops[chosen[0]], None)
        if named is not None and guess.confidence >= self.rules.min_osd_confidence:
            return named
        if named in PP_OCR_SCRIPTS:
            return None
        return self.trial(crops[chosen[0]], named)

    def trial(self, crop: np.ndarray, first: str | None) -> str | None:
        """When the detection is unsure (it answered nothing for three lines of Hindi, Korean
        at 0.13): the widest doubted line read with each installed script's data, the guess
        first; the first reading trusted names the script."""
        order = [first] if first in SCRIPT_MODELS else []
        order += [s for s, m in SCRIPT_MODELS.items() if s not in order and not m.own_letters]
        crop = np.ascontiguousarray(crop[:, :max(1, round(self.rules.trial_heights
                                                          * crop.shape[0]))])
        step = self.tesseract.workers  # as many scripts read at once as Tesseract has workers
        for start in range(0, len(order), step):
            batch = order[start:start + step]
            found = self.tesseract.read_with_each(
                crop, [SCRIPT_MODELS[script].model_id for script in batch])
            for script, line in zip(batch, found):
                model = SCRIPT_MODELS[script]
                if line is not None and accepted(normalised(line.text, model), line.confidence,
                                                 model, self.rules):
                    return script
        return None

    def turned_over(self, crops: list[np.ndarray]) -> bool | None:
        """Whether lines in a script PP-OCR does not read are upside down: Tesseract's
        detection names their script, and its recogniser reads them both ways (the way read
        with more confidence wins; the detection's own orientation answered 180 for upright
        Hindi). None when the detection cannot tell or is not installed."""
        try:
            guess = self.tesseract.detect_script(stack_lines(crops), OSD_MODEL_ID)
        except ModelUnavailable:
            return None
        if guess is None:
            return None
        script = osd_script(guess.script) or ""
        turned = self.turned_in(crops, script) if script in SCRIPT_MODELS else None
        return guess.turned_degrees == 180 if turned is None else turned

    def turned_in(self, crops: list[np.ndarray], script: str) -> bool | None:
        """Whether lines in this script are upside down: its Tesseract data reads them both
        ways, and the way read with more confidence wins. None when the data is missing."""
        both = self.read_both_ways(crops, script)
        return None if both is None else both[1]

    def read_both_ways(self, crops: list[np.ndarray], script: str
                       ) -> tuple[list[LineReading], bool] | None:
        """The lines read upright with this script's Tesseract data, and whether they are
        upside down (turned_in); None when the data is missing. The lines are read turned over
        one by one until the rest, each read at full confidence, could no longer outweigh the
        upright readings (an upright Hindi page: 0.95 upright, 0.31 turned, on its widest line
        of three), so the answer is the one all of them give."""
        model = SCRIPT_MODELS[script]
        try:
            upright = self.tesseract.read(crops, model.model_id)
            as_read = sum(r.confidence for r in upright)
            over = 0.0
            for done, crop in enumerate(crops):
                if over + (len(crops) - done) <= as_read:
                    break
                turned = np.ascontiguousarray(crop[::-1, ::-1])
                over += self.tesseract.read([turned], model.model_id)[0].confidence
        except ModelUnavailable:
            return None
        return upright, over > as_read


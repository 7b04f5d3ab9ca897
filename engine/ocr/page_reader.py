"""Page OCR: detection, orientation, direction and recognition composed into lines (page pixels)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.imaging import crop_quad, quad_bounds, turn_image
from engine.ocr.detection import TextDetector, TextRegion
from engine.ocr.direction import TextDirectionClassifier
from engine.ocr.orientation import (PageOrientationClassifier, looks_sideways, needs_second_opinion,
                                    quarter_turn, upside_down)
from engine.ocr.reading_rules import PAGE_READING, PageReadingRules
from engine.ocr.recognition import Recognized, TextRecognizer
from engine.ocr.script_detection import Asked, Unreadable
from engine.ocr.script_reading import KnownLines, ScriptReader, ScriptReadings
from engine.ocr.spacing import restore_word_spaces
from engine.ocr.word_boxes import line_words
from engine.types import Box, Line


@dataclass(frozen=True)
class OcrOutcome:
    lines: list[Line]
    rotation: int
    """Clockwise degrees (0, 90, 180, 270) the page was turned before reading; the lines' boxes
    refer to the turned page."""
    image: np.ndarray
    """The page as read: the input turned by `rotation`, C-contiguous (the input itself at 0)."""
    unread: tuple[Box, ...] = ()
    """Detected text lines the recogniser read as nothing or below `min_line_score` (boxes on the
    page as read): never dropped without a trace, the page's coverage check counts them."""
    text_mask: np.ndarray | None = None
    """Where the detector saw text on the page as read (its probability map over the threshold,
    bool, at the detector's scale): the coverage check finds text no line holds there."""
    scripts: tuple[str, ...] = ()
    """Scripts beyond PP-OCR's that lines were read in (engine/ocr/script_reading.py)."""
    unreadable: tuple[Unreadable, ...] = ()
    """Scripts found on the page that no installed recogniser reads."""


class PageReader:
    """Runs det -> orientation -> cls -> rec on a page image and returns its text lines."""

    def __init__(self, detector: TextDetector, direction: TextDirectionClassifier | None,
                 recognizer: TextRecognizer,
                 orientation: PageOrientationClassifier | None = None,
                 scripts: ScriptReader | None = None,
                 rules: PageReadingRules = PAGE_READING) -> None:
        self.detector = detector
        self.direction = direction
        self.recognizer = recognizer
        self.orientation = orientation
        self.scripts = scripts
        self.rules = rules

    def read_lines(self, crops: list[np.ndarray], languages: tuple[str, ...] = (),
                   known: KnownLines = KnownLines()) -> ScriptReadings:
        """Line crops read by the PP-OCR recogniser, and those in scripts it cannot read by
        Tesseract (engine/ocr/script_reading.py; every line with the languages the user
        named). `known`: what checking the page's orientation found about these crops (the
        script beyond PP-OCR's they are in, the lines it read)."""
        if self.scripts is None:
            return ScriptReadings(self.recognizer.recognize(crops))
        least = self.rules.min_line_score
        if not languages:
            return self.scripts.read_page(crops, self.recognizer.recognize, least, known)
        return self.scripts.read_again(crops, self.recognizer.recognize(crops), least, languages)

    def quarter_turn(self, image: np.ndarray, regions: list[TextRegion]) -> int:
        """0, or the clockwise turn (90, 270) that sets a page lying on its side upright.

        The page classifier runs only for pages whose text boxes mostly stand on end, so upright
        pages pay nothing for it."""
        if self.orientation is None or not looks_sideways(regions):
            return 0
        return quarter_turn(self.orientation.classify(image, regions))

    def is_upside_down(self, image: np.ndarray, regions: list[TextRegion],
                       crops: list[np.ndarray]) -> bool:
        """Whether most lines are upside down, asking the page classifier only when the line
        classifier's count is in doubt."""
        if self.direction is None or not crops:
            return False
        flipped = self.direction.upright(crops)[1]
        share = sum(flipped) / len(flipped)
        # Below the doubt band the page is upright and so are its lines: on short lines such
        # as "0.39" the line classifier is sure and wrong often enough that a lone flip does
        # more harm, so its per-line flips are not used.
        verdict = None
        if self.orientation is not None and needs_second_opinion(share):
            verdict = self.orientation.classify(image, regions)
        return upside_down(share, verdict)

    def confirm_turn(self, crops: list[np.ndarray]) -> bool:
        """Whether an upside-down verdict of the line classifier holds (see _confirm_turn)."""
        return self._confirm_turn(crops)[0]

    def _confirm_turn(self, crops: list[np.ndarray]) -> tuple[bool, KnownLines]:
        """Whether an upside-down verdict of the line classifier holds, and what was found
        about the lines on the way (the script probe's answer, the lines read; nothing when
        the page is turned). The classifier was trained on Chinese and Latin lines: upright
        Hebrew and Hindi pages looked upside down to it. When the script probe
        (engine/ocr/script_reading.py) finds the lines in such a script, its Tesseract data
        reads the widest lines both ways and decides, and PP-OCR is not asked (the upright
        readings are the page's). Otherwise the verdict holds when PP-OCR reads the widest lines turned over better than
        as they lie (mean score `turn_score_gain` higher, or `turn_score_sure`, and most of them
        not doubted); failing that Tesseract's detection and recogniser decide (when they cannot
        tell, the page is left as it lies)."""
        if self.scripts is None:
            return True, KnownLines()
        widest = sorted(range(len(crops)), key=lambda i: -crops[i].shape[1])
        chosen = widest[:self.rules.turn_sample_lines]
        sample = [crops[i] for i in chosen]
        parts: dict[int, Recognized] = {}
        asked: Asked = {}
        script = self.scripts.probe(crops, self.recognizer.recognize, self.rules.min_line_score,
                                    parts, asked)
        if script is not None:
            both = self.scripts.detection.read_both_ways(sample, script)
            if both is not None:
                upright, turned_in = both
                return turned_in, KnownLines(True, script, parts, dict(zip(chosen, upright)),
                                             asked)
        turned = [np.ascontiguousarray(c[::-1, ::-1]) for c in sample]
        as_read, over = self.recognizer.recognize(sample), self.recognizer.recognize(turned)
        mean_over = sum(r.score for r in over) / len(sample)
        gain = mean_over - sum(r.score for r in as_read) / len(sample)
        if ((gain >= self.rules.turn_score_gain or mean_over >= self.rules.turn_score_sure)
                and not self.scripts.mostly_doubted(turned, over, self.rules.min_line_score)):
            return True, KnownLines()
        turn = bool(self.scripts.detection.turned_over(sample))
        return turn, KnownLines() if turn else KnownLines(True, script, parts, asked=asked)

    def _turn(self, image: np.ndarray, rotation: int
              ) -> tuple[np.ndarray, list[TextRegion], np.ndarray]:
        """The page turned clockwise by `rotation`, and its text detected again there rather
        than turning the boxes: the detector finds upright lines better (turned boxes read
        0.55-0.65 of the upright text on a handwritten letter, detected again 0.97-0.99)."""
        image = turn_image(image, rotation)
        return (image, *self.detector.detect_with_map(image))

    def read(self, image: np.ndarray, languages: tuple[str, ...] = ()) -> OcrOutcome:
        regions, text_mask = self.detector.detect_with_map(image)
        if not regions:
            return OcrOutcome([], 0, np.ascontiguousarray(image), text_mask=text_mask)
        rotation = self.quarter_turn(image, regions)
        if rotation:
            image, regions, text_mask = self._turn(image, rotation)
        crops = [crop_quad(image, r.quad) for r in regions]
        known = KnownLines()
        if self.is_upside_down(image, regions, crops):
            turn, known = self._confirm_turn(crops)
            if turn:
                image, regions, text_mask = self._turn(image, 180)
                rotation = (rotation + 180) % 360
                crops = [crop_quad(image, r.quad) for r in regions]
                known = KnownLines()
        found = self.read_lines(crops, languages, known)
        lines, unread = [], []
        for region, rec, crop in zip(regions, found.readings, crops):
            text = rec.text.strip()
            x0, y0, x1, y1 = quad_bounds(region.quad)
            if not text or rec.score < self.rules.min_line_score:
                unread.append(Box(x0, y0, x1, y1))
                continue
            spaced, steps = restore_word_spaces(rec.text, rec.steps, crop)
            lines.append(Line(text=spaced.strip(), box=Box(x0, y0, x1, y1), score=rec.score,
                              font_size=0.0,
                              words=line_words(spaced, steps, region.quad, crop,
                                               dict(zip(rec.steps, rec.char_scores)))))
        return OcrOutcome(lines, rotation, np.ascontiguousarray(image), tuple(unread), text_mask,
                          scripts=found.scripts, unreadable=found.unreadable)

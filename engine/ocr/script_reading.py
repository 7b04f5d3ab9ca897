"""Lines in scripts the PP-OCR recogniser cannot read, found and read again with Tesseract.

Per page: PP-OCR first reads the first part of the page's widest lines (a probe). When most of
them show it missed their script and Tesseract's detection names a script it reads, every line
is read with that script's data and PP-OCR reads only the lines it rejects (a page in another
script is read by one recogniser, not two). Otherwise PP-OCR reads the page, and the lines
whose reading shows it missed their script (engine/ocr/scripts.py: read as nothing or too
short for the line, or mostly Greek, or with letters only Vietnamese writes) are the only ones
looked at again, so a Chinese, English or Japanese page whose lines all read well costs only
the probe more, and its output is the same. The doubted lines without a hint are stacked into one image
that Tesseract's script detection names; each doubted line is then read with its script's
Tesseract data and the reading replaces PP-OCR's only when confident and in that script. A
script whose data is not installed is reported, never read as garbage."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from engine.errors import ModelUnavailable
from engine.imaging import INK, ink_map
from engine.ocr.recognition import Recognized
from engine.ocr.script_detection import Asked, ScriptDetection, Unreadable, install_hint
from engine.ocr.scripts import (LATIN_LANGUAGES, PP_OCR_SCRIPTS, RULES, SCRIPT_MODELS,
                                ScriptRules, accepted, doubted, doubted_short, hinted_script,
                                normalised, unsure, without_stray_joiners)
from engine.ocr.tesseract import LineReading, TesseractLines
from engine.runtime.steps import timed_step

# Tesseract language codes the PP-OCR recogniser reads itself: pinning only these changes
# nothing.
PP_OCR_LANGUAGES = frozenset({"eng", "chi_sim", "chi_tra", "jpn", "chi_sim_vert", "chi_tra_vert",
                              "jpn_vert"})

LATIN_LANGUAGE_NAMES = frozenset(m.script for m in LATIN_LANGUAGES)

Recognize = Callable[[list[np.ndarray]], list[Recognized]]
"""The PP-OCR recogniser: line crops -> their readings."""


@dataclass(frozen=True)
class ScriptReadings:
    readings: list[Recognized]
    """The PP-OCR readings, with those read again by Tesseract replaced."""
    scripts: tuple[str, ...] = ()
    """Scripts that Tesseract read lines in."""
    unreadable: tuple[Unreadable, ...] = ()


@dataclass(frozen=True)
class KnownLines:
    """What checking a page's orientation learned about its lines (indices into its crops),
    kept so that reading them does not read them again: whether the script probe ran, the
    script it found them in, PP-OCR's readings of their first parts, and Tesseract's readings
    of whole lines in that script, upright."""

    probed: bool = False
    script: str | None = None
    parts: dict[int, Recognized] = field(default_factory=dict)
    lines: dict[int, LineReading] = field(default_factory=dict)
    asked: Asked = field(default_factory=dict)
    """Tesseract's script detection's answers (engine/ocr/script_detection.Asked)."""


def inked_width(crop: np.ndarray) -> int:
    """How many pixel columns the crop's text takes: the columns of its middle band holding ink,
    with the gaps between them narrower than half the crop's height counted in (the room
    inside and between letters, a word space), and the crop's width when it holds no ink. The
    band leaves out the rows above and below that a box reaches into. A word the detector boxed
    with paper around it (a justified row's spread words, a part cut at a gutter) is judged by
    the room its letters take: "in" read at 1.0 in a box 3.7 heights wide was doubted as too
    short for its line, and Tesseract's Cyrillic data read it "іп"."""
    height = crop.shape[0]
    top = round(0.2 * height)
    ink = ink_map(crop[top:max(round(0.8 * height), top + 1)])
    if ink is None:
        return crop.shape[1]
    inked = np.flatnonzero((ink > INK.level).any(axis=0))
    if inked.size == 0:
        return crop.shape[1]
    gaps = np.diff(inked) - 1
    return int(inked.size + gaps[gaps < 0.5 * height].sum())


def unread(reading: Recognized, min_score: float) -> bool:
    """Whether a reading would leave its line unread: nothing, or under the score floor."""
    return not reading.text.strip() or reading.score < min_score


class ScriptReader:
    """Reads again, with Tesseract, the lines of a page that PP-OCR missed the script of."""

    def __init__(self, tesseract: TesseractLines, rules: ScriptRules = RULES) -> None:
        self.tesseract = tesseract
        self.steps = tesseract.steps
        """Times the step `script_reading` (the probe, reading in the page's script, reading
        again; not the page's own PP-OCR reading that read_page hands read_again) on
        Tesseract's clock: the recogniser and Tesseract run inside it are counted under
        `script_reading.rec`, `script_reading.tesseract_lines`, ..."""
        self.rules = rules
        self.detection = ScriptDetection(tesseract, rules)

    def read_page(self, crops: list[np.ndarray], recognize: Recognize, min_score: float,
                  known: KnownLines = KnownLines()) -> ScriptReadings:
        """A page's line crops read with no language named: in the script its probe lines
        show (read_in_script; `known`: what checking the page's orientation found already:
        the script, and the lines read on the way, which are not read again), or by PP-OCR
        (`recognize`) and then read_again."""
        parts: dict[int, Recognized] = dict(known.parts)
        asked = dict(known.asked)
        script = known.script
        if not known.probed:
            script = self.probe(crops, recognize, min_score, parts, asked)
        if script is not None:
            found = self.read_in_script(crops, script, recognize, min_score, parts, known.lines)
            if found is not None:
                return found
        return self.read_again(crops, recognize(crops), min_score, asked=asked)

    def _long_lines(self, crops: list[np.ndarray]) -> list[int]:
        return [i for i, c in enumerate(crops) if c.shape[1] >= self.rules.min_aspect * c.shape[0]]

    def _read_parts(self, crops: list[np.ndarray], indices: list[int], recognize: Recognize,
                    parts: dict[int, Recognized]) -> None:
        """PP-OCR's reading of the first ScriptRules.probe_heights of each line, into `parts`."""
        todo = [i for i in indices if i not in parts]
        if not todo:
            return
        length = self.rules.probe_heights
        read = recognize([np.ascontiguousarray(crops[i][:, :max(1, round(length
                                                                        * crops[i].shape[0]))])
                          for i in todo])
        parts.update(zip(todo, read))

    def _part_in_script(self, crop: np.ndarray, rec: Recognized, min_score: float,
                        script: str | None = None) -> bool:
        """Whether a line's first part, as PP-OCR read it, shows a script PP-OCR misses (or,
        with `script`, that one): doubted, or hinted it."""
        height = crop.shape[0]
        width = min(crop.shape[1], round(self.rules.probe_heights * height))
        hint = hinted_script(rec.text, self.rules) if rec.score >= self.rules.min_trusted_score \
            else None
        if hint is not None:
            return script is None or hint == script
        return doubted(rec.text, rec.score, width, height, min_score, self.rules)

    @timed_step("script_reading")
    def probe(self, crops: list[np.ndarray], recognize: Recognize, min_score: float,
              parts: dict[int, Recognized], asked: Asked | None = None) -> str | None:
        """The script, beyond PP-OCR's, that the page's widest lines are in, or None. PP-OCR
        reads the first part of up to ScriptRules.probe_lines of them (one short batch, kept
        in `parts`), on a page with enough text for it to pay (probe_min_parts); only when
        most are doubted does Tesseract's detection name the script, in the widest
        ScriptRules.probe_osd_lines lines. Lines PP-OCR reads in part (Greek without accents, Vietnamese without most tone
        marks) are left to read_again: a formula image of the dev set, mostly Greek letters,
        would otherwise be read by Tesseract's Greek data, and read differently."""
        rules = self.rules
        heights = sum(c.shape[1] / max(c.shape[0], 1) for c in crops)
        if heights < rules.probe_min_parts * rules.probe_heights:
            return None
        widest = sorted(self._long_lines(crops), key=lambda i: -crops[i].shape[1])
        chosen = widest[:rules.probe_lines]
        if not chosen:
            return None
        self._read_parts(crops, chosen, recognize, parts)
        doubts = [i for i in chosen if doubted(
            parts[i].text, parts[i].score, min(crops[i].shape[1], round(
                rules.probe_heights * crops[i].shape[0])), crops[i].shape[0], min_score, rules)]
        if 2 * len(doubts) <= len(chosen):
            return None
        script = self.detection.detect(crops, widest[:max(len(doubts), rules.probe_osd_lines)],
                                       [], asked=asked)
        return script if script in SCRIPT_MODELS else None

    @timed_step("script_reading")
    def read_in_script(self, crops: list[np.ndarray], script: str, recognize: Recognize,
                       min_score: float, parts: dict[int, Recognized],
                       read: dict[int, LineReading] | None = None) -> ScriptReadings | None:
        """The page's lines whose first part PP-OCR misses (or reads as the script's hint) read
        with the script's Tesseract data only; the others, and those whose Tesseract reading is
        not accepted, read by PP-OCR and then as read_again reads lines, except that the lines
        tried in the script are not read in it again. (Tesseract's Cyrillic data reads an
        English line as Cyrillic look-alikes, "Тһе сіѓу", with confidence: PP-OCR's first
        part keeps such a line PP-OCR's.) None when the script's data is not installed
        (read_again then reports it for the lines that need it). `read`: lines read in the
        script already (KnownLines.lines), not read again."""
        model = SCRIPT_MODELS[script]
        long_lines = self._long_lines(crops)
        self._read_parts(crops, long_lines, recognize, parts)
        direct = [i for i in long_lines
                  if self._part_in_script(crops[i], parts[i], min_score, script)]
        read = read or {}
        todo = [i for i in direct if i not in read]
        try:
            fresh = dict(zip(todo, self.tesseract.read([crops[i] for i in todo], model.model_id)))
        except ModelUnavailable:
            return None
        found = [read[i] if i in read else fresh[i] for i in direct]
        readings: list[Recognized | None] = [None] * len(crops)
        weak: dict[int, Recognized] = {}
        for i, line in zip(direct, found):
            text = normalised(line.text, model)
            if accepted(text, line.confidence, model, self.rules):
                readings[i] = Recognized(text=text, score=line.confidence)
            elif accepted(text, line.confidence, model, self.rules, unread=True):
                weak[i] = Recognized(text=text, score=line.confidence)
        rest = [i for i, rec in enumerate(readings) if rec is None]
        scripts = [script] if len(rest) < len(crops) else []
        unreadable: tuple[Unreadable, ...] = ()
        if rest:
            tried = set(direct)
            again = self.read_again([crops[i] for i in rest], recognize([crops[i] for i in rest]),
                                    min_score, page_script=script,
                                    tried={k for k, i in enumerate(rest) if i in tried})
            for i, rec in zip(rest, again.readings):
                # A line no recogniser read with confidence keeps Tesseract's weaker reading
                # in the page's script rather than none (ScriptRules.min_unread_confidence).
                readings[i] = weak[i] if i in weak and unread(rec, min_score) else rec
            scripts += [s for s in again.scripts if s not in scripts]
            unreadable = again.unreadable
        return ScriptReadings([r for r in readings if r is not None], tuple(scripts), unreadable)

    @timed_step("script_reading")
    def read_again(self, crops: list[np.ndarray], readings: list[Recognized], min_score: float,
                   languages: tuple[str, ...] = (), page_script: str | None = None,
                   tried: set[int] = frozenset(), asked: Asked | None = None) -> ScriptReadings:
        """PP-OCR's readings, with those of lines in a script it missed read again by
        Tesseract. `page_script`: the page's script (read_in_script), which doubted lines are
        read in without asking the detection, except the lines `tried` in it already.
        `asked`: the detection's answers on these crops so far."""
        if languages:
            return self._pinned(crops, readings, languages)
        groups: dict[str, list[int]] = {}
        unknown: list[int] = []
        for i, (crop, rec) in enumerate(zip(crops, readings)):
            height, width = crop.shape[:2]
            trusted = rec.score >= max(min_score, self.rules.min_trusted_score)
            hint = hinted_script(rec.text, self.rules) if trusted else None
            if hint is not None and width >= self.rules.min_aspect * height:
                groups.setdefault(hint, []).append(i)
            elif doubted(rec.text, rec.score, width, height, min_score, self.rules) and doubted(
                    rec.text, rec.score, inked_width(crop), height, min_score, self.rules):
                unknown.append(i)
        for language in [s for s in groups if s in LATIN_LANGUAGE_NAMES]:
            # A line that kept none of the letters only the language writes is read with its
            # data too on a page that has such lines (a degraded Vietnamese page read 0.92
            # without; a Turkish line with "alir" for "alır" had no other); the reading counts
            # only where it has them, so an English line stays as it was.
            taken = {i for indices in groups.values() for i in indices} | set(unknown)
            groups[language] += [i for i, rec in enumerate(readings)
                                 if i not in taken and rec.text.strip()]
        if page_script is not None:
            chosen = [i for i in groups.pop(page_script, []) + unknown if i not in tried]
            if chosen:
                groups[page_script] = chosen
            unknown = []
        unreadable: list[Unreadable] = []
        if unknown:
            most = 2 * len(unknown) > len(self._long_lines(crops))
            script = self.detection.detect(crops, unknown, unreadable, most, asked)
            if script is not None and script not in PP_OCR_SCRIPTS:
                groups.setdefault(script, []).extend(unknown)
        found = [page_script] if page_script is not None else [
            s for s in groups if s not in LATIN_LANGUAGE_NAMES]
        if len(found) == 1:
            # Lines too short to judge alone are judged on a page with lines in one script.
            taken = {i for indices in groups.values() for i in indices} | set(tried)
            groups.setdefault(found[0], [])
            groups[found[0]] += [i for i, (crop, rec) in enumerate(zip(crops, readings))
                                 if i not in taken and doubted_short(
                                     rec.text, rec.score, crop.shape[1], crop.shape[0],
                                     min_score, self.rules)]
        unsure_lines: set[int] = set()
        if page_script is not None:
            # Lines PP-OCR read, not doubted but unsure, on a page found in a script: read in
            # it too, and the reading taken only when Tesseract is surer (look-alike letters).
            taken = {i for indices in groups.values() for i in indices} | set(tried)
            unsure_lines = {i for i, (crop, rec) in enumerate(zip(crops, readings))
                            if i not in taken and rec.text.strip()
                            and unsure(rec.score, crop.shape[1], crop.shape[0], self.rules)}
            if unsure_lines:
                groups.setdefault(page_script, []).extend(sorted(unsure_lines))
        readings = list(readings)
        scripts = []
        for script, indices in sorted((s, i) for s, i in groups.items() if i):
            model = SCRIPT_MODELS.get(script)
            if model is None:
                unreadable.append(Unreadable(script, len(indices), install_hint(script)))
                continue
            try:
                found = self.tesseract.read([crops[i] for i in indices], model.model_id)
            except ModelUnavailable:
                if not model.refines:
                    unreadable.append(Unreadable(script, len(indices), install_hint(script)))
                continue
            for i, line in zip(indices, found):
                text = normalised(line.text, model)
                weak = script == page_script and unread(readings[i], min_score)
                if i in unsure_lines and script == page_script and (
                        line.confidence < max(self.rules.min_unsure_confidence,
                                              readings[i].score)):
                    continue
                if accepted(text, line.confidence, model, self.rules, unread=weak):
                    readings[i] = Recognized(text=text, score=line.confidence)
                    if script not in scripts:
                        scripts.append(script)
        return ScriptReadings(readings, tuple(scripts), tuple(unreadable))

    def mostly_doubted(self, crops: list[np.ndarray], readings: list[Recognized],
                       min_score: float) -> bool:
        """Whether most of these PP-OCR readings are doubted (engine/ocr/scripts.doubted)."""
        doubts = sum(doubted(rec.text, rec.score, crop.shape[1], crop.shape[0], min_score,
                             self.rules) for crop, rec in zip(crops, readings))
        return doubts > len(crops) / 2

    def _pinned(self, crops: list[np.ndarray], readings: list[Recognized],
                languages: tuple[str, ...]) -> ScriptReadings:
        """Languages named by the user: every line read with them, as Tesseract's `-l` does,
        unless they are all PP-OCR's own."""
        if set(languages) <= PP_OCR_LANGUAGES or not crops:
            return ScriptReadings(list(readings))
        try:
            found = self.tesseract.read_languages(crops, languages)
        except FileNotFoundError as missing:
            return ScriptReadings(list(readings), (), (Unreadable(
                f"language(s) {missing}", len(crops),
                "install their Tesseract data, e.g. `sudo apt-get install "
                + " ".join(f"tesseract-ocr-{lang.replace('_', '-')}"
                           for lang in str(missing).split(", ")) + "`."),))
        out = [Recognized(text=without_stray_joiners(line.text), score=line.confidence)
               if line.text else rec
               for rec, line in zip(readings, found)]
        return ScriptReadings(out, ("+".join(languages),), ())

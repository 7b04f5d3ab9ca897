"""Tesseract's LSTM line recogniser and its script detection, through tesserocr (which carries
libtesseract 5.5): text-line crops that Paperlens detected are read one by one in single-line
mode, with one warm Tesseract instance per model and worker (loading one takes 0.1-1 s;
reading a line 0.04-0.1 s); the lines of one call are shared out over the workers."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from engine.errors import ModelUnavailable
from engine.ocr.missed_spaces import Symbol, ink_gaps, with_missed_spaces
from engine.ocr.scripts import LETTERS_APART
from engine.runtime.steps import StepClock, timed_step

# Where Debian and Ubuntu put the language data of their tesseract-ocr-* packages.
SYSTEM_LANGUAGE_DIRS = (Path("/usr/share/tesseract-ocr/5/tessdata"),
                        Path("/usr/share/tesseract-ocr/4.00/tessdata"))

Locate = Callable[[str], Path]
"""Model store id -> the verified local path of its .traineddata file."""


@dataclass(frozen=True)
class LineReading:
    text: str
    confidence: float
    """Tesseract's mean word confidence, 0-1."""
    weakest_word: float = 1.0
    """The confidence of its least sure word, 0-1 (1 without words)."""


@dataclass(frozen=True)
class ScriptGuess:
    script: str
    confidence: float
    """Tesseract's script confidence (unbounded; its own units)."""
    turned_degrees: int = 0
    """How far the text is turned from upright, in degrees (0, 90, 180, 270)."""


def _set_image(api, image: np.ndarray) -> None:
    """Hands an RGB (or grey) array to Tesseract as raw bytes."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    height, width = image.shape[:2]
    depth = 1 if image.ndim == 2 else image.shape[2]
    api.SetImageBytes(image.tobytes(), width, height, depth, width * depth)


# White (the crop's paper) added around a line crop before Tesseract reads it, as a share of
# the line's height: Tesseract finds a line's words better with a margin around them. On the
# detector's tight crops the Cyrillic data read "и в" as "ив" (a Russian page 0.996), with a
# margin a quarter of the line high "и в".
MARGIN_SHARE = 0.25


# A line crop lower than this many pixels that Tesseract reads with less confidence than
# RETRY_CONFIDENCE is read again scaled up to TESSERACT_LINE_PX, and the more confident reading
# kept: a short Hebrew line 38 px high on a degraded two-column page read "ביתרבמהנה." at 0.51,
# scaled "ביותר במדינה." at 0.91. Scaling every small line instead cost lines read well as they
# were ("России и" became "Россиии" on a clean 150 dpi page).
MIN_TESSERACT_LINE_PX = 44
TESSERACT_LINE_PX = 64
RETRY_CONFIDENCE = 0.6


# A reading with a word Tesseract is less sure of than WEAK_WORD_CONFIDENCE is read again from
# the crop scaled to CHECK_LINE_PX high (near the 36 px its line recogniser works at), and the
# reading whose least sure word is surer kept: a clean Hebrew line 49 px high read "מניעים"
# at 0.34 as it was, at 40 px "מגיעים" at 0.91. On the scripts set (two degradations) this read
# 4 characters fewer wrong in 350 and none more than one worse; a line read with every word
# sure is not read again.
WEAK_WORD_CONFIDENCE = 0.7
CHECK_LINE_PX = 40


def scaled_for_tesseract(crop: np.ndarray) -> np.ndarray:
    """The crop, scaled up to TESSERACT_LINE_PX high when it is lower than MIN_TESSERACT_LINE_PX."""
    if crop.shape[0] == 0 or crop.shape[0] >= MIN_TESSERACT_LINE_PX:
        return crop
    return scaled_to(crop, TESSERACT_LINE_PX)


def scaled_to(crop: np.ndarray, height: int) -> np.ndarray:
    """The crop scaled to `height` pixels high, its shape kept."""
    import cv2

    scale = height / max(crop.shape[0], 1)
    return cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), height),
                      interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)


def with_margin(crop: np.ndarray) -> np.ndarray:
    """The crop with a margin of its own paper's shade (its brightest tenth) on every side."""
    pad = max(2, round(MARGIN_SHARE * crop.shape[0]))
    paper = np.percentile(crop.reshape(-1, crop.shape[2] if crop.ndim == 3 else 1), 90, axis=0)
    height, width = crop.shape[:2]
    out = np.empty((height + 2 * pad, width + 2 * pad) + crop.shape[2:], dtype=np.uint8)
    out[...] = np.round(paper).astype(np.uint8).reshape(crop.shape[2:])
    out[pad:pad + height, pad:pad + width] = crop
    return out


class TesseractLines:
    """Reads single text lines with Tesseract's data files, each found through `locate` (the
    model store) or, for languages named by the user, in `language_dirs`."""

    def __init__(self, locate: Locate, language_dirs: tuple[Path, ...] = (),
                 steps: StepClock | None = None, workers: int = 1) -> None:
        self._locate = locate
        self.steps = steps or StepClock()
        """Times the steps `tesseract_lines` (lines read) and `tesseract_osd` (script
        detection) (the model set's clock, which a page's timings read)."""
        self._language_dirs = language_dirs
        self.workers = max(1, workers)
        """Lines read at once, each worker with its own Tesseract instance of the model:
        libtesseract reads a line on one core, and while it reads no model runs, so the
        engine's CPU threads are free (a Hindi page's lines 0.14 s on one, 0.09 s on two)."""
        self._apis: dict[tuple[str, int], object] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._pool_pid = 0
        self._lock = threading.Lock()

    def _workers(self, count: int) -> int:
        return min(self.workers, count)

    def _map(self, read: Callable[[int, list], list], jobs: list) -> list:
        """`read(worker, its jobs)` for the jobs shared out over the workers (the widest
        crops first, each to the worker with the least width so far), the results in the
        jobs' order; one worker reads them all in this thread."""
        workers = self._workers(len(jobs))
        if workers == 1:
            return read(0, jobs)
        shares: list[list[int]] = [[] for _ in range(workers)]
        widths = [0] * workers
        for index in sorted(range(len(jobs)), key=lambda i: -_width(jobs[i])):
            least = widths.index(min(widths))
            shares[least].append(index)
            widths[least] += _width(jobs[index])
        if self._pool is None or self._pool_pid != os.getpid():
            # A process forked from this one has none of its threads: it starts its own pool.
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="tesseract")
            self._pool_pid = os.getpid()
        futures = [self._pool.submit(read, w, [jobs[i] for i in share])
                   for w, share in enumerate(shares)]
        out: list = [None] * len(jobs)
        for share, future in zip(shares, futures):
            for index, result in zip(share, future.result()):
                out[index] = result
        return out

    def _api(self, key: str, folder: Path, languages: str, osd: bool = False, worker: int = 0):
        try:
            import tesserocr
        except ImportError as exc:  # a platform without its wheel: the lines say so
            raise ModelUnavailable("Tesseract's line recogniser (the tesserocr package) is not "
                                   f"installed: {exc}") from exc

        api = self._apis.get((key, worker))
        if api is None:
            if osd:
                api = tesserocr.PyTessBaseAPI(path=f"{folder}/", lang=languages,
                                              psm=tesserocr.PSM.OSD_ONLY,
                                              oem=tesserocr.OEM.TESSERACT_ONLY)
            else:
                api = tesserocr.PyTessBaseAPI(path=f"{folder}/", lang=languages,
                                              psm=tesserocr.PSM.SINGLE_LINE,
                                              oem=tesserocr.OEM.LSTM_ONLY)
            self._apis[(key, worker)] = api
        return api

    @timed_step("tesseract_lines")
    def read(self, crops: list[np.ndarray], model_id: str) -> list[LineReading]:
        """Each crop (RGB, one text line) read with one model of the store."""
        path = self._locate(model_id)
        spaces = model_id in LETTERS_APART
        with self._lock:
            apis = [self._api(model_id, path.parent, path.stem, worker=w)
                    for w in range(self._workers(len(crops)))]
            return self._map(lambda w, mine: [self._read_one(apis[w], crop, spaces)
                                              for crop in mine], crops)

    @timed_step("tesseract_lines")
    def read_with_each(self, crop: np.ndarray, model_ids: list[str]
                       ) -> list[LineReading | None]:
        """One crop read with each of these models (None for a model not installed), the
        models shared out over the workers."""
        spaces = [model_id in LETTERS_APART for model_id in model_ids]
        with self._lock:
            apis: list[object | None] = []
            for model_id in model_ids:
                try:
                    path = self._locate(model_id)
                    apis.append(self._api(model_id, path.parent, path.stem))
                except ModelUnavailable:
                    apis.append(None)
            jobs = [(api, crop, space) for api, space in zip(apis, spaces)]
            return self._map(lambda _w, mine: [None if api is None else
                                               self._read_one(api, image, space)
                                               for api, image, space in mine], jobs)

    @timed_step("tesseract_lines")
    def read_languages(self, crops: list[np.ndarray], languages: tuple[str, ...]
                       ) -> list[LineReading]:
        """Each crop read with Tesseract language data named by the user ("rus", "eng"), as
        Tesseract's `-l rus+eng` reads them."""
        folder = self.language_folder(languages)
        key = "+".join(languages)
        with self._lock:
            apis = [self._api(f"lang:{key}", folder, key, worker=w)
                    for w in range(self._workers(len(crops)))]
            return self._map(lambda w, mine: [self._read_one(apis[w], crop) for crop in mine],
                             crops)

    def language_folder(self, languages: tuple[str, ...]) -> Path:
        """The first folder holding every language's data; FileNotFoundError naming the
        languages none holds."""
        for folder in self._language_dirs:
            if all((folder / f"{lang}.traineddata").is_file() for lang in languages):
                return folder
        missing = [lang for lang in languages
                   if not any((d / f"{lang}.traineddata").is_file() for d in self._language_dirs)]
        raise FileNotFoundError(", ".join(missing or languages))

    def installed_languages(self) -> set[str]:
        return {p.stem for folder in self._language_dirs if folder.is_dir()
                for p in folder.glob("*.traineddata")}

    @staticmethod
    def _read_one(api, crop: np.ndarray, spaces: bool = False) -> LineReading:
        """The crop's reading; a small one read weakly is read again scaled up, one with a
        weak word read again at CHECK_LINE_PX high. `spaces`: spaces missed between words
        put back (engine/ocr/missed_spaces.py)."""
        first = TesseractLines._read_as_is(api, crop, spaces)
        if first.confidence < RETRY_CONFIDENCE and crop.shape[0] < MIN_TESSERACT_LINE_PX:
            second = TesseractLines._read_as_is(api, scaled_for_tesseract(crop), spaces)
            return second if second.confidence > first.confidence else first
        if first.weakest_word >= WEAK_WORD_CONFIDENCE or crop.shape[0] == CHECK_LINE_PX:
            return first
        second = TesseractLines._read_as_is(api, scaled_to(crop, CHECK_LINE_PX), spaces)
        return second if second.weakest_word > first.weakest_word else first

    @staticmethod
    def _read_as_is(api, crop: np.ndarray, spaces: bool = False) -> LineReading:
        import tesserocr

        image = with_margin(crop)
        _set_image(api, image)
        text = api.GetUTF8Text().strip()
        if text and spaces:
            spaced = with_missed_spaces(_symbols(api), ink_gaps(image))
            if spaced is not None and spaced.replace(" ", "") == text.replace(" ", ""):
                text = spaced
        if not text:
            # SINGLE_LINE's own layout analysis found no line in a short Arabic one ("ضفاف
            # نهر النيل."); RAW_LINE, the crop taken as one line as it is, read it at 0.91 (it
            # reads other lines a little worse, so it is the second try).
            api.SetPageSegMode(tesserocr.PSM.RAW_LINE)
            try:
                text = api.GetUTF8Text().strip()
            finally:
                api.SetPageSegMode(tesserocr.PSM.SINGLE_LINE)
        words = api.AllWordConfidences()
        return LineReading(text=text, confidence=max(0.0, api.MeanTextConf()) / 100.0,
                           weakest_word=min(words, default=100) / 100.0)

    @timed_step("tesseract_osd")
    def detect_script(self, image: np.ndarray, model_id: str) -> ScriptGuess | None:
        """Tesseract's script detection on an image of text lines; None when it cannot tell."""
        path = self._locate(model_id)
        with self._lock:
            api = self._api(model_id, path.parent, path.stem, osd=True)
            # The legacy classifier behind the detection adapts to what it saw: cleared, the
            # same lines get the same answer whatever was read before (an upright Hindi page
            # was called upside down after other pages).
            api.ClearAdaptiveClassifier()
            _set_image(api, image)
            found = api.DetectOrientationScript()
        if not found or not found.get("script_name"):
            return None
        return ScriptGuess(found["script_name"], float(found.get("script_conf", 0.0)),
                           int(found.get("orient_deg", 0)))


def _width(job) -> int:
    """A job's crop width: what reading it costs (libtesseract's line model runs along it)."""
    crop = job[1] if isinstance(job, tuple) else job
    return int(crop.shape[1])


def _symbols(api) -> list[list[Symbol]]:
    """The words of the line just read, each its characters with their boxes' left and right
    edges."""
    import tesserocr

    words: list[list[Symbol]] = []
    found = api.GetIterator()
    level = tesserocr.RIL.SYMBOL
    while found is not None:
        box = found.BoundingBox(level)
        if found.IsAtBeginningOf(tesserocr.RIL.WORD) or not words:
            words.append([])
        try:
            text = found.GetUTF8Text(level)
        except RuntimeError:  # a symbol with no text
            text = ""
        if text and box:
            words[-1].append(Symbol(text, box[0], box[2]))
        if not found.Next(level):
            break
    return words

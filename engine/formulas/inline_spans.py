"""Which OCR words of a line are math: a small classifier of our own over each word's pixels
and characters (resources/formula/inline-spans.onnx, trained by tools/mathset/train_spans.py
on generated scanned pages whose formula words are known).

Each word is seen as a small picture, the band of its line under the word scaled to
CROP_HEIGHT x CROP_WIDTH, ink bright, and as a few facts about its characters and those of
its neighbours (`word_features`). The model gives the probability that the word is part of an
inline formula."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import cv2
import numpy as np

from engine.formulas.glyphs import RULES
from engine.imaging import grey_levels
from engine.types import Line, Word

CROP_HEIGHT, CROP_WIDTH = 16, 48
MODEL_FILE = "formula/inline-spans.onnx"
_VOWELS = frozenset("aeiouyAEIOUY")
_TRAILING = ".,;:"


def _core(text: str) -> str:
    return text.rstrip(_TRAILING) or text


def math_char(char: str) -> bool:
    return (unicodedata.category(char) == "Sm" or char in "\u00b7\u00d7\u2202\u221e"
            or (char.isalpha() and "GREEK" in unicodedata.name(char, "")))


def text_facts(text: str) -> list[float]:
    """What a word's characters say, as numbers: its length, letters, digits, signs, whether
    it is a word of English or a lone letter."""
    core = _core(text)
    letters = [c for c in core if c.isalpha()]
    length = max(1, len(core))
    return [
        min(len(core), 12) / 12,
        float(len(core) == 1),
        float(len(core) == 1 and core.isalpha()),
        float(core.isalpha() and core.isascii()),
        sum(c.isdigit() for c in core) / length,
        float(core.isdigit()),
        float(any(math_char(c) for c in core)),
        float(any(c in "()[]{}|" for c in core)),
        float(any(c in "=<>+-\u2212/^_*" for c in core)),
        float(core.lower() in RULES.stopwords),
        sum(c in _VOWELS for c in letters) / max(1, len(letters)),
        float(any(c.isupper() for c in core)),
        float(bool(re.search(r"[A-Za-z][0-9]|[0-9][A-Za-z]", core))),
        float(text != core),
        float(core[:1].isupper() and core[1:].islower() and len(core) > 1),
        float(not core.isascii()),
    ]


FACTS = len(text_facts("x"))


def word_crop(grey: np.ndarray, line: Line, word: Word) -> np.ndarray:
    """The band of the line under the word, ink bright in 0..1, CROP_HEIGHT high, its width
    kept in proportion up to CROP_WIDTH (wider ones squeezed), left-aligned."""
    height, width = grey.shape
    pad = 0.1 * (line.box.y1 - line.box.y0)
    y0, y1 = max(0, int(line.box.y0 - pad)), min(height, int(np.ceil(line.box.y1 + pad)))
    x0, x1 = max(0, int(word.box.x0)), min(width, int(np.ceil(word.box.x1)))
    out = np.zeros((CROP_HEIGHT, CROP_WIDTH), np.float32)
    if y1 - y0 < 2 or x1 - x0 < 1:
        return out
    band = grey[y0:y1, x0:x1].astype(np.float32)
    paper, dark = np.percentile(band, 95), band.min()
    ink = np.clip((paper - band) / max(paper - dark, 40.0), 0.0, 1.0)
    scaled = min(CROP_WIDTH, max(1, round(ink.shape[1] * CROP_HEIGHT / ink.shape[0])))
    out[:, :scaled] = cv2.resize(ink, (scaled, CROP_HEIGHT), interpolation=cv2.INTER_AREA)
    return out


def line_features(grey: np.ndarray, line: Line) -> np.ndarray:
    """[words, CROP_HEIGHT * CROP_WIDTH + 3 * FACTS + 4] for one OCR line: each word's crop,
    its facts and its neighbours', its place in the line's band, its shape and its score."""
    words = list(line.words)
    facts = [text_facts(w.text) for w in words]
    blank = [0.0] * FACTS
    height = max(1.0, line.box.y1 - line.box.y0)
    rows = []
    for i, word in enumerate(words):
        geometry = [(word.box.y0 - line.box.y0) / height, (line.box.y1 - word.box.y1) / height,
                    min(4.0, (word.box.x1 - word.box.x0) / height) / 4,
                    word.score if word.score is not None else line.score]
        rows.append(np.concatenate([
            word_crop(grey, line, word).ravel(), facts[i], facts[i - 1] if i else blank,
            facts[i + 1] if i + 1 < len(words) else blank, geometry]).astype(np.float32))
    return np.stack(rows) if rows else np.zeros((0, CROP_HEIGHT * CROP_WIDTH + 3 * FACTS + 4),
                                                np.float32)


@lru_cache(maxsize=1)
def _session():
    import onnxruntime as ort

    from resources import resource_path

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(resource_path(MODEL_FILE)), sess_options=options,
                                providers=["CPUExecutionProvider"])


def math_probabilities(features: np.ndarray) -> np.ndarray:
    """The classifier's probability that each row's word is math."""
    if len(features) == 0:
        return np.zeros(0, np.float32)
    session = _session()
    return session.run(None, {session.get_inputs()[0].name: features})[0].reshape(-1)


def page_grey(image: np.ndarray) -> np.ndarray:
    return grey_levels(image)

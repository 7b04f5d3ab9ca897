"""Writing systems beyond the PP-OCR recogniser's: which scripts Paperlens reads with Tesseract's
line recogniser, how to tell a text's script, and the signs that a PP-OCR reading missed its
line's script (the rules, as data, that decide which lines are read again).

The PP-OCRv6 small recogniser's dictionary (18,708 characters) has no Cyrillic, Hangul, Arabic,
Hebrew, Devanagari, Thai or Tamil, Greek without accents and 2 of the 46 Vietnamese tone
letters. On such a line its CTC decoder emits blanks where the letters are, so the reading is
short for its line ("." for a line of Russian, at 0.97), or keeps the few letters it knows
(Greek and Vietnamese without their accented letters). Scripts are named by Unicode's character
names (unicodedata), never by hand-made code-point tables."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class ScriptModel:
    """A script Paperlens reads with Tesseract, and the model store entry that holds its data."""

    script: str
    """The script's name as Tesseract's script detection gives it ("Cyrillic")."""
    model_id: str
    """The model store id of its Tesseract data (resources/models.json)."""
    letters: tuple[str, ...]
    """First words of the Unicode names of its letters ("CYRILLIC")."""
    debian_package: str
    right_to_left: bool = False
    normal_form: str | None = None
    """A Unicode normal form its readings are put in: Tesseract's Greek data writes the micro
    sign (U+00B5) for mu, which NFKC makes the Greek letter."""
    letters_apart: bool = False
    """Its letters stand apart and its words are parted by spaces: a gap inside a word read as
    wide as the line's spaces is a space missed (engine/ocr/missed_spaces.py)."""
    refines: bool = False
    """PP-OCR reads the language, all but a few of its letters on degraded scans: without its
    data, its lines keep PP-OCR's reading and the page is not reported (Turkish)."""
    own_letters: tuple[str, ...] = ()
    """For a language in Latin letters that PP-OCR reads in part: parts of the Unicode names of
    the letters only it writes among PP-OCR's languages. A PP-OCR reading holding one hints
    the language; a Tesseract reading with its data counts only when it holds one."""


# Letters only Vietnamese writes among the languages PP-OCR reads: o and u with a horn, a vowel
# with a hook above or a dot below (PP-OCR keeps the few of them in its dictionary), and a
# vowel with a circumflex or breve and a tone mark as well ("ỗ", "ấ", "ề": a line of them
# alone, "Mỗi năm có rất nhiều du khách", was otherwise not taken from Tesseract's data).
VIETNAMESE_MARKS = ("WITH HORN", "HOOK ABOVE", "DOT BELOW", "WITH CIRCUMFLEX AND",
                    "WITH BREVE AND")
# Letters Turkish writes and PP-OCR's other languages do not: dotless i, capital I with a dot,
# g with a breve (not s with a cedilla, which Romanian and Kurdish write too: their lines are
# not Turkish). PP-OCR has them all, but on degraded scans it read the dotless i as i or not
# at all ("alir", "yl" for "alır", "yıl": a page 0.986), where Tesseract's Turkish data, whose
# word list knows where the dot goes, read every line right.
TURKISH_LETTERS = ("DOTLESS I", "I WITH DOT ABOVE", "G WITH BREVE")


SCRIPT_MODELS: dict[str, ScriptModel] = {m.script: m for m in (
    ScriptModel("Cyrillic", "tesseract-cyrillic", ("CYRILLIC",), "tesseract-ocr-script-cyrl",
                letters_apart=True),
    ScriptModel("Greek", "tesseract-greek", ("GREEK",), "tesseract-ocr-script-grek",
                normal_form="NFKC", letters_apart=True),
    ScriptModel("Arabic", "tesseract-arabic", ("ARABIC",), "tesseract-ocr-script-arab",
                right_to_left=True),
    ScriptModel("Hebrew", "tesseract-hebrew", ("HEBREW",), "tesseract-ocr-script-hebr",
                right_to_left=True),
    ScriptModel("Devanagari", "tesseract-devanagari", ("DEVANAGARI",),
                "tesseract-ocr-script-deva"),
    # Thai and Korean are read with the language data (tha, kor): the script data put a space
    # between every letter or syllable of a single line ("ก ร ุ ง", "서 울 은").
    ScriptModel("Thai", "tesseract-thai", ("THAI",), "tesseract-ocr-tha"),
    ScriptModel("Tamil", "tesseract-tamil", ("TAMIL",), "tesseract-ocr-script-taml"),
    ScriptModel("Hangul", "tesseract-hangul", ("HANGUL",), "tesseract-ocr-kor"),
    ScriptModel("Vietnamese", "tesseract-vietnamese", ("LATIN",), "tesseract-ocr-script-viet",
                letters_apart=True, own_letters=VIETNAMESE_MARKS),
    ScriptModel("Turkish", "tesseract-turkish", ("LATIN",), "tesseract-ocr-tur",
                letters_apart=True, refines=True, own_letters=TURKISH_LETTERS),
)}
LETTERS_APART = frozenset(m.model_id for m in SCRIPT_MODELS.values() if m.letters_apart)
"""The model ids of the scripts whose readings get their missed spaces back."""

OSD_MODEL_ID = "tesseract-osd"
OSD_DEBIAN_PACKAGE = "tesseract-ocr-osd"

# Tesseract's script detection names Korean "Hangul" or "Korean"; "Latin", "Han", "Japanese",
# "Katakana" and "Hiragana" are the PP-OCR recogniser's own scripts.
OSD_ALIASES = {"Korean": "Hangul"}
PP_OCR_SCRIPTS = frozenset({"Latin", "Han", "Japanese", "Katakana", "Hiragana", "Common"})


@dataclass(frozen=True)
class ScriptRules:
    """When a PP-OCR reading is doubted and a Tesseract reading replaces it. Figures measured on
    tools/scripts pages (200 dpi, Noto fonts) and the dev set's Chinese and English pages."""

    min_coverage: float = 0.5
    """A reading whose characters would fill less than this share of its line is short for it:
    Latin, Chinese and Japanese dev lines fill 0.7-1.4 (one character of a height's half, a CJK
    character of a whole height); a Russian line read as "." fills under 0.1."""
    min_aspect: float = 3.0
    """Lines shorter than this many heights (a page number, a bullet, a speck) are too short to
    judge and keep their PP-OCR reading, or stay unread."""
    min_short_aspect: float = 1.5
    """A line shorter than min_aspect but at least this many heights long (a line's last word cut
    off by the detector, "карт.") is judged only on a page with lines found in one script
    beyond PP-OCR's, and read in it when doubted: PP-OCR read that word as "." at 0.97."""
    min_trusted_score: float = 0.6
    """A PP-OCR reading under this score is doubted even when it fills its line: a degraded
    Hebrew page read as Latin and katakana garbage at 0.51 and 0.57."""
    min_share_known: float = 0.5
    """A reading at least this share Greek letters is a Greek line read without its accents."""
    min_confidence: float = 0.6
    """Tesseract's mean word confidence (0-1) from which its reading replaces PP-OCR's: a line
    read in its own script scored 0.87-0.96, in another script 0.04-0.72 (Thai data on a Latin
    line, 0.72, is why the script share below also counts)."""
    min_unread_confidence: float = 0.5
    """On a page found in a script (its probe lines read in it), the Tesseract confidence from
    which a reading in that script fills a line PP-OCR reads as nothing or under its score
    floor, which would be dropped (the page reader's own floor,
    PageReadingRules.min_line_score): the short last line of a degraded Persian page,
    "سفر می کنند..", read at 0.50 (the page lost it and read 0.935); the script share below
    still counts."""
    max_unsure_score: float = 0.9
    """On a page found in a script beyond PP-OCR's, a line PP-OCR reads under this score
    (and at least min_short_aspect heights long) is read in the page's script as well: a
    Russian line read as the Latin look-alikes "oro ecaa." at 0.73, a last word "карт." as
    "aT." at 0.67 or "κap." at 0.69. English lines on such pages read 0.97-1.0 (generated
    Russian-and-English scans at 150-300 dpi, clean and degraded)."""
    min_unsure_confidence: float = 0.85
    """The Tesseract confidence from which such a reading replaces PP-OCR's (and it must be
    above PP-OCR's score): the page's script data read those English lines as look-alikes
    at 0.33-0.81 ("Һагроог ѕіпсе 1850." 0.81), the Russian line above at 0.95."""
    min_script_share: float = 0.6
    """Share of a reading's letters in the model's script for it to count."""
    max_osd_lines: int = 6
    """Doubted lines stacked into the one image Tesseract's script detection looks at."""
    min_osd_confidence: float = 0.5
    """Tesseract's script confidence from which its answer is used: on four copies of one line
    it answered 2-32 for the scripts above, 0.67 for Thai at 48 px high (3.3 at 64)."""
    probe_lines: int = 1
    """The widest lines whose first part PP-OCR reads before the page: when most of them are
    doubted (or hinted one script) and Tesseract's detection names a script it reads, only
    the lines whose first part PP-OCR misses are read, by Tesseract in that script (a page in
    another script is not read twice). Each probe line costs an English or Chinese page that
    much more: three of them added 7% to a one-paragraph German page, one 2%."""
    probe_osd_lines: int = 3
    """When the probe lines are doubted, Tesseract's detection looks at this many of the
    page's widest lines: on the widest line of the clean Thai page alone it answered "Latin",
    on three "Thai" (and the page was read with PP-OCR and looked at again, 1 s more)."""
    probe_min_parts: float = 6.0
    """The probe runs only on a page whose lines together are at least this many first parts
    long (39 line heights; the one-paragraph Arabic page of tools/scripts is 46, an English
    line image of the dev set 23): it is one more run of the recogniser, which a busy
    machine makes costly (that line image read 16% slower with it, a page of three lines
    3%), while a page of a few short lines read twice costs little."""
    trial_heights: float = 13.0
    """The trial of each script's data (ScriptDetection.trial) reads the first this many line
    heights of the widest doubted line, not all of it: a line is read once per script tried
    (five on a Hindi page), and Tesseract's time grows with the line's length."""
    probe_heights: float = 6.5
    """How long the first part of a line is, in line heights: 6.5 fill the recogniser's
    narrowest input (320 x 48 px), about 12 Russian letters or 6 Chinese characters, enough to
    tell a Russian line read as "." from an English one."""


RULES = ScriptRules()

LATIN_LANGUAGES = tuple(m for m in SCRIPT_MODELS.values() if m.own_letters)
"""The languages in Latin letters read with their own Tesseract data (Vietnamese, Turkish)."""


def char_script(char: str) -> str:
    """The first word of a character's Unicode name ("CYRILLIC", "LATIN", "CJK"), "" for one
    without a name."""
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0]


def letters(text: str) -> list[str]:
    return [c for c in text if c.isalpha()]


def script_share(text: str, model: ScriptModel) -> float:
    """Share of the text's letters that belong to the model's script (0 without letters)."""
    found = letters(text)
    if not found:
        return 0.0
    return sum(char_script(c) in model.letters for c in found) / len(found)


def text_scripts(text: str) -> set[str]:
    """The scripts of SCRIPT_MODELS whose letters the text holds (a Latin language: its own
    letters)."""
    found = set()
    for char in letters(text):
        first = char_script(char)
        for model in SCRIPT_MODELS.values():
            if model.own_letters and is_own_letter(char, model):
                found.add(model.script)
            elif first in model.letters and not model.own_letters:
                found.add(model.script)
    return found


def is_own_letter(char: str, model: ScriptModel) -> bool:
    """Whether the character is a Latin letter only the model's language writes
    (ScriptModel.own_letters)."""
    name = unicodedata.name(char, "")
    return name.startswith("LATIN") and any(mark in name for mark in model.own_letters)


def advance_heights(text: str) -> float:
    """How many line heights the text would take: a wide (CJK) character one, a space 0.3,
    anything else 0.5."""
    total = 0.0
    for char in text:
        if char.isspace():
            total += 0.3
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            total += 1.0
        else:
            total += 0.5
    return total


def coverage(text: str, width: float, height: float) -> float:
    """Share of a line (width x height pixels) that the text would fill."""
    if width <= 0 or height <= 0:
        return 0.0
    return advance_heights(text.strip()) / (width / height)


def hinted_script(text: str, rules: ScriptRules = RULES) -> str | None:
    """The script a PP-OCR reading shows it missed in part: mostly Greek letters (read without
    accents), or letters only Vietnamese writes (read without most tone marks) or only Turkish
    writes (read with some dotless i dotted)."""
    found = letters(text)
    if not found:
        return None
    greek = sum(char_script(c) == "GREEK" for c in found) / len(found)
    if greek >= rules.min_share_known:
        return "Greek"
    for model in LATIN_LANGUAGES:
        if any(is_own_letter(c, model) for c in found):
            return model.script
    return None


def doubted(text: str, score: float, width: float, height: float, min_score: float,
            rules: ScriptRules = RULES) -> bool:
    """Whether a PP-OCR reading may have missed its line's script: read as nothing, below the
    score floor, or too short for its line; lines too short to judge never are."""
    if height <= 0 or width / height < rules.min_aspect:
        return False
    return _misread(text, score, width, height, min_score, rules)


def doubted_short(text: str, score: float, width: float, height: float, min_score: float,
                  rules: ScriptRules = RULES) -> bool:
    """Whether a line too short for `doubted` to judge (ScriptRules.min_short_aspect to
    min_aspect heights long) reads as a doubted longer line would."""
    if height <= 0 or not rules.min_short_aspect <= width / height < rules.min_aspect:
        return False
    return _misread(text, score, width, height, min_score, rules)


def unsure(score: float, width: float, height: float, rules: ScriptRules = RULES) -> bool:
    """Whether a PP-OCR reading that is not doubted is still unsure enough to be read in the
    page's script when the page has one (ScriptRules.max_unsure_score)."""
    return (height > 0 and width / height >= rules.min_short_aspect
            and score < rules.max_unsure_score)


def _misread(text: str, score: float, width: float, height: float, min_score: float,
             rules: ScriptRules) -> bool:
    text = text.strip()
    return (not text or score < max(min_score, rules.min_trusted_score)
            or coverage(text, width, height) < rules.min_coverage)


def accepted(text: str, confidence: float, model: ScriptModel,
             rules: ScriptRules = RULES, unread: bool = False) -> bool:
    """Whether a Tesseract reading with this script model is trusted over PP-OCR's (`unread`:
    over none, on a page found in the model's script; ScriptRules.min_unread_confidence)."""
    floor = rules.min_unread_confidence if unread else rules.min_confidence
    if confidence < floor or not text.strip():
        return False
    if model.own_letters:
        return (script_share(text, model) >= rules.min_script_share
                and any(is_own_letter(c, model) for c in text))
    return script_share(text, model) >= rules.min_script_share


# Zero-width non-joiner and joiner: they change how the letters on either side join or form a
# conjunct, so one with no letter or mark after it (at a word's end) changes nothing.
JOINERS = "\u200c\u200d"


def without_stray_joiners(text: str) -> str:
    """The text without joiners at words' ends: Tesseract's Tamil data writes a zero-width
    non-joiner (U+200C) after every word-final pulli (ஆகும், then U+200C, then "."), which no
    one typed and a search for the word does not match (a Tamil page read 0.944 with them)."""
    return "".join(char for i, char in enumerate(text)
                   if char not in JOINERS or _joins(text[i + 1:i + 2]))


def _joins(following: str) -> bool:
    """Whether a joiner before this character can join anything: a letter or a mark."""
    return bool(following) and unicodedata.category(following)[0] in "LM"


def normalised(text: str, model: ScriptModel) -> str:
    text = without_stray_joiners(text)
    return unicodedata.normalize(model.normal_form, text) if model.normal_form else text


def osd_script(name: str | None) -> str | None:
    """A script name from Tesseract's script detection, with its aliases resolved."""
    if not name:
        return None
    return OSD_ALIASES.get(name, name)

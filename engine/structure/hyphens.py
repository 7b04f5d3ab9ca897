"""A hyphen at a line's end: a word broken in two, or a compound's own hyphen?

join_lines (engine/structure/paragraphs.py) mends "inter- / national" into "international".
Read alone that also makes "well- / known" into "wellknown" and the Bulgarian "най- /
големи" into "найголеми". The page stage `mend_hyphens` joins each paragraph's lines again
with word lists (wordfreq's small lists, fetched by the model store) to tell the two apart:
in the paragraph's language (the list that knows its words best), a hyphen is kept when both
halves are common words and the word joined without it is not in the list, or far rarer
than they are. Rules:
engine/structure/hyphen_rules.py; why: docs/adr/0033-hyphens-at-line-ends.md."""

from __future__ import annotations

import gzip
import re
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Mapping

from engine.errors import ModelIntegrityError
from engine.structure.hyphen_rules import HYPHENS, HyphenRules
from engine.structure.paragraphs import join_lines
from engine.types import Block

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


class WordListError(ModelIntegrityError):
    """A word list file that is not a wordfreq frequency list (the store checks each file's
    SHA-256 first, so this is a manifest naming the wrong file): a model error a person can
    act on, by `paperlens-cli models verify` and a reinstall."""


def read_word_list(path: Path) -> dict[str, int]:
    """The words of a wordfreq list and how rare each is: a gzipped msgpack list whose first
    item is its header ({"format": "cB", ...}) and each further item one band of words, band
    i holding those met 10^(-i/100) of the time (centibels)."""
    import msgpack

    try:
        with gzip.open(path, "rb") as stream:
            bands = msgpack.unpackb(stream.read(), raw=False)
    except (OSError, EOFError, ValueError, msgpack.ExtraData, msgpack.FormatError,
            msgpack.StackError) as error:
        raise WordListError(f"{path.name} is not a readable word list: {error}") from error
    if not (isinstance(bands, list) and bands and isinstance(bands[0], dict)
            and bands[0].get("format") == "cB"):
        raise WordListError(f"{path.name} is not a wordfreq frequency list (no 'cB' header)")
    rarity: dict[str, int] = {}
    for band, words in enumerate(bands[1:]):
        for word in words if isinstance(words, list) else ():
            if isinstance(word, str):
                rarity.setdefault(word, band)
    return rarity


@dataclass(frozen=True)
class WordLists:
    """Known words per language (ISO 639-1 code -> lower-case word -> its band of rarity in
    centibels, 0 the most frequent)."""

    words: Mapping[str, Mapping[str, int]]

    def language_of(self, text: str, rules: HyphenRules = HYPHENS) -> str | None:
        """The language whose list knows the words of `text` best, each known word counted by
        how common it is there (a list of web text holds foreign words too, only rarer: the
        Ukrainian list knows "the"), when it knows enough of them (`rules.min_known_words`,
        `rules.min_known_share`); None otherwise."""
        tokens = [w.lower() for w in _WORD.findall(text)]
        if not tokens:
            return None

        def weight(lang: str) -> int:
            known = self.words[lang]
            return sum(rules.rarest_band - known[t] for t in tokens if t in known)

        best = max(self.words, key=lambda lang: (weight(lang), lang), default=None)
        if best is None:
            return None
        count = sum(t in self.words[best] for t in tokens)
        if count < max(rules.min_known_words, rules.min_known_share * len(tokens)):
            return None
        return best


def compound_judge(known: Mapping[str, int], rules: HyphenRules = HYPHENS
                   ) -> Callable[[str, str], bool]:
    """Whether "head-" at a line's end before "tail" is a compound's hyphen, by one list: both
    halves are common words, and the two written as one word are not a word, or one far
    rarer than either half ("изза" for "из-за")."""

    def keeps(head: str, tail: str) -> bool:
        head, tail = head.lower(), tail.lower()
        if len(head) < rules.min_part or len(tail) < rules.min_part:
            return False
        if known.get(head, rules.rarest_band) > rules.common_band or \
                known.get(tail, rules.rarest_band) > rules.common_band:
            return False
        joined = known.get(head + tail)
        return joined is None or joined - max(known[head], known[tail]) >= rules.rarer_by

    return keeps


def load_word_lists(store) -> WordLists:
    """The word lists of a model store's manifest (role "words", one language each, named by
    the model's `info.language`), fetched and verified like any model; none when the manifest
    has none (line-end hyphens are then read as words broken in two)."""
    specs = [s for s in store.specs.values() if s.role == "words" and s.file]
    return WordLists({str(s.info["language"]): read_word_list(store.ensure(s.id)) for s in specs})


def word_lists_loader(store) -> Callable[[], WordLists]:
    """`load_word_lists(store)` on the first call only, for whoever joins paragraphs without a
    model set at hand (a document's Markdown assembled from stored pages)."""
    loaded: list[WordLists] = []
    lock = threading.Lock()

    def load() -> WordLists:
        with lock:
            if not loaded:
                loaded.append(load_word_lists(store))
            return loaded[0]

    return load


def paragraph_judge(text: str, lists: WordLists, rules: HyphenRules = HYPHENS
                    ) -> Callable[[str, str], bool] | None:
    """The judge of line-end hyphens for a paragraph reading `text` (its hyphens mended or
    not): its language's list when that language writes hyphenated compounds, else None
    (every such hyphen a word broken in two)."""
    language = lists.language_of(text, rules)
    if language is None or language not in rules.compound_languages:
        return None
    return compound_judge(lists.words[language], rules)


def mend_block(block: Block, lists: WordLists, rules: HyphenRules = HYPHENS) -> Block:
    """The block with its lines joined again, keeping the hyphens the lists say belong to
    the words. Only a block whose text is its lines' plain join is touched (a step that wrote
    its text otherwise is left as it made it)."""
    texts = [line.text for line in block.lines]
    if len(texts) < 2 or block.text != join_lines(texts):
        return block
    judge = paragraph_judge(block.text, lists, rules)
    if judge is None:
        return block
    text = join_lines(texts, judge)
    return block if text == block.text else replace(block, text=text)


def mend_hyphens(page, models, rules: HyphenRules = HYPHENS):
    """Page stage: every paragraph's line-end hyphens judged by the word lists."""
    if not page.blocks or not any(line.text.rstrip().endswith("-")
                                  for block in page.blocks for line in block.lines):
        return page
    lists = models.word_lists()
    return replace(page, blocks=tuple(mend_block(block, lists, rules) for block in page.blocks))

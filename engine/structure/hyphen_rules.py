"""When a hyphen at a line's end belongs to the word (engine/structure/hyphens.py), in one
frozen set (STYLE habit 20). How each was reached: docs/adr/0033-hyphens-at-line-ends.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HyphenRules:
    compound_languages: frozenset[str] = frozenset(
        {"en", "fr", "es", "it", "pt", "pl", "cs", "ru", "uk", "bg", "el"})
    """Languages that write compounds with a hyphen before a lower-case word ("well-known",
    "най-големи", "кто-то"): there a line ending in "head-" before "tail" may be the compound's
    hyphen. German is left out: its hyphenated compounds go on with a capital ("E-Mail",
    "Max-Planck-Institut"), so a lower-case tail after a line's hyphen is a word broken in two;
    Dutch is left out for the same reason (its compounds are written as one word: "prijswinnaars";
    words broken at the line's end kept their hyphen in 1.2% of breaks, against 0.2-0.8% for
    the languages above). Their lists are kept so that a German or Dutch paragraph is told
    from an English one."""
    min_part: int = 2
    """Both halves hold at least this many letters ("из-за", "кто-то")."""
    rarer_by: int = 200
    """...and the two written as one word are unknown, or rarer than the rarer half by at least
    this many centibels (two orders of magnitude: "изза" against "из" and "за"; "anyone" is
    rarer than "any" by 40 and stays one word)."""
    common_band: int = 500
    """Each half is a word met at least 10 times in a million (band at most this): a list of
    web text knows suffixes and stray pieces too ("ness" 540, "ly" 563), which must not make
    "whole- / ness" a compound."""
    rarest_band: int = 600
    """Word lists' bands run from 0 (most frequent) to under this: a known word weighs this
    less its band when a paragraph's language is found."""
    min_known_words: int = 3
    """A paragraph's language is the one whose word list holds most of its words, at least
    this many of them..."""
    min_known_share: float = 0.5
    """...and at least this share of them; otherwise no language is taken and every line's
    hyphen is read as a word broken in two, as before."""


HYPHENS = HyphenRules()

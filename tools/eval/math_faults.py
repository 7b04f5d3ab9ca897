"""Display-math faults on a converted document's pages, for every evaluation run to count.

Three faults a reader sees at once, found from the blocks alone (the typed DocumentResult or the
document JSON the CLI writes, engine/output/document_json.py):
* the same display formula read twice on one page (the LaTeX compared in the engine's token
  canon, engine/formulas/latex_tokens, its ``\\tag{}`` aside: the layout model's region and the
  loose-line grouping both read it, or one copy kept its number and the other did not), or
  one row of a multi-row formula read again as a formula of its own;
* a paragraph, or a formula, that is only an equation number: "(3)", "(2.1)", "(A.1)", "[4]";
* a formula whose LaTeX, or one row of it, begins with an item number or label: "150. s(t) =
  ...", "(a) x = 1", "2) y", an exercise list read as one array whose rows open "150." "151.".
The patterns are `FaultRules`; engine/formulas/display.py is what mends these faults in the
engine, this module only finds what is left of them in a result.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.formulas.latex_tokens import group_end, normalized

DUPLICATE = "duplicate_display"
NUMBER_ALONE = "number_alone"
LABEL_IN_LATEX = "label_in_latex"
KINDS = (DUPLICATE, NUMBER_ALONE, LABEL_IN_LATEX)


@dataclass(frozen=True)
class FaultRules:
    """What counts as each fault. The patterns were written from faults seen on real pages (a
    scanned physics letter's doubled equations and lone "(15)", a calculus textbook's "150."
    read into its formula) and checked on the dev set (40 documents) and the generated math
    and structure sets, where the engine's pages give none."""

    equation_number: str = (r"\(\s*(?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3}){0,2}[a-z]?\s*\)"
                            r"|\[\s*(?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3}){0,2}[a-z]?\s*\]")
    """An equation number as printed beside a display formula: "(3)", "(2.13)", "(A.1)",
    "(15a)", "[4]". A block whose whole text (or a formula whose whole LaTeX, fonts, braces and
    spacing aside) is one of these is a number that lost its formula."""
    number_kinds: frozenset[str] = frozenset({"text", "list_item", "footnote", "reference"})
    """Block kinds whose text is checked for a lone number (headers and footers are left out:
    a running page number may well be "(3)")."""
    item_label: str = (r"\d(?: \d){0,3} [.)]"
                       r"|\( (?:\d(?: \d){0,2}|[A-Za-z]|[ivx](?: [ivx]){1,3}) \)")
    """An item number or label at the start of a formula, matched on its canon tokens joined by
    spaces (digits are single tokens there): "150." is ``1 5 0 .``, "(a)" is ``( a )``,
    "2)" is ``2 )``, "(iii)" is ``( i i i )``."""
    not_after_label: frozenset[str] = frozenset({
        "_", "^", "'", "!", "/", ".", ",", "+", "-", "=", "<", ">", ")", "]", "\\cdot",
        "\\times", "\\leq", "\\geq", "\\neq", "\\in", "\\to", "\\approx", "\\equiv", "\\sim"})
    """Tokens that make what looks like a label part of the formula: "(a)_n" (a Pochhammer
    symbol), "1.5" (a decimal, any digit), "(n)!", "(1) + (2)", "(x) = 0"."""
    transparent: frozenset[str] = frozenset({
        "{", "}", "\\mathrm", "\\text", "\\textrm", "\\textbf", "\\mathbf", "\\mathit",
        "\\boldsymbol", "\\quad", "\\qquad", "\\;", "\\:", "\\,", "~", "\\!"})
    """Tokens looked through when matching a number or a label: how it is set, not what it
    says ("\\mathrm{(15)}" is the number (15))."""
    row_breaks: frozenset[str] = frozenset({"\\\\", "\\cr"})
    """Where one row of a multi-row formula ends; each row is checked for a label."""
    one_argument_environments: frozenset[str] = frozenset({
        "array", "tabular", "alignedat", "subarray"})
    """Environments whose first group is a column layout ("{l}", "{rl}"), not content."""


RULES = FaultRules()
_TAG = re.compile(r"\\tag\*?\s*\{([^{}]*)\}")


@dataclass(frozen=True)
class MathFault:
    kind: str
    """One of KINDS."""
    page: int
    """The page number (1-based, as the result names it)."""
    block: int
    """The block's index among its page's blocks (0-based)."""
    shown: str
    """The block's text or LaTeX as the result holds it."""
    detail: str = ""
    """For a duplicate: which earlier block holds the same reading."""

    def describe(self) -> str:
        extra = f" ({self.detail})" if self.detail else ""
        return f"page {self.page} block {self.block}: {self.kind}{extra}: {self.shown[:80]!r}"


def _get(item: Any, name: str, default: Any = "") -> Any:
    if isinstance(item, Mapping):
        return item.get(name, default)
    return getattr(item, name, default)


def _latex(block: Any) -> str:
    """A block's display LaTeX: the JSON's `latex`, or a Block's formula's."""
    if isinstance(block, Mapping):
        return block.get("latex") or ""
    formula = getattr(block, "formula", None)
    return formula.latex if formula is not None else ""


def _kind(block: Any) -> str:
    kind = _get(block, "kind")
    return getattr(kind, "value", kind)


def display_canon(latex: str) -> str:
    """A display formula's reading as the eval compares it: canon tokens, its tag left out."""
    return " ".join(normalized(_TAG.sub(" ", latex)))


def _tag(latex: str) -> str:
    match = _TAG.search(latex)
    return match.group(1).strip() if match else ""


def _seen(latex: str, rules: FaultRules) -> list[str]:
    return [t for t in normalized(_TAG.sub(" ", latex)) if t not in rules.transparent]


def rows(latex: str, rules: FaultRules = RULES) -> list[list[str]]:
    """The canon tokens of each row of a formula (one row when it has no row breaks), its
    environments' own tokens (begin, end, column layout) left out."""
    tokens = normalized(_TAG.sub(" ", latex))
    found: list[list[str]] = [[]]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token in rules.row_breaks:
            found.append([])
        elif token.startswith("\\begin{"):
            if token[7:].rstrip("}*") in rules.one_argument_environments \
                    and index < len(tokens) and tokens[index] == "{":
                index = group_end(tokens, index)
        elif not token.startswith("\\end{") and token not in rules.transparent:
            found[-1].append(token)
    return [row for row in found if row]


def starts_with_label(latex: str, rules: FaultRules = RULES) -> bool:
    """Whether the LaTeX begins with an item number or label ("1 5 0 ." "( a )" "2 )") that is
    not the start of the formula itself."""
    return _label_first(_seen(latex, rules), rules)


def _label_first(tokens: list[str], rules: FaultRules) -> bool:
    joined = " ".join(tokens)
    match = re.match(rules.item_label, joined)
    if not match or (match.end() < len(joined) and joined[match.end()] != " "):
        return False
    rest = joined[match.end():].split()
    return not rest or (rest[0] not in rules.not_after_label and not rest[0].isdigit())


def is_equation_number(text: str, rules: FaultRules = RULES) -> bool:
    return re.fullmatch(rules.equation_number, text.strip()) is not None


def page_faults(page: Any, rules: FaultRules = RULES) -> list[MathFault]:
    """Every fault on one page (a PageResult or a page of the document JSON)."""
    number = int(_get(page, "page_number", 0))
    faults: list[MathFault] = []
    readings: dict[str, list[tuple[int, str]]] = {}
    single_rows: dict[str, int] = {}  # a one-row formula's row -> its block
    multi_rows: dict[str, int] = {}  # each row of a formula of several -> its block
    for index, block in enumerate(_get(page, "blocks", ()) or ()):
        kind, text, latex = _kind(block), _get(block, "text") or "", _latex(block)
        if kind in rules.number_kinds and is_equation_number(text, rules):
            faults.append(MathFault(NUMBER_ALONE, number, index, text))
        if kind != "formula" or not latex.strip():
            for span in _get(block, "spans", ()) or ():
                span_latex = _get(span, "latex") or ""
                if span_latex and starts_with_label(span_latex, rules):
                    faults.append(MathFault(LABEL_IN_LATEX, number, index, span_latex,
                                            "an inline formula"))
            continue
        if is_equation_number("".join(_seen(latex, rules)), rules):
            faults.append(MathFault(NUMBER_ALONE, number, index, latex, "read as a formula"))
            continue
        its_rows = rows(latex, rules)
        labelled = [i for i, row in enumerate(its_rows, 1) if _label_first(row, rules)]
        if labelled:
            faults.append(MathFault(LABEL_IN_LATEX, number, index, latex, "" if labelled == [1]
                                    else "rows " + ", ".join(map(str, labelled))))
        canon = display_canon(latex)
        if not canon:
            continue
        earlier = readings.setdefault(canon, [])
        tag = _tag(latex)
        # Two copies with different numbers are two numbered equations the page sets alike.
        twin = next((i for i, other in earlier if not (tag and other and tag != other)), None)
        if twin is not None:
            faults.append(MathFault(DUPLICATE, number, index, latex, f"as block {twin}"))
        earlier.append((index, tag))
        if twin is None:
            faults.extend(_row_twins(its_rows, index, number, latex, single_rows, multi_rows))
    return faults


def _row_key(row: list[str]) -> str:
    return " ".join(token for token in row if token != "&")


def _row_twins(its_rows: list[list[str]], index: int, number: int, latex: str,
               single_rows: dict[str, int], multi_rows: dict[str, int]) -> list[MathFault]:
    """A one-row formula that is a row of an earlier formula of several rows, or a formula of
    several rows one of whose rows was already a formula of its own."""
    keys = [_row_key(row) for row in its_rows]
    found = []
    if len(keys) == 1:
        if keys[0] in multi_rows:
            found.append(MathFault(DUPLICATE, number, index, latex,
                                   f"a row of block {multi_rows[keys[0]]}"))
        single_rows.setdefault(keys[0], index)
        return found
    for row, key in enumerate(keys, 1):
        if key in single_rows:
            found.append(MathFault(DUPLICATE, number, index, latex,
                                   f"row {row} as block {single_rows[key]}"))
        multi_rows.setdefault(key, index)
    return found


def math_faults(document: Any, rules: FaultRules = RULES) -> list[MathFault]:
    """Every fault on every page of a DocumentResult or a document JSON (dict)."""
    return [fault for page in _get(document, "pages", ()) or ()
            for fault in page_faults(page, rules)]


def counts(faults: Iterable[MathFault]) -> dict[str, int]:
    found = Counter(f.kind for f in faults)
    return {kind: found.get(kind, 0) for kind in KINDS}


@dataclass
class FaultTally:
    """The faults of one evaluation run: each document checked as it is converted (its faults
    printed and returned for the run's JSON), the run's total at the end."""

    rules: FaultRules = RULES
    documents: int = 0
    pages: int = 0
    found: list[tuple[str, MathFault]] = field(default_factory=list)

    def check(self, name: str, document: Any, echo: bool = True) -> list[dict]:
        faults = math_faults(document, self.rules)
        self.documents += 1
        self.pages += len(_get(document, "pages", ()) or ())
        self.found.extend((name, fault) for fault in faults)
        if echo:
            for fault in faults:
                print(f"math fault: {name} {fault.describe()}", flush=True)
        return [asdict(fault) for fault in faults]

    def summary(self) -> dict:
        return {"documents": self.documents, "pages": self.pages, "faults": len(self.found),
                **counts(fault for _, fault in self.found)}

    def closing_line(self) -> str:
        return summary_line(self.summary())


def summary_of(kept: Iterable[list[dict]], pages_each: int = 1) -> dict:
    """A run's summary from the faults its documents kept (each a list of MathFault as JSON),
    for a run that keeps rows rather than a tally (one resumed from a side file)."""
    kept = list(kept)
    found = Counter(fault["kind"] for faults in kept for fault in faults)
    return {"documents": len(kept), "pages": pages_each * len(kept),
            "faults": sum(found.values()), **{kind: found.get(kind, 0) for kind in KINDS}}


def summary_line(summary: dict) -> str:
    """A run's closing line from its tally's summary: the count, by kind when not 0."""
    head = (f"math faults: {summary['faults']} on {summary['pages']} pages of "
            f"{summary['documents']} documents")
    if not summary["faults"]:
        return head
    return head + " (" + ", ".join(f"{k} {summary[k]}" for k in KINDS if summary[k]) + ")"

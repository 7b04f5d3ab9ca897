"""The markup inside EPUB and XPS containers, weighed before MuPDF lays it out: SVG `<use>`
elements that copy groups holding further copies (ten at each of nine levels draw a billion
shapes from a few kilobytes) and XML entity expansion are refused from the text itself."""

from __future__ import annotations

import zipfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

from engine.errors import UnsupportedInput


@dataclass(frozen=True)
class MarkupRules:
    """How much markup a document may ask MuPDF to draw."""

    max_drawn_elements: int = 1_000_000
    """Elements one member draws once every `<use>` is followed: a rich SVG figure has tens of
    thousands; the reproducer of a `<use>` bomb asks for 10^9."""
    max_scanned_bytes: int = 8 * 1024 * 1024
    """Members larger than this are not weighed here (the identification child's memory and
    time limits bound them, engine/input/probe.py): weighing keeps a list per element, ~0.1 KiB,
    so 8 MiB of the smallest elements costs ~0.2 GiB."""
    suffixes: tuple[str, ...] = (".svg", ".xhtml", ".html", ".htm", ".xht", ".xml", ".fpage",
                                 ".page")


MARKUP_RULES = MarkupRules()
_HREFS = ("href", "{http://www.w3.org/1999/xlink}href")


def check_markup(archive: zipfile.ZipFile, name: str, rules: MarkupRules = MARKUP_RULES) -> None:
    """Refuse the container when one of its markup members draws too many elements."""
    for member in archive.infolist():
        lowered = member.filename.lower()
        if member.is_dir() or not lowered.endswith(rules.suffixes):
            continue
        if member.file_size > rules.max_scanned_bytes:
            continue
        try:
            with archive.open(member) as fh:
                drawn = drawn_elements(fh, rules.max_drawn_elements)
        except ElementTree.ParseError as exc:
            # expat's own guard against entity expansion ("billion laughs"); an undefined
            # entity (&nbsp; in XHTML, whose DTD is never fetched) is no bomb.
            if "amplification" in str(exc).lower():
                raise UnsupportedInput(
                    f"{name} holds {member.filename}, whose XML entities expand without bound "
                    "(the file may be built to exhaust memory); Paperlens does not read it.") \
                    from None
            continue  # malformed markup: MuPDF reports it in its own words, page by page
        except (OSError, zipfile.BadZipFile, RuntimeError):
            continue
        if drawn > rules.max_drawn_elements:
            raise UnsupportedInput(
                f"{name} holds {member.filename}, whose SVG <use> elements copy groups of copies "
                f"into more than {rules.max_drawn_elements:,} shapes (the file may be built to "
                "exhaust memory); Paperlens does not read it.")


def drawn_elements(stream, ceiling: int) -> int:
    """How many elements drawing the document would visit, every `<use>` followed to the
    element it names (a `<use>` that leads back to itself counts as past the ceiling)."""
    children: list[list[int]] = []
    targets: dict[int, str] = {}
    ids: dict[str, int] = {}
    stack: list[int] = []
    for event, element in ElementTree.iterparse(stream, events=("start", "end")):
        if event == "start":
            index = len(children)
            children.append([])
            if stack:
                children[stack[-1]].append(index)
            stack.append(index)
            element_id = element.get("id")
            if element_id:
                ids.setdefault(element_id, index)
            if element.tag.rsplit("}", 1)[-1] == "use":
                href = next((element.get(a) for a in _HREFS if element.get(a)), "")
                if href.startswith("#"):
                    targets[index] = href[1:]
        else:
            stack.pop()
            element.clear()
    weights: dict[int, int] = {}

    def weight(index: int, visiting: set[int]) -> int:
        if index in weights:
            return weights[index]
        if index in visiting:
            return ceiling + 1
        visiting.add(index)
        total = 1
        for child in children[index]:
            total += weight(child, visiting)
            if total > ceiling:
                break
        target = ids.get(targets.get(index, ""))
        if target is not None and total <= ceiling:
            total += weight(target, visiting)
        visiting.discard(index)
        weights[index] = min(total, ceiling + 1)
        return weights[index]

    return weight(0, set()) if children else 0

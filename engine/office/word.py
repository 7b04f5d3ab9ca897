"""Text documents (DOCX, ODT) read by pandoc into its JSON syntax tree, and the tree turned into
parts (ADR 0012): headings with their levels, paragraphs, list items, tables with their
spans, equations as LaTeX (pandoc turns Word's OMML into TeX), footnotes, pictures. Pandoc
runs sandboxed (no file but the input, no network) under a heap and a time limit."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

from engine.errors import CorruptDocument, UnsafeInput
from engine.office.left_out import odt_left_out, word_left_out
from engine.office.model import PICTURE, Cell, OfficeDocument, OfficePage, Part, joined, \
    office_table
from engine.office.outline import with_outline_headings


@dataclass(frozen=True)
class PandocLimits:
    heap_mib: int = 1024
    """pandoc's heap (+RTS -M): a 300-page report's tree takes ~200 MiB."""
    time_s: float = 60.0


PANDOC_LIMITS = PandocLimits()
META_KEYS = ("title", "subtitle", "author", "date", "abstract")
_MARKS = ("Emph", "Strong", "Underline", "Strikeout", "Superscript", "Subscript", "SmallCaps")


def read_text_document(path: Path, kind: str, limits: PandocLimits = PANDOC_LIMITS
                       ) -> OfficeDocument:
    with tempfile.TemporaryDirectory(prefix="paperlens-docx-") as folder:
        outlined = with_outline_headings(path, Path(folder)) if kind == "docx" else None
        tree = _pandoc_tree(outlined or path, kind, limits, path.name)
    reader = _TreeReader()
    # Pandoc takes the Title, Subtitle, Author, Date and Abstract paragraphs out of the text
    # into the document's metadata; they are put back where they stood, at the top.
    meta = tree.get("meta", {})
    for key in META_KEYS:
        for text in _meta_texts(meta.get(key)):
            reader.parts.append(Part("title", text, level=1) if key == "title"
                                else Part("text", text))
    reader.blocks(tree.get("blocks", []), list_level=-1)
    parts = reader.parts + [Part("footnote", f"[{n}] {text}")
                            for n, text in enumerate(reader.notes, start=1)]
    with zipfile.ZipFile(path) as archive:
        members = archive.namelist()
    parts = [replace(p, picture=_member(p.picture, members)) if p.kind == PICTURE else p
             for p in parts]
    # What pandoc drops without a word (a chart, a diagram, an embedded object) is named.
    left_out = word_left_out(path) if kind == "docx" else odt_left_out(path)
    return OfficeDocument(kind, (OfficePage(tuple(parts),
                                            unread=tuple(reader.unread) + left_out),))


def _member(source: str, members: list[str]) -> str:
    """The package member pandoc's picture source names ("media/image1.png" is
    "word/media/image1.png" in a DOCX, "Pictures/..." itself in an ODT)."""
    for candidate in (source, "word/" + source):
        if candidate in members:
            return candidate
    ending = "/" + source.lstrip("/")
    return next((m for m in members if m.endswith(ending)), source)


def _pandoc_tree(path: Path, kind: str, limits: PandocLimits, name: str) -> dict:
    import pypandoc

    command = [pypandoc.get_pandoc_path(), "+RTS", f"-M{limits.heap_mib}m", "-RTS",
               "--sandbox", "-f", kind, "-t", "json", str(path)]
    try:
        done = subprocess.run(command, capture_output=True, timeout=limits.time_s, check=False)
    except subprocess.TimeoutExpired:
        raise UnsafeInput(f"{name} was still being read after {limits.time_s:.0f} s (the "
                          "file may be built never to finish); Paperlens does not read it.") \
            from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = said[-1][:200] if said else f"exit {done.returncode}"
        if "heap" in reason.lower():
            raise UnsafeInput(f"{name} needs more than {limits.heap_mib} MiB to be read (the "
                              "file may be built to exhaust memory); Paperlens does not read it.")
        raise CorruptDocument(f"{name} could not be read as a {kind.upper()} document "
                              f"({reason}); open and save it again in its application.")
    return json.loads(done.stdout)


def _meta_texts(value: dict | None) -> list[str]:
    """A metadata value as paragraphs of text (a list of authors: one each)."""
    if not value:
        return []
    kind, content = value.get("t"), value.get("c")
    if kind == "MetaInlines":
        texts = [joined(_plain(content))]
    elif kind == "MetaString":
        texts = [joined([content])]
    elif kind == "MetaList":
        texts = [t for item in content for t in _meta_texts(item)]
    elif kind == "MetaBlocks":
        texts = [joined(_plain(_inlines_of(block))) for block in content]
    else:
        texts = []
    return [t for t in texts if t]


def _plain(inlines: list) -> list[str]:
    """Inline elements as text, formulas as their LaTeX (captions, table cells, meta)."""
    out: list[str] = []
    for item in inlines:
        kind, content = item.get("t"), item.get("c")
        if kind == "Str":
            out.append(content)
        elif kind in ("Space", "SoftBreak", "LineBreak"):
            out.append(" ")
        elif kind == "Math":
            out.append(content[1])
        elif kind == "Code":
            out.append(content[1])
        elif kind in _MARKS:
            out.extend(_plain(content))
        elif kind in ("Span", "Link", "Cite"):
            out.extend(_plain(content[1] if kind != "Link" else content[1]))
        elif kind == "Quoted":
            mark = '"' if content[0].get("t") == "DoubleQuote" else "'"
            out.extend([mark, *_plain(content[1]), mark])
    return out


class _TreeReader:
    """Walks pandoc's blocks, keeping the parts in reading order and the notes aside."""

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.notes: list[str] = []
        self.unread: list[str] = []
        """What the page shows otherwise than the document does, one line each."""

    def blocks(self, blocks: list, list_level: int) -> None:
        for block in blocks:
            self.block(block, list_level)

    def block(self, block: dict, list_level: int) -> None:
        kind, content = block.get("t"), block.get("c")
        if kind == "Header":
            self.paragraph(content[2], "section_header", level=content[0])
        elif kind in ("Para", "Plain"):
            self.paragraph(content, "list_item" if list_level >= 0 else "text",
                           level=max(list_level, 0))
        elif kind in ("BulletList", "OrderedList"):
            self.list(block, list_level + 1)
        elif kind == "Table":
            self.table(content)
        elif kind in ("BlockQuote",):
            self.blocks(content, list_level)
        elif kind == "Div":
            self.blocks(content[1], list_level)
        elif kind == "Figure":
            self.blocks(content[2], list_level)
            caption = joined([t for b in content[1][1] for t in _plain(b.get("c") or [])])
            if caption:
                self.parts.append(Part("caption", caption))
        elif kind == "LineBlock":
            for line in content:
                self.paragraph(line, "text")
        elif kind == "CodeBlock":
            self.parts.append(Part("code", content[1]))
        elif kind == "DefinitionList":
            for term, definitions in content:
                self.paragraph(term, "text")
                for definition in definitions:
                    self.blocks(definition, list_level)

    def list(self, block: dict, level: int) -> None:
        ordered = block["t"] == "OrderedList"
        items = block["c"][1] if ordered else block["c"]
        start = block["c"][0][0] if ordered else 1
        for number, item in enumerate(items, start=start):
            marker = f"{number}. " if ordered else ""
            first = True
            for child in item:
                if first and child.get("t") in ("Para", "Plain"):
                    self.paragraph(child["c"], "list_item", level=level, marker=marker)
                    first = False
                else:
                    self.block(child, level)

    def paragraph(self, inlines: list, kind: str, level: int = 0, marker: str = "") -> None:
        """One paragraph's text and inline formulas; a display equation, and a picture, are
        parts of their own where they stand."""
        pieces: list[tuple[str, str]] = []
        pictures: list[str] = []
        # An equation with words beside it in its paragraph is inline, whatever its type says
        # (pandoc's ODT reader marks every formula object as display math).
        worded = any(item.get("t") == "Str" for item in inlines)

        def flush() -> None:
            text = joined([t for t, _ in pieces])
            if text:
                spans = _spans(pieces)
                self.parts.append(Part(kind, marker + text if marker else text, level=level,
                                       spans=((marker, ""),) + spans if marker and spans
                                       else spans))
            pieces.clear()

        def walk(items: list) -> None:
            for item in items:
                name, content = item.get("t"), item.get("c")
                if name == "Math" and content[0].get("t") == "DisplayMath" and not worded:
                    flush()
                    self.parts.append(Part("formula", latex=content[1].strip()))
                elif name == "Math":
                    pieces.append((content[1], content[1].strip()))
                elif name == "Note":
                    self.notes.append(joined([t for b in content
                                              for t in _plain(_inlines_of(b))]))
                    pieces.append((f"[{len(self.notes)}]", ""))
                elif name == "Image":
                    pictures.append(content[2][0])
                elif name in _MARKS:
                    walk(content)
                elif name in ("Span", "Link", "Cite"):
                    walk(content[1])
                elif name == "Quoted":
                    mark = '"' if content[0].get("t") == "DoubleQuote" else "'"
                    pieces.append((mark, ""))
                    walk(content[1])
                    pieces.append((mark, ""))
                else:
                    pieces.append(("".join(_plain([item])), ""))

        walk(inlines)
        flush()
        self.parts.extend(Part(PICTURE, picture=src) for src in pictures)

    def table(self, content: list) -> None:
        _attr, caption, _colspecs, head, bodies, foot = content
        rows: list[list[Cell]] = []
        header_rows = 0
        for row in head[1]:
            rows.append(_cells(row))
            header_rows += 1
        for body in bodies:
            for row in body[2] + body[3]:
                rows.append(_cells(row))
        for row in foot[1]:
            rows.append(_cells(row))
        text = joined([t for b in caption[1] for t in _plain(_inlines_of(b))])
        if text:
            self.parts.append(Part("caption", text))
        if rows:
            self.parts.append(Part("table", table=office_table(rows, header_rows)))
        # A cell's picture (a logo, a photo in a form) is read after the table: a table cell
        # holds text here, so the picture is not where the document has it.
        pictures = _images([head, bodies, foot])
        self.parts.extend(Part(PICTURE, picture=src) for src in pictures)
        if pictures:
            self.unread.append(f"{len(pictures)} picture{'s' if len(pictures) > 1 else ''} "
                               "inside a table's cells set after the table, not in the cell")


def _images(tree) -> list[str]:
    """The sources of every picture (pandoc's `Image`) anywhere inside `tree`, in order."""
    if isinstance(tree, dict):
        if tree.get("t") == "Image":
            return [tree["c"][2][0]]
        return _images(tree.get("c"))
    if isinstance(tree, list):
        return [src for item in tree for src in _images(item)]
    return []


def _cells(row: list) -> list[Cell]:
    return [Cell(joined([t for b in cell[4] for t in _cell_text(b)]), rowspan=cell[2],
                 colspan=cell[3]) for cell in row[1]]


def _cell_text(block: dict) -> list[str]:
    if block.get("t") in ("BulletList", "OrderedList"):
        items = block["c"][1] if block["t"] == "OrderedList" else block["c"]
        return [t for item in items for b in item for t in _cell_text(b) + [" "]]
    return _plain(_inlines_of(block)) + [" "]


def _inlines_of(block: dict) -> list:
    kind, content = block.get("t"), block.get("c")
    if kind in ("Para", "Plain"):
        return content
    if kind == "Header":
        return content[2]
    return []


def _spans(pieces: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The pieces as spans when one is a formula (neighbouring text pieces joined)."""
    if not any(latex for _, latex in pieces):
        return ()
    spans: list[tuple[str, str]] = []
    for text, latex in pieces:
        if not latex and spans and not spans[-1][1]:
            spans[-1] = (spans[-1][0] + text, "")
        else:
            spans.append((text, latex))
    # Text as the block's text has it: white space one space, none at either end.
    squashed = [(re.sub(r"\s+", " ", t) if not latex else t, latex) for t, latex in spans]
    if not squashed[0][1]:
        squashed[0] = (squashed[0][0].lstrip(), "")
    if not squashed[-1][1]:
        squashed[-1] = (squashed[-1][0].rstrip(), "")
    return tuple(span for span in squashed if span[0] or span[1])

"""Word document from our Markdown through pandoc (shipped as a wheel by pypandoc-binary):
headings, paragraphs and lists as Word styles, tables as Word tables with their merged cells,
display formulas as native Word equations (OMML), figures with their captions. pandoc reads
the Markdown into its document tree, where each table's HTML is replaced by a table built from
its typed cells (engine/export/pandoc_tables.py): no table is read back from HTML. A paragraph
written mostly right to left (Arabic, Hebrew, Persian) is a right-to-left Word paragraph: it
is put in a Div with `dir="rtl"`, which pandoc writes as `w:bidi` on the paragraph and `w:rtl`
on its runs. A table keeps its columns left to right as the page shows them."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from engine.content.table_html import table_html
from engine.content.tables import TableTooLarge, filled_rows
from engine.export.pandoc_tables import pandoc_table
from engine.formats import ExportFailed
from engine.output.markdown import escape_text, render_block
from engine.text import holds_right_to_left, right_to_left
from engine.types import Block, BlockKind, DocumentResult

# CommonMark (what our Markdown is escaped for), with display math, pipe tables (the markdown
# table format), an image alone in a paragraph as a figure with its caption, and no space
# added where a line break falls between two CJK characters. Nothing else: pandoc's own
# extensions (smart quotes, emoji, sub/superscript, attributes, definition lists) would read
# document text as markup.
READER = "commonmark+tex_math_dollars+pipe_tables+implicit_figures+east_asian_line_breaks"
# Inline math is our Markdown's own `$...$` (the document's dollar signs are escaped), written
# as Word equations in the line.
# Word cannot hold a table wider than this many columns.
WORD_MAX_COLUMNS = 63
PANDOC_TIMEOUT_S = 300
# Same document, same bytes: pandoc stamps the zip members and document dates with this.
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01
_PLACEHOLDER_ALT = re.compile(r"!\[(?:figure|formula|table)\]\(")
# Characters that are markup inside an image description; escaped, the caption stays text.
_MARKUP_IN_ALT = re.compile(r"[\\`*_\[\]<>&!$]")
# pandoc's blocks that hold one paragraph's text; each is given its own direction.
_PARAGRAPHS = ("Para", "Plain", "Header")


def pandoc_path() -> str:
    try:
        import pypandoc
        return pypandoc.get_pandoc_path()
    except (ImportError, OSError) as exc:
        raise ExportFailed("The Word export needs pandoc, which comes with the pypandoc-binary "
                           f"package; reinstall Paperlens ({exc}).") from None


def build_docx(result: DocumentResult, resources: Path | None,
               table_format: str = "html") -> tuple[bytes, tuple[str, ...]]:
    """The .docx bytes and notes (formulas kept as LaTeX text, tables too wide for Word).
    `resources` is the folder the Markdown's image links are relative to."""
    name = Path(result.path).name
    markdown, notes, tables = _docx_source(result, table_format)
    if not markdown.strip():
        raise ExportFailed(f"{name} has no text, table or figure to put in a Word document, so "
                           "no .docx was written.")
    with tempfile.TemporaryDirectory(prefix="paperlens-docx-") as work:
        log_path = Path(work) / "log.json"
        tree = json.loads(_pandoc(["--from", READER, "--to", "json"], markdown.encode("utf-8"),
                                  work, name))
        tree["blocks"] = _with_tables(tree["blocks"], tables, name)
        if holds_right_to_left(markdown):
            tree["blocks"] = _directed(tree["blocks"])
        source = json.dumps(tree).encode("utf-8")
        command = ["--from", "json", "--to", "docx", "--log", str(log_path)]
        if resources is not None:
            command += ["--resource-path", str(resources)]
        data = _pandoc(command, source, work, name)
        notes += _formula_notes(log_path, name)
    return data, tuple(notes)


def _pandoc(arguments: list[str], source: bytes, work: str, name: str) -> bytes:
    """pandoc's output for `source` (run in `work`), or ExportFailed saying why not."""
    command = [pandoc_path(), *arguments, "--output", "-"]
    try:
        done = subprocess.run(command, input=source, capture_output=True,
                              timeout=PANDOC_TIMEOUT_S, cwd=work,
                              env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})
    except subprocess.TimeoutExpired:
        raise ExportFailed(f"pandoc took more than {PANDOC_TIMEOUT_S} s to write the Word "
                           f"document of {name}; no .docx was written.") from None
    except OSError as exc:
        raise ExportFailed(f"pandoc could not be started for the Word export "
                           f"({exc}).") from None
    if done.returncode != 0 or not done.stdout:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ExportFailed(f"pandoc could not write the Word document of {name}: "
                           f"{reason[-1][:200] if reason else done.returncode}.")
    return done.stdout


def _with_tables(node, tables: dict[str, dict], name: str):
    """pandoc's JSON blocks with each of our tables' HTML (a raw HTML block) replaced by the
    pandoc table built from its cells (`tables`, by the HTML written for it)."""
    if isinstance(node, list):
        return [_with_tables(item, tables, name) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("t") == "RawBlock" and str(node["c"][0]).startswith("html"):
        text = str(node["c"][1]).strip()
        if text.startswith("<table"):
            if text not in tables:
                raise ExportFailed(f"a table of {name} could not be matched to its cells; no "
                                   ".docx was written (please report this document).")
            return tables[text]
        return node
    return {key: _with_tables(value, tables, name) for key, value in node.items()}


def _directed(node):
    """pandoc's JSON blocks with every paragraph, heading and table cell paragraph whose
    letters run mostly right to left put in a Div with `dir="rtl"`."""
    if isinstance(node, list):
        return [_directed(item) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("t") in _PARAGRAPHS:
        if right_to_left([_words(node)]):
            return {"t": "Div", "c": [["", [], [["dir", "rtl"]]], [node]]}
        return node
    return {key: _directed(value) for key, value in node.items()}


def _words(node) -> str:
    """The text of a pandoc JSON node: its Str elements, spaced."""
    if isinstance(node, list):
        return " ".join(_words(item) for item in node)
    if isinstance(node, dict):
        if node.get("t") == "Str":
            return str(node.get("c", ""))
        return _words(node.get("c", []))
    return ""


def _formula_notes(log_path: Path, name: str) -> list[str]:
    try:
        messages = json.loads(log_path.read_text(encoding="utf-8") or "[]")
    except (OSError, ValueError):
        return []
    notes = []
    for message in messages:
        if message.get("type") == "CouldNotConvertTeXMath":
            latex = " ".join(str(message.get("contents", "")).split())
            notes.append(f"a formula of {name} could not be made a Word equation and is kept "
                         f"as LaTeX text: {latex[:80]}")
    return notes


def docx_markdown(result: DocumentResult, table_format: str = "html") -> tuple[str, list[str]]:
    """Our Markdown readied for pandoc: a figure and its caption become one figure with that
    caption, a table's caption moves into the table, placeholder image names are dropped (they
    would become captions), tables too wide for Word become text."""
    markdown, notes, _ = _docx_source(result, table_format)
    return markdown, notes


def _docx_source(result: DocumentResult, table_format: str
                 ) -> tuple[str, list[str], dict[str, dict]]:
    """docx_markdown's Markdown and notes, and the pandoc table of each table written in it as
    HTML, by that HTML (a caption moved into the table included)."""
    markdown = result.markdown
    notes: list[str] = []
    tables: dict[str, dict] = {}
    for page in result.pages:
        blocks = page.blocks
        for i, block in enumerate(blocks):
            if block.kind not in (BlockKind.FIGURE, BlockKind.TABLE) or block.is_continuation:
                continue
            rendered = render_block(block, table_format).strip()
            if not rendered or rendered not in markdown:
                continue
            in_html = (block.kind is BlockKind.TABLE and block.table is not None
                       and rendered == table_html(block.table).strip())
            if in_html:
                wide = _too_wide(block)
                if wide:
                    notes.append(f"table on page {page.page_number} of {Path(result.path).name} "
                                 f"{wide}; it is written as text in the .docx")
                    markdown = markdown.replace(rendered, _table_as_text(block), 1)
                    continue
                tables[rendered] = pandoc_table(block.table)
            caption = _caption_beside(blocks, i)
            if caption is None:
                continue
            caption_md = render_block(caption).strip()
            for pair in (f"{rendered}\n\n{caption_md}", f"{caption_md}\n\n{rendered}"):
                if pair in markdown:
                    captioned = _captioned(block, rendered, caption)
                    if in_html:
                        tables[captioned] = pandoc_table(block.table, caption.text)
                    markdown = markdown.replace(pair, captioned, 1)
                    break
    return _PLACEHOLDER_ALT.sub("![](", markdown), notes, tables


def _caption_beside(blocks: tuple[Block, ...], index: int) -> Block | None:
    for j in (index + 1, index - 1):
        if 0 <= j < len(blocks) and blocks[j].kind is BlockKind.CAPTION and blocks[j].text.strip():
            return blocks[j]
    return None


def _captioned(block: Block, rendered: str, caption: Block) -> str:
    text = " ".join(caption.text.split())
    if block.kind is BlockKind.FIGURE:
        # The figure's link keeps its target; the caption is the image's description.
        alt = _MARKUP_IN_ALT.sub(r"\\\g<0>", text)
        return "![" + alt + "]" + rendered[len("![figure]"):]
    if rendered.startswith("<table"):
        opening = rendered.index(">") + 1
        return rendered[:opening] + f"<caption>{html.escape(text)}</caption>" + rendered[opening:]
    return f"{render_block(caption).strip()}\n\n{rendered}"


def _too_wide(block: Block) -> str:
    try:
        grid = filled_rows(block.table)
    except TableTooLarge as exc:
        return f"is too large ({exc})"
    if grid.cols > WORD_MAX_COLUMNS:
        return f"has {grid.cols} columns, more than the {WORD_MAX_COLUMNS} a Word table holds"
    return ""


def _table_as_text(block: Block) -> str:
    """A table Word cannot hold, as one paragraph per row with its cells between bars."""
    rows: dict[int, list[str]] = {}
    try:
        cells = filled_rows(block.table).cells
    except TableTooLarge:
        cells = ()
    for cell in cells:
        rows.setdefault(cell.row, []).append(cell.text.replace("\n", " "))
    return "\n\n".join(escape_text(" | ".join(texts)) for _, texts in sorted(rows.items()))

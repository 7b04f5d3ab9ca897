"""One click from a converted formula or table to the clipboard: a formula's LaTeX, a table as
HTML or Markdown (the "Tables as" setting), taken from the document's result.

Which block: the one highlighted by a click on its box or its text, when it is of that kind;
else the document's only one of that kind (a pasted screenshot of one formula or one table)."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QMimeData, QObject
from PySide6.QtGui import QGuiApplication

from gui.page_view import kind_of
from gui.queue_model import Job

log = logging.getLogger(__name__)

FORMULA, TABLE = "formula", "table"


def _has_content(block: Any, kind: str) -> bool:
    return bool(_latex(block) if kind == FORMULA else block.table is not None)


def _latex(block: Any) -> str:
    return block.formula.latex.strip() if block.formula is not None else ""


def copy_target(job: Job | None, chosen: tuple[int, int] | None, kind: str) -> Any | None:
    """The block of `kind` ("formula" or "table") a copy command takes, or None."""
    if job is None or job.result is None:
        return None
    pages = job.result.pages
    if chosen is not None:
        page_index, block_index = chosen
        if 0 <= page_index < len(pages) and 0 <= block_index < len(pages[page_index].blocks):
            block = pages[page_index].blocks[block_index]
            if kind_of(block) == kind and _has_content(block, kind):
                return block
    found = [b for page in pages for b in page.blocks if kind_of(b) == kind]
    if len(found) == 1 and _has_content(found[0], kind):
        return found[0]
    return None


def table_text(table: Any, table_format: str) -> str:
    """The table (engine.api.Table) as the Markdown writes it: a pipe table when asked for and
    possible (no merged cells), else its HTML."""
    from engine.api import table_html, table_markdown  # the Markdown writer's own

    if table_format == "markdown":
        gfm = table_markdown(table)
        if gfm is not None:
            return gfm
    return table_html(table)


class BlockCopier(QObject):
    """Copy LaTeX and Copy Table for the main window's selected document."""

    def __init__(self, window) -> None:
        """`window` is the main window (selected_job, preview, store, status_label)."""
        super().__init__(window)
        self._window = window

    def target(self, kind: str) -> Any | None:
        window = self._window
        return copy_target(window.selected_job(), window.preview.chosen_block, kind)

    def copy_latex(self) -> str | None:
        block = self.target(FORMULA)
        if block is None:
            return None
        latex = _latex(block)
        QGuiApplication.clipboard().setText(latex)
        self._window.status_label.setText(self.tr("LaTeX copied: {0}").format(
            latex if len(latex) <= 80 else latex[:77] + "…"))
        return latex

    def copy_table(self) -> str | None:
        """The table as text (HTML or Markdown); its HTML rides along for office programs."""
        block = self.target(TABLE)
        if block is None:
            return None
        table_format = str(self._window.store.load().output.table_format)
        text = table_text(block.table, table_format)
        mime = QMimeData()
        mime.setText(text)
        mime.setHtml(block.html)
        QGuiApplication.clipboard().setMimeData(mime)
        words = self.tr("Markdown") if text != block.html else self.tr("HTML")
        self._window.status_label.setText(self.tr("Table copied as {0}").format(words))
        return text

"""The selected document's Markdown, rendered and as source, linked block by block to its pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, QUrl, Qt, Signal
from PySide6.QtGui import (QColor, QFontDatabase, QFontInfo, QFontMetricsF, QImage, QImageReader,
                           QPalette, QTextBlock, QTextBlockFormat, QTextCharFormat, QTextCursor,
                           QTextDocument, QTextFragment)
from PySide6.QtWidgets import QPlainTextEdit, QTabWidget, QTextBrowser, QTextEdit

from gui.background import run_in_background
from gui.block_links import (BlockLink, crop_path, formula_latex, link_at, link_for,
                             locate_blocks)
from gui.math_view import (MATH_SCHEME, Formula, FormulaRejected, Typeset, find_formulas,
                           formula_image, typeset)
from gui.queue_model import Job, JobState

_HIGHLIGHT = QColor(255, 214, 10, 110)
MAX_INLINE_IMAGE_WIDTH = 640
# Typeset formulas kept for documents shown again (a few KiB each).
MAX_DRAWN_FORMULAS = 4000
# Tables come as HTML inside the Markdown; without rules their cells run into each other.
RENDERED_CSS = ("table { border-collapse: collapse; margin: 6px 0; } "
                "th, td { border: 1px solid #b8bec7; padding: 2px 5px; } "
                "th { background-color: #eef1f5; }")


def image_positions(document: QTextDocument) -> dict[str, int]:
    """Where each picture sits in a rendered document, by the path its Markdown link names."""
    found: dict[str, int] = {}
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().isImageFormat():
                found.setdefault(fragment.charFormat().toImageFormat().name(), fragment.position())
            it += 1
        block = block.next()
    return found


def figure_links(pages: Any, positions: dict[str, int]) -> list[BlockLink]:
    """Links for blocks shown as pictures (figures, formula or table crops) in the rendered view."""
    links = []
    for page_index, page in enumerate(pages):
        for block_index, block in enumerate(page.blocks):
            where = positions.get(crop_path(block))
            if where is not None:
                links.append(BlockLink(page_index, block_index, where, where + 1))
    return links


def image_fragments(document: QTextDocument) -> Iterator[tuple[QTextBlock, QTextFragment]]:
    """Every picture in the document, with the paragraph it sits in, in order."""
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().isImageFormat():
                yield block, fragment
            it += 1
        block = block.next()


def fit_images(document: QTextDocument, max_width: int) -> None:
    """Shrink pictures wider than `max_width` so the rendered Markdown needs no sideways scroll."""
    for _, fragment in image_fragments(document):
        image_format = fragment.charFormat().toImageFormat()
        url = document.baseUrl().resolved(QUrl(image_format.name()))
        # A typeset formula is a resource in memory, sized to the text already.
        size = QImageReader(url.toLocalFile()).size() if url.isLocalFile() else QSize()
        if size.isValid() and size.width() > max_width and image_format.width() <= 0:
            image_format.setWidth(max_width)
            image_format.setHeight(size.height() * max_width / size.width())
            cursor = QTextCursor(document)
            cursor.setPosition(fragment.position())
            cursor.setPosition(fragment.position() + fragment.length(),
                               QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(image_format)


def formula_links(pages: Any, positions: dict[str, int],
                  formulas: dict[str, Formula]) -> list[BlockLink]:
    """Links for formula blocks shown typeset: the display formula of the same LaTeX."""
    by_latex: dict[str, int] = {}
    for name, formula in formulas.items():
        if formula.display and name in positions:
            by_latex.setdefault(formula.latex, positions[name])
    links = []
    for page_index, page in enumerate(pages):
        for block_index, block in enumerate(page.blocks):
            where = by_latex.get(formula_latex(block).strip())
            if where is not None and \
                    getattr(getattr(block, "kind", None), "value", None) == "formula":
                links.append(BlockLink(page_index, block_index, where, where + 1))
    return links


def formula_crops(pages: Any, markdown: str) -> dict[str, str]:
    """The crop of each formula block by its LaTeX, to show when the formula cannot be typeset:
    "" for a crop the Markdown already shows beside it (a doubtful reading), not shown twice."""
    crops: dict[str, str] = {}
    for page in pages:
        for block in page.blocks:
            latex, image = formula_latex(block).strip(), crop_path(block)
            if latex and image:
                crops.setdefault(latex, "" if f"]({image})" in markdown else image)
    return crops


def align_formulas(document: QTextDocument, formulas: dict[str, Formula]) -> None:
    """Inline formulas sit on the line's baseline (their pictures are padded for AlignMiddle);
    a paragraph that is one display formula is centred."""
    for block, fragment in image_fragments(document):
        formula = formulas.get(fragment.charFormat().toImageFormat().name())
        if formula is None:
            continue
        cursor = QTextCursor(document)
        cursor.setPosition(fragment.position())
        if formula.display:
            if block.length() == 2:  # the picture and the paragraph's end
                centred = QTextBlockFormat()
                centred.setAlignment(Qt.AlignmentFlag.AlignHCenter)
                cursor.mergeBlockFormat(centred)
        else:
            middle = QTextCharFormat()
            middle.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
            cursor.setPosition(fragment.position() + fragment.length(),
                               QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(middle)


def read_markdown(path: Path) -> str:
    return path.read_text(encoding="utf-8")


class _ClickFilter(QObject):
    """Reports the text position of a left click in a text view."""

    def __init__(self, view: QTextEdit | QPlainTextEdit, callback) -> None:
        super().__init__(view)
        self._view = view
        self._callback = callback

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonRelease and \
                event.button() == Qt.MouseButton.LeftButton:
            position = self._view.cursorForPosition(event.position().toPoint()).position()
            self._callback(position)
        return False


class _MathBrowser(QTextBrowser):
    """A text browser that also serves the typeset formulas' pictures by their names."""

    def __init__(self) -> None:
        super().__init__()
        self.formula_images: dict[str, QImage] = {}

    def loadResource(self, kind: int, name: QUrl) -> Any:
        if name.scheme() == MATH_SCHEME:
            return self.formula_images.get(name.toString())
        return super().loadResource(kind, name)


class MarkdownPane(QTabWidget):
    """Shows a job's Markdown once it is done; a document converted in an earlier session has
    no pages to link to, so its Markdown is read back from its file."""

    blockSelected = Signal(int, int)  # page position, block index: a click on a block's text

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("markdownTabs")
        self._source_links: list[BlockLink] = []
        self._rendered_links: list[BlockLink] = []
        self._markdown_for: tuple[int, int] | None = None
        self._placeholder: str | None = None
        self._shown = 0  # bumped by every Markdown shown: a late typesetting is dropped
        self._formula_cache: dict[tuple, QImage | FormulaRejected] = {}
        self.rendered = _MathBrowser()
        self.rendered.setObjectName("renderedMarkdown")
        self.rendered.setOpenExternalLinks(True)
        self.rendered.document().setDefaultStyleSheet(RENDERED_CSS)
        self.source = QPlainTextEdit()
        self.source.setObjectName("markdownSource")
        self.source.setReadOnly(True)
        self.source.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.source.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.rendered.viewport().installEventFilter(
            _ClickFilter(self.rendered, lambda at: self.click_at("rendered", at)))
        self.source.viewport().installEventFilter(
            _ClickFilter(self.source, lambda at: self.click_at("source", at)))
        self.addTab(self.rendered, self.tr("Rendered"))
        self.addTab(self.source, self.tr("Markdown source"))

    def set_placeholder(self, text: str) -> None:
        self._markdown_for = None
        self._shown += 1
        self._source_links, self._rendered_links = [], []
        if self._placeholder != text:  # re-laying out the same words on every page costs time
            self._placeholder = text
            self.rendered.setPlainText(text)
            self.source.setPlainText("")

    def sync(self, job: Job) -> None:
        """Bring the views up to date with the job (the Markdown appears once it is written)."""
        if job.state.written and job.result is not None:
            self._show_result(job)
        elif job.state.written and job.markdown_path is not None:
            self._show_file(job, job.markdown_path)
        elif job.state is JobState.FAILED:
            self.set_placeholder(self.tr("Failed: {0}").format(job.message))
        elif job.state is JobState.CANCELLED:
            self.set_placeholder(self.tr("Cancelled; nothing was written."))
        else:
            self.set_placeholder(self.tr("The Markdown appears here when the document is done."))

    def _show_result(self, job: Job) -> None:
        if self._markdown_for == (job.id, id(job.result)):
            return
        self._show_markdown(job, job.result.markdown, job.result.pages)
        self._markdown_for = (job.id, id(job.result))

    def _show_file(self, job: Job, path: Path) -> None:
        if self._markdown_for == (job.id, 0):
            return
        self._markdown_for = (job.id, 0)
        current = self._markdown_for

        def show(markdown: str) -> None:
            if self._markdown_for == current:
                self._show_markdown(job, markdown, ())

        def missing(error: BaseException) -> None:
            if self._markdown_for == current:
                self.set_placeholder(self.tr("The Markdown is no longer at {0} ({1}).").format(
                    path, getattr(error, "strerror", None) or error))
                self._markdown_for = current  # not read again on every refresh

        run_in_background(lambda: read_markdown(path), show, missing, owner=self)

    def _show_markdown(self, job: Job, markdown: str, pages: Any) -> None:
        """Show the Markdown; its formulas are typeset off the UI thread first (the renderer
        loads in half a second and draws a formula in a few hundredths)."""
        self._shown += 1
        current = self._shown
        font = self.rendered.font()
        size, x_height = QFontInfo(font).pixelSize(), QFontMetricsF(font).xHeight()
        ratio = self.rendered.devicePixelRatioF()
        color = self.rendered.palette().color(QPalette.ColorRole.Text)
        crops = formula_crops(pages, markdown)
        cache = self._formula_cache

        def key(formula: Formula) -> tuple:
            return formula.latex, formula.display, size, ratio, color.rgba()

        def draw(formula: Formula) -> QImage:
            if key(formula) not in cache:
                if len(cache) >= MAX_DRAWN_FORMULAS:
                    cache.clear()
                try:
                    cache[key(formula)] = formula_image(formula.latex, formula.display, size,
                                                        x_height, ratio, color)
                except FormulaRejected as why:
                    cache[key(formula)] = why
            drawn = cache[key(formula)]
            if isinstance(drawn, FormulaRejected):
                raise drawn
            return drawn

        def show(typeset_markdown: Typeset) -> None:
            if self._shown == current:
                self._lay_out(job, markdown, typeset_markdown, pages)

        def work() -> Typeset:
            return typeset(markdown, draw, lambda formula: crops.get(formula.latex))

        if all(key(formula) in cache for formula in find_formulas(markdown)):
            show(work())  # no formula, or all drawn before: no wait
            return

        def drawn_before(formula: Formula) -> QImage:
            if isinstance(cache.get(key(formula)), QImage):
                return cache[key(formula)]
            raise FormulaRejected("not typeset yet")

        # The text at once, formulas not yet drawn as their TeX; typeset when they are.
        self._lay_out(job, markdown, typeset(markdown, drawn_before), pages)
        run_in_background(work, show, owner=self)

    def _lay_out(self, job: Job, markdown: str, typeset_markdown: Typeset, pages: Any) -> None:
        self._placeholder = None
        folder = job.markdown_path.parent if job.markdown_path is not None else job.output_dir
        self.rendered.setSearchPaths([str(folder)])
        self.rendered.formula_images = typeset_markdown.images
        document = self.rendered.document()
        document.setBaseUrl(QUrl.fromLocalFile(str(folder) + "/"))
        self.rendered.setMarkdown(typeset_markdown.markdown)
        align_formulas(document, typeset_markdown.formulas)
        fit_images(document, MAX_INLINE_IMAGE_WIDTH)
        self.source.setPlainText(markdown)
        self._source_links = locate_blocks(pages, markdown)
        positions = image_positions(document)
        self._rendered_links = figure_links(pages, positions) + \
            formula_links(pages, positions, typeset_markdown.formulas) + \
            locate_blocks(pages, document.toRawText())

    # -- text <-> boxes -----------------------------------------------------------------------

    def mark(self, page_index: int, block_index: int) -> None:
        """Highlight one block's text in both views."""
        self._mark_text(self.source, link_for(self._source_links, page_index, block_index))
        self._mark_text(self.rendered, link_for(self._rendered_links, page_index, block_index))

    @staticmethod
    def _mark_text(view: QTextEdit | QPlainTextEdit, link: BlockLink | None) -> None:
        if link is None:
            view.setExtraSelections([])
            return
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(view.document())
        cursor.setPosition(link.start)
        cursor.setPosition(link.end, QTextCursor.MoveMode.KeepAnchor)
        fmt = QTextCharFormat()
        fmt.setBackground(_HIGHLIGHT)
        selection.cursor = cursor
        selection.format = fmt
        view.setExtraSelections([selection])
        caret = QTextCursor(view.document())
        caret.setPosition(link.start)
        view.setTextCursor(caret)
        view.ensureCursorVisible()

    def click_at(self, which: str, position: int) -> None:
        """What a click at text `position` of the "source" or "rendered" view does."""
        links = self._source_links if which == "source" else self._rendered_links
        link = link_at(links, position)
        if link is not None:
            self.blockSelected.emit(link.page_index, link.block_index)

    def highlighted_text(self, which: str = "source") -> str:
        """The highlighted text in the source or rendered view ('' when none)."""
        view = self.source if which == "source" else self.rendered
        selections = view.extraSelections()
        return selections[0].cursor.selectedText() if selections else ""

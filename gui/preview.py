"""The selected document's preview: page list, page with layout boxes, Markdown source and view."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, QUrl, Qt, Signal
from PySide6.QtGui import (QColor, QFontDatabase, QImageReader, QTextCharFormat, QTextCursor,
                           QTextDocument)
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
                               QPlainTextEdit, QSplitter, QTabWidget, QTextBrowser, QTextEdit,
                               QToolButton, QVBoxLayout, QWidget)

from gui.block_links import BlockLink, link_at, link_for, locate_blocks
from gui.page_images import PageImageCache
from gui.page_view import KIND_COLOURS, PageView, kind_name, kind_of
from gui.queue_model import Job, JobState

log = logging.getLogger(__name__)

_HIGHLIGHT = QColor(255, 214, 10, 110)
MAX_INLINE_IMAGE_WIDTH = 640
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
            where = positions.get(getattr(block, "image_path", "") or "")
            if where is not None:
                links.append(BlockLink(page_index, block_index, where, where + 1))
    return links


def fit_images(document: QTextDocument, max_width: int) -> None:
    """Shrink pictures wider than `max_width` so the rendered Markdown needs no sideways scroll."""
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isImageFormat():
                image_format = fmt.toImageFormat()
                url = document.baseUrl().resolved(QUrl(image_format.name()))
                size = QImageReader(url.toLocalFile()).size()
                if size.isValid() and size.width() > max_width and image_format.width() <= 0:
                    image_format.setWidth(max_width)
                    image_format.setHeight(size.height() * max_width / size.width())
                    cursor = QTextCursor(document)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(),
                                       QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(image_format)
            it += 1
        block = block.next()


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


class PreviewPane(QWidget):
    """Shows one job. Pages appear as they finish; the Markdown once the document is done."""

    pageShown = Signal(int)  # 0-based page position

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._job: Job | None = None
        self._page_index = -1
        self._images = PageImageCache()
        self._source_links: list[BlockLink] = []
        self._rendered_links: list[BlockLink] = []
        self._markdown_for: tuple[int, int] | None = None
        self._placeholder: str | None = None

        self.pages = QListWidget()
        self.pages.setObjectName("pageList")
        self.pages.setMaximumWidth(140)
        self.pages.currentRowChanged.connect(self._on_page_row)

        self.page_view = PageView()
        self.page_view.blockClicked.connect(self._on_block_clicked)
        self.boxes_toggle = QCheckBox(self.tr("Layout boxes"))
        self.boxes_toggle.setObjectName("layoutBoxesToggle")
        self.boxes_toggle.setChecked(True)
        self.boxes_toggle.toggled.connect(self.page_view.set_boxes_visible)
        self.page_caption = QLabel()
        self.page_caption.setObjectName("pageCaption")
        self.legend = QLabel()
        self.legend.setObjectName("kindLegend")
        self.legend.setWordWrap(True)
        fit = QToolButton()
        fit.setText(self.tr("Fit"))
        fit.setToolTip(self.tr("Fit the page to the width (Ctrl+wheel zooms)"))
        fit.clicked.connect(self.page_view.fit_width)
        page_bar = QHBoxLayout()
        page_bar.addWidget(self.page_caption, 1)
        page_bar.addWidget(self.boxes_toggle)
        page_bar.addWidget(fit)
        page_panel = QWidget()
        page_layout = QVBoxLayout(page_panel)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.addLayout(page_bar)
        page_layout.addWidget(self.page_view, 1)
        page_layout.addWidget(self.legend)

        self.rendered = QTextBrowser()
        self.rendered.setObjectName("renderedMarkdown")
        self.rendered.setOpenExternalLinks(True)
        self.rendered.document().setDefaultStyleSheet(RENDERED_CSS)
        self.source = QPlainTextEdit()
        self.source.setObjectName("markdownSource")
        self.source.setReadOnly(True)
        self.source.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.source.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.rendered.viewport().installEventFilter(_ClickFilter(self.rendered,
                                                                 self._on_rendered_click))
        self.source.viewport().installEventFilter(_ClickFilter(self.source, self._on_source_click))
        self.text_tabs = QTabWidget()
        self.text_tabs.setObjectName("markdownTabs")
        self.text_tabs.addTab(self.rendered, self.tr("Rendered"))
        self.text_tabs.addTab(self.source, self.tr("Markdown source"))

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("previewSplitter")
        self.splitter.addWidget(self.pages)
        self.splitter.addWidget(page_panel)
        self.splitter.addWidget(self.text_tabs)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 3)
        self.splitter.setSizes([84, 500, 500])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.show_job(None)

    # -- which job ----------------------------------------------------------------------------

    @property
    def job(self) -> Job | None:
        return self._job

    @property
    def page_index(self) -> int:
        return self._page_index

    def show_job(self, job: Job | None) -> None:
        if job is not self._job:
            self._job = job
            self._page_index = -1
            self._markdown_for = None
        self.refresh()

    def refresh(self) -> None:
        """Bring the pane up to date with the job (new pages, done, failed)."""
        job = self._job
        if job is None:
            self.pages.clear()
            self.page_caption.clear()
            self.legend.clear()
            self.page_view.clear_page(self.tr("Select a document to see its pages."))
            self._set_markdown_placeholder(self.tr("Drop PDFs or images on the window to start."))
            return
        self._sync_page_list(job)
        if self._page_index < 0 and job.pages:
            self.pages.setCurrentRow(0)
        elif self._page_index >= 0:
            self._show_page(self._page_index)
        elif job.state is JobState.FAILED:
            self.page_view.clear_page(job.message)
        elif job.state is JobState.CANCELLED:
            self.page_view.clear_page(self.tr("Cancelled; nothing was written."))
        else:
            self.page_view.clear_page(self.tr("Waiting for the first page…"))
        self._sync_markdown(job)

    def _sync_page_list(self, job: Job) -> None:
        total = max(job.page_count, len(job.pages))
        while self.pages.count() > total:
            self.pages.takeItem(self.pages.count() - 1)
        for index in range(total):
            page = job.pages.get(index)
            if page is not None:
                label = self.tr("Page {0}").format(page.page_number)
            else:
                label = self.tr("Page {0} …").format(index + 1)
            if index < self.pages.count():
                item = self.pages.item(index)
                if item.text() != label:
                    item.setText(label)
            else:
                item = QListWidgetItem(label)
                self.pages.addItem(item)
            flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
            item.setFlags(flags if page is not None else Qt.ItemFlag.NoItemFlags)

    # -- the page -----------------------------------------------------------------------------

    def select_page(self, index: int) -> None:
        """Show page `index` (0-based position) once it has finished."""
        if self._job is not None and index in self._job.pages:
            self._show_page(index)

    def _on_page_row(self, row: int) -> None:
        if row >= 0 and self._job is not None and row in self._job.pages:
            self._show_page(row)

    def _show_page(self, index: int) -> None:
        job = self._job
        page = job.pages.get(index) if job is not None else None
        if page is None:
            return
        changed = index != self._page_index
        self._page_index = index
        if self.pages.currentRow() != index:
            self.pages.setCurrentRow(index)
        key = (job.id, index)
        image = self._images.get(key)
        if changed or self.page_view.has_image != (image is not None) or \
                self.page_view.box_count != len(page.blocks):
            self.page_view.set_page(page, image)
        if image is None:
            self._images.load(key, str(job.path), job.password, page, self._on_image_ready,
                              self._on_image_failed)
        kinds = sorted({kind_of(b) for b in page.blocks})
        self.page_caption.setText(self.tr("Page {0} · blocks: {1} · text from {2}").format(
            page.page_number, len(page.blocks), self._source_words(page)))
        self.legend.setText("  ".join(
            f'<span style="color:{KIND_COLOURS.get(k, "#555")}">■</span> {kind_name(k)}'
            for k in kinds))
        if changed:
            self.pageShown.emit(index)

    def _source_words(self, page: Any) -> str:
        source = str(getattr(page.text_source, "value", page.text_source))
        return self.tr("OCR") if source == "ocr" else self.tr("the text layer")

    def _on_image_ready(self, key: tuple[int, int]) -> None:
        # A page picture can finish rendering after its window was closed.
        if not shiboken6.isValid(self.page_view):
            return
        if self._job is not None and key == (self._job.id, self._page_index):
            self.page_view.set_image(self._images.get(key))

    def _on_image_failed(self, key: tuple[int, int], error: BaseException) -> None:
        log.warning("could not draw page %d: %s", key[1] + 1, error)

    # -- the Markdown -------------------------------------------------------------------------

    def _set_markdown_placeholder(self, text: str) -> None:
        self._source_links, self._rendered_links = [], []
        if self._placeholder != text:  # re-laying out the same words on every page costs time
            self._placeholder = text
            self.rendered.setPlainText(text)
            self.source.setPlainText("")

    def _sync_markdown(self, job: Job) -> None:
        if not job.state.written or job.result is None:
            self._markdown_for = None
            if job.state is JobState.FAILED:
                self._set_markdown_placeholder(self.tr("Failed: {0}").format(job.message))
            elif job.state is JobState.CANCELLED:
                self._set_markdown_placeholder(self.tr("Cancelled; nothing was written."))
            else:
                self._set_markdown_placeholder(
                    self.tr("The Markdown appears here when the document is done."))
            return
        if self._markdown_for == (job.id, id(job.result)):
            return
        self._markdown_for = (job.id, id(job.result))
        self._placeholder = None
        markdown = job.result.markdown
        folder = job.markdown_path.parent if job.markdown_path is not None else job.output_dir
        base = QUrl.fromLocalFile(str(folder) + "/")
        self.rendered.setSearchPaths([str(folder)])
        self.rendered.document().setBaseUrl(base)
        self.rendered.setMarkdown(markdown)
        fit_images(self.rendered.document(), MAX_INLINE_IMAGE_WIDTH)
        self.source.setPlainText(markdown)
        self._source_links = locate_blocks(job.result.pages, markdown)
        document = self.rendered.document()
        self._rendered_links = figure_links(job.result.pages, image_positions(document)) + \
            locate_blocks(job.result.pages, document.toRawText())

    @property
    def markdown_folder(self) -> Path | None:
        job = self._job
        return job.markdown_path.parent if job is not None and job.markdown_path else None

    # -- text <-> boxes -----------------------------------------------------------------------

    def _on_block_clicked(self, block_index: int) -> None:
        self.select_block(self._page_index, block_index)

    def select_block(self, page_index: int, block_index: int) -> None:
        """Highlight one block: its box on the page and its text in both Markdown views."""
        if self._job is None or page_index not in self._job.pages:
            return
        if page_index != self._page_index:
            self._show_page(page_index)
        self.page_view.highlight(block_index)
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

    def _on_source_click(self, position: int) -> None:
        self._select_from_text(self._source_links, position)

    def _on_rendered_click(self, position: int) -> None:
        self._select_from_text(self._rendered_links, position)

    def _select_from_text(self, links: list[BlockLink], position: int) -> None:
        link = link_at(links, position)
        if link is not None:
            self.select_block(link.page_index, link.block_index)

    def highlighted_text(self, which: str = "source") -> str:
        """The highlighted text in the source or rendered view ('' when none)."""
        view = self.source if which == "source" else self.rendered
        selections = view.extraSelections()
        return selections[0].cursor.selectedText() if selections else ""

    def forget_job(self, job_id: int) -> None:
        self._images.forget_job(job_id)
        if self._job is not None and self._job.id == job_id:
            self.show_job(None)

"""The selected document's preview: page list, page with layout boxes, Markdown source and view."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
                               QSplitter, QToolButton, QVBoxLayout, QWidget)

from gui.live_page import LivePage
from gui.markdown_pane import MarkdownPane
from gui.page_images import PageImageCache
from gui.page_view import KIND_COLOURS, PageView, kind_name, kind_of
from gui.queue_model import Job, JobState

log = logging.getLogger(__name__)


class PreviewPane(QWidget):
    """Shows one job. A page appears as soon as it is rendered, its text lines and layout boxes
    as the stages find them; the Markdown once the document is done."""

    pageShown = Signal(int)  # 0-based page position
    blockChosen = Signal()  # a block was highlighted, or the highlight went with its document
    shown = Signal(object)  # the Job shown (or None), after each refresh

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._job: Job | None = None
        self._page_index = -1
        self._images = PageImageCache()
        self._drawn: Any = None  # the PageResult or LivePage the page view shows
        self._last_live: tuple[int, LivePage] | None = None  # job id, the page last drawn live
        self.chosen_block: tuple[int, int] | None = None  # page, block: highlighted by a click

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
        self._page_layout = page_layout

        self.markdown = MarkdownPane()
        self.markdown.blockSelected.connect(self.select_block)
        self.rendered, self.source = self.markdown.rendered, self.markdown.source

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("previewSplitter")
        self.splitter.addWidget(self.pages)
        self.splitter.addWidget(page_panel)
        self.splitter.addWidget(self.markdown)
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
            self._drawn = None
            if self.chosen_block is not None:
                self.chosen_block = None
                self.blockChosen.emit()
        self.refresh()

    def refresh(self) -> None:
        """Bring the pane up to date with the job (new pages and stages, done, failed)."""
        job = self._job
        if job is None:
            self.pages.clear()
            self.page_caption.clear()
            self.legend.clear()
            self.page_view.clear_page(self.tr("Select a document to see its pages."))
            self._drawn = None
            self.markdown.set_placeholder(self.tr("Drop PDFs or images on the window to start."))
            self.shown.emit(None)
            return
        self._sync_page_list(job)
        if self._page_index >= 0 and not self._has_page(job, self._page_index):
            self._page_index = -1  # a page still being read when its document stopped
        shown = sorted(job.pages) or sorted(job.live)
        if self._page_index >= 0:
            self._show_page(self._page_index)
        elif shown:
            self._show_page(shown[0])
        else:
            self._drawn = None
            self.page_caption.clear()
            self.legend.clear()
            self.page_view.clear_page(self._no_page_words(job))
        self.markdown.sync(job)
        self.shown.emit(job)

    def add_below_page(self, widget: QWidget) -> None:
        """A bar under the page view, above the legend (gui/unread_scripts.py)."""
        self._page_layout.insertWidget(self._page_layout.indexOf(self.legend), widget)

    @staticmethod
    def _has_page(job: Job, index: int) -> bool:
        return index in job.pages or index in job.live

    def _no_page_words(self, job: Job) -> str:
        if job.state is JobState.FAILED:
            return job.message
        if job.state is JobState.CANCELLED:
            return self.tr("Cancelled; nothing was written.")
        if job.state.written:  # converted in an earlier session: only its files are left
            folder = job.markdown_path.parent if job.markdown_path else job.output_dir
            return self.tr("Converted in an earlier session; its files are in {0}").format(folder)
        return self.tr("Waiting for the first page…")

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
            item.setFlags(flags if self._has_page(job, index) else Qt.ItemFlag.NoItemFlags)

    # -- the page -----------------------------------------------------------------------------

    def select_page(self, index: int) -> None:
        """Show page `index` (0-based position) once it is rendered."""
        if self._job is not None and self._has_page(self._job, index):
            self._show_page(index)

    def _on_page_row(self, row: int) -> None:
        if row >= 0 and self._job is not None and self._has_page(self._job, row):
            self._show_page(row)

    def _show_page(self, index: int) -> None:
        job = self._job
        if job is None or not self._has_page(job, index):
            return
        changed = index != self._page_index
        self._page_index = index
        if self.pages.currentRow() != index:
            self.pages.setCurrentRow(index)
        if index in job.pages:
            self._show_finished(job, index, job.pages[index])
        else:
            self._show_live(job, job.live[index])
        if changed:
            self.pageShown.emit(index)

    def _show_finished(self, job: Job, index: int, page: Any) -> None:
        key = (job.id, index)
        image = self._images.get(key)
        if image is None:
            image = self._live_picture(job, index, page)
        if self._drawn is not page or self.page_view.has_image != (image is not None):
            self.page_view.set_page(page, image)
            self._drawn = page
        native = str(getattr(page.text_source, "value", page.text_source)) == "native"
        if image is None and not native:  # an Office document has no page picture to draw
            self._images.load(key, str(job.path), job.password, page, self._on_image_ready,
                              self._on_image_failed)
        caption = self.tr("Page {0} · blocks: {1} · text from {2}").format(
            page.page_number, len(page.blocks), self._source_words(page))
        scripts = tuple(getattr(page, "scripts", ()) or ())
        if scripts:  # read with Tesseract besides PP-OCR, or in the languages the user named
            caption += self.tr(" · read in {0}").format(", ".join(scripts))
        self.page_caption.setText(caption)
        self.page_caption.setToolTip(self.tr(
            "Lines in these scripts were read with Tesseract's recogniser; the others with "
            "the main recogniser (Chinese, Japanese, Latin).") if scripts else "")
        self._show_legend(page.blocks)

    def _live_picture(self, job: Job, index: int, page: Any) -> Any:
        """The picture the page was drawn with while it was read, when it is the same page
        (kept, so the finished page needs no second rendering)."""
        if self._last_live is None:
            return None
        job_id, live = self._last_live
        if (job_id, live.index) != (job.id, index) or live.image is None or \
                (live.width, live.height, live.rotation) != (page.width, page.height,
                                                             page.rotation):
            return None
        self._images.put((job.id, index), live.image)
        self._last_live = None
        return live.image

    def _show_live(self, job: Job, live: LivePage) -> None:
        if self._drawn is not live:
            self.page_view.set_page(live, live.image, live.lines)
            self._drawn = live
            self._last_live = (job.id, live)
        if live.lines or live.blocks:
            self.page_caption.setText(
                self.tr("Page {0} · being read: {1} lines, {2} layout regions so far").format(
                    live.page_number, len(live.lines), len(live.blocks)))
        else:
            self.page_caption.setText(self.tr("Page {0} · being read…").format(live.page_number))
        self._show_legend(live.blocks)

    def _show_legend(self, blocks: Any) -> None:
        kinds = sorted({kind_of(b) for b in blocks})
        self.legend.setText("  ".join(
            f'<span style="color:{KIND_COLOURS.get(k, "#555")}">■</span> {kind_name(k)}'
            for k in kinds))

    def _source_words(self, page: Any) -> str:
        source = str(getattr(page.text_source, "value", page.text_source))
        if source == "native":  # an Office document: no page picture, its own markup
            return self.tr("the document's markup")
        return self.tr("OCR") if source == "ocr" else self.tr("the text layer")

    def _on_image_ready(self, key: tuple[int, int]) -> None:
        # A page picture can finish rendering after its window was closed.
        if not shiboken6.isValid(self.page_view):
            return
        if self._job is not None and key == (self._job.id, self._page_index) and \
                self._page_index in self._job.pages:
            self.page_view.set_image(self._images.get(key))

    def _on_image_failed(self, key: tuple[int, int], error: BaseException) -> None:
        log.warning("could not draw page %d: %s", key[1] + 1, error)

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
        self.markdown.mark(page_index, block_index)
        self.chosen_block = (page_index, block_index)
        self.blockChosen.emit()

    def highlighted_text(self, which: str = "source") -> str:
        """The highlighted text in the source or rendered view ('' when none)."""
        return self.markdown.highlighted_text(which)

    def forget_job(self, job_id: int) -> None:
        self._images.forget_job(job_id)
        if self._job is not None and self._job.id == job_id:
            self.show_job(None)

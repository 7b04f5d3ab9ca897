"""The queue list: one row per document, a progress bar in the status cell while it parses."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QSize, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QHeaderView, QStyle,
                               QStyledItemDelegate, QStyleOptionProgressBar,
                               QStyleOptionViewItem, QTreeView)

from gui.queue_model import QueueModel

_STATE_COLOURS = {"failed": "#b3261e", "cancelled": "#6b6b6b", "done": "#1b6e20",
                  "partial": "#8a5300", "needs_password": "#8a5300"}


class _StatusDelegate(QStyledItemDelegate):
    def paint(self, painter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        progress = index.data(QueueModel.ProgressRole)
        if index.column() != QueueModel.STATUS or progress is None:
            state = index.data(QueueModel.StateRole)
            if index.column() == QueueModel.STATUS and state in _STATE_COLOURS:
                option = QStyleOptionViewItem(option)
                option.palette.setColor(QPalette.ColorRole.Text, QColor(_STATE_COLOURS[state]))
            super().paint(painter, option, index)
            return
        done, total = progress
        # Draw the selection background first, then the bar inset within the cell.
        QApplication.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option,
                                           painter, option.widget)
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(2, 3, -2, -3)
        bar.minimum = 0
        bar.maximum = max(total, 1) if total else 0  # 0..0 draws a busy bar while opening
        bar.progress = done
        # The whole text is in the row's tooltip; the bar shows what fits.
        bar.text = option.fontMetrics.elidedText(index.data(Qt.ItemDataRole.DisplayRole),
                                                 Qt.TextElideMode.ElideRight,
                                                 max(0, bar.rect.width() - 8))
        bar.textVisible = True
        bar.state = option.state | QStyle.StateFlag.State_Horizontal
        QApplication.style().drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter,
                                         option.widget)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        return QSize(hint.width(), max(hint.height(), option.fontMetrics.height() + 10))


class QueueView(QTreeView):
    """Rows in parse order; selection picks the document the preview shows."""

    def __init__(self, model: QueueModel, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("queueView")
        self.setModel(model)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setItemDelegate(_StatusDelegate(self))
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QueueModel.NAME, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(QueueModel.NAME, 150)

    def selected_job_ids(self) -> list[int]:
        rows = sorted({index.row() for index in self.selectionModel().selectedRows()})
        model = self.model()
        return [model.index(row, 0).data(QueueModel.JobIdRole) for row in rows]

    def current_job_id(self) -> int | None:
        index = self.currentIndex()
        return index.siblingAtColumn(0).data(QueueModel.JobIdRole) if index.isValid() else None

    def select_job(self, job_id: int) -> None:
        model: QueueModel = self.model()
        row = model.row_of(job_id)
        if row >= 0:
            self.setCurrentIndex(model.index(row, 0))

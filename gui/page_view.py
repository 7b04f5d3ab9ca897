"""The page image with its layout regions drawn as boxes coloured by kind; boxes are clickable."""

from __future__ import annotations

from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen, QPixmap, QWheelEvent
from PySide6.QtWidgets import (QGraphicsItem, QGraphicsPixmapItem, QGraphicsRectItem,
                               QGraphicsScene, QGraphicsSimpleTextItem, QGraphicsView)

# One colour per block kind, readable on white paper and distinct from each other.
KIND_COLOURS: dict[str, str] = {
    "title": "#d62728",
    "section_header": "#ff7f0e",
    "text": "#1f77b4",
    "list_item": "#17becf",
    "table": "#2ca02c",
    "formula": "#9467bd",
    "figure": "#8c564b",
    "caption": "#e377c2",
    "header": "#7f7f7f",
    "footer": "#7f7f7f",
    "footnote": "#bcbd22",
    "reference": "#393b79",
    "code": "#637939",
}
_OTHER_COLOUR = "#555555"
_LINE_COLOUR = "#3d7bd9"  # text lines found while a page is read, before it has blocks


def kind_name(kind: str) -> str:
    """A block kind in words, for the legend and tooltips."""
    names = {
        "title": QCoreApplication.translate("PageView", "Title"),
        "section_header": QCoreApplication.translate("PageView", "Section header"),
        "text": QCoreApplication.translate("PageView", "Text"),
        "list_item": QCoreApplication.translate("PageView", "List item"),
        "table": QCoreApplication.translate("PageView", "Table"),
        "formula": QCoreApplication.translate("PageView", "Formula"),
        "figure": QCoreApplication.translate("PageView", "Figure"),
        "caption": QCoreApplication.translate("PageView", "Caption"),
        "header": QCoreApplication.translate("PageView", "Page header"),
        "footer": QCoreApplication.translate("PageView", "Page footer"),
        "footnote": QCoreApplication.translate("PageView", "Footnote"),
        "reference": QCoreApplication.translate("PageView", "Reference"),
        "code": QCoreApplication.translate("PageView", "Code"),
    }
    return names.get(kind, kind)


def kind_of(block: Any) -> str:
    kind = getattr(block, "kind", "")
    return str(getattr(kind, "value", kind))


class _BlockBox(QGraphicsRectItem):
    def __init__(self, index: int, rect: QRectF, colour: QColor, tooltip: str) -> None:
        super().__init__(rect)
        self.index = index
        self.colour = colour
        self.setToolTip(tooltip)
        self.setAcceptHoverEvents(True)
        self.set_highlighted(False)

    def set_highlighted(self, on: bool) -> None:
        pen = QPen(self.colour, 3.0 if on else 1.5)
        pen.setCosmetic(True)  # the same on-screen width at every zoom
        self.setPen(pen)
        fill = QColor(self.colour)
        fill.setAlpha(90 if on else 28)
        self.setBrush(QBrush(fill))
        self.setZValue(2 if on else 1)


class PageView(QGraphicsView):
    """Shows one page; scene coordinates are the analysed image's pixels, where boxes live."""

    blockClicked = Signal(int)  # index of the block in the page's blocks

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("pageView")
        self._scene = QGraphicsScene(self)
        self.setScene(self._scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setBackgroundBrush(QColor("#e9e9ec"))
        self._boxes: list[_BlockBox] = []
        self._line_items: list[QGraphicsRectItem] = []
        self._pixmap_item: QGraphicsPixmapItem | None = None
        self._image_key: int | None = None  # QImage.cacheKey() of the picture shown
        self._paper: QGraphicsRectItem | None = None
        self._boxes_visible = True
        self._fit = True
        self._page_size = (0, 0)
        # The viewport's first trip into Python makes PySide6 build the enums of every widget
        # class not met yet (81 of them, about 30 ms on two cores): paid here, as the window is
        # made, not inside the first page's picture while a document is read.
        self.viewport()

    # -- content ------------------------------------------------------------------------------

    def clear_page(self, message: str = "") -> None:
        self._scene.clear()
        self._boxes, self._line_items = [], []
        self._pixmap_item = self._paper = self._image_key = None
        self._page_size = (0, 0)
        if message:
            label = QGraphicsSimpleTextItem(message)
            label.setBrush(QColor("#555555"))
            self._scene.addItem(label)
            self._scene.setSceneRect(label.boundingRect().adjusted(-20, -20, 20, 20))
            self.resetTransform()
        else:
            self._scene.setSceneRect(QRectF())

    def set_page(self, page: Any, image: QImage | None, lines: Any = ()) -> None:
        """Draw `page` (a PageResult, or a LivePage while it is read: its regions as blocks);
        `image` is its picture at any size, None while it loads; `lines` are text lines to
        outline thinly (a page being read has lines before it has blocks).

        The same picture on a page of the same size stays as it is: while a page is read its
        boxes change several times, and re-making and re-scaling a page-sized picture each
        time would hold up the window."""
        width, height = max(1, int(page.width)), max(1, int(page.height))
        resized = (width, height) != self._page_size or self._paper is None
        if resized:
            self._scene.clear()
            self._pixmap_item, self._image_key = None, None
            self._page_size = (width, height)
            self._paper = self._scene.addRect(QRectF(0, 0, width, height),
                                              QPen(Qt.PenStyle.NoPen), QBrush(QColor("white")))
            self._paper.setZValue(-1)
        else:
            for item in [*self._boxes, *self._line_items]:
                self._scene.removeItem(item)
        self._boxes, self._line_items = [], []
        self.set_image(image)
        for index, block in enumerate(page.blocks):
            box = block.box
            kind = kind_of(block)
            colour = QColor(KIND_COLOURS.get(kind, _OTHER_COLOUR))
            tip = kind_name(kind)
            text = (getattr(block, "text", "") or "").strip()
            if text:
                tip += "\n" + (text[:160] + "…" if len(text) > 160 else text)
            item = _BlockBox(index, QRectF(box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0),
                             colour, tip)
            item.setVisible(self._boxes_visible)
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
            self._scene.addItem(item)
            self._boxes.append(item)
        self._add_lines(lines)
        if resized:
            self._scene.setSceneRect(QRectF(0, 0, width, height))
            if self._fit:
                self.fit_width()

    def _add_lines(self, lines: Any) -> None:
        pen = QPen(QColor(_LINE_COLOUR), 1.0)
        pen.setCosmetic(True)
        for line in lines:
            box = line.box
            item = QGraphicsRectItem(QRectF(box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0))
            item.setPen(pen)
            item.setZValue(0.5)  # over the picture, under the blocks
            item.setToolTip(line.text)
            item.setVisible(self._boxes_visible)
            self._scene.addItem(item)
            self._line_items.append(item)

    @property
    def line_count(self) -> int:
        return len(self._line_items)

    def set_image(self, image: QImage | None) -> None:
        """Put the page's picture under the boxes (it arrives after them while it renders)."""
        if not shiboken6.isValid(self._scene):  # the view was closed while it rendered
            return
        key = image.cacheKey() if image is not None and not image.isNull() else None
        if key is not None and key == self._image_key and self._pixmap_item is not None:
            return
        if self._pixmap_item is not None:
            self._scene.removeItem(self._pixmap_item)
            self._pixmap_item, self._image_key = None, None
        width = self._page_size[0]
        if key is None or width <= 0:
            return
        item = QGraphicsPixmapItem(QPixmap.fromImage(image))
        item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        # Scale the picture once per zoom level, not on every repaint of the view.
        item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        item.setScale(width / image.width())
        self._scene.addItem(item)
        self._pixmap_item, self._image_key = item, key

    @property
    def has_image(self) -> bool:
        return self._pixmap_item is not None

    @property
    def box_count(self) -> int:
        return len(self._boxes)

    def set_boxes_visible(self, visible: bool) -> None:
        self._boxes_visible = visible
        for item in [*self._boxes, *self._line_items]:
            item.setVisible(visible)

    def highlight(self, index: int | None) -> None:
        for box in self._boxes:
            box.set_highlighted(box.index == index)
        if index is not None and 0 <= index < len(self._boxes):
            self.ensureVisible(self._boxes[index], 40, 40)

    def highlighted(self) -> int | None:
        for box in self._boxes:
            if box.zValue() > 1:
                return box.index
        return None

    # -- zoom ---------------------------------------------------------------------------------

    def fit_width(self) -> None:
        self._fit = True
        width, _ = self._page_size
        if width <= 0:
            return
        self.resetTransform()
        available = max(50, self.viewport().width() - 12)
        factor = available / width
        self.scale(factor, factor)

    def zoom(self, factor: float) -> None:
        self._fit = False
        current = self.transform().m11()
        if 0.05 <= current * factor <= 8:
            self.scale(factor, factor)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
            event.accept()
        else:
            super().wheelEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._fit:
            self.fit_width()

    def mousePressEvent(self, event) -> None:
        self._press_at = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        pressed_at = getattr(self, "_press_at", None)
        if event.button() != Qt.MouseButton.LeftButton or pressed_at is None or \
                (event.position().toPoint() - pressed_at).manhattanLength() > 4:
            return  # a drag to scroll, not a click
        point = self.mapToScene(event.position().toPoint())
        # The smallest box under the pointer: a line inside a table picks the line.
        hits = [b for b in self._boxes if b.isVisible() and b.rect().contains(point)]
        if hits:
            best = min(hits, key=lambda b: b.rect().width() * b.rect().height())
            self.blockClicked.emit(best.index)

    def click_block(self, index: int) -> None:
        """What a click on the box of block `index` does (for keyboard use and tests)."""
        if 0 <= index < len(self._boxes):
            self.blockClicked.emit(index)

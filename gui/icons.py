"""The app icon, drawn as SVG in resources/icons, with a painted stand-in if SVG cannot load."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap

from resources import resource_path

ICON_FILE = "icons/paperlens.svg"


@lru_cache(maxsize=1)
def app_icon() -> QIcon:
    icon = QIcon(str(resource_path(ICON_FILE)))
    if icon.isNull() or icon.pixmap(32, 32).isNull():
        icon = QIcon(_painted_icon(256))
    return icon


def _painted_icon(side: int) -> QPixmap:
    """A simpler page-and-lens picture, for a Qt without its SVG plugin."""
    pixmap = QPixmap(side, side)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    unit = side / 256
    painter.setPen(QPen(QColor("#3b4a5e"), 8 * unit))
    painter.setBrush(QColor("white"))
    painter.drawRoundedRect(QRectF(44 * unit, 20 * unit, 160 * unit, 216 * unit),
                            8 * unit, 8 * unit)
    painter.setPen(QPen(QColor("#7b8aa0"), 10 * unit))
    for y in (92, 120, 148, 176):
        painter.drawLine(int(72 * unit), int(y * unit), int(150 * unit), int(y * unit))
    painter.setPen(QPen(QColor("#1d4f91"), 12 * unit))
    painter.setBrush(QColor(140, 194, 255, 200))
    painter.drawEllipse(QRectF(114 * unit, 126 * unit, 100 * unit, 100 * unit))
    painter.end()
    return pixmap

"""A page while its stages run: its picture as soon as it is rendered, then the text lines and
layout regions as the stages find them (from the engine's PageProgress events)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QImage

from gui.page_images import preview_image


@dataclass(frozen=True)
class LivePage:
    """What the preview draws of a page that is not done yet (no Qt widgets inside)."""

    index: int
    """0-based position among the pages being processed."""
    page_number: int
    total: int
    stage: str
    """The last stage that finished."""
    width: int
    height: int
    """The analysed image's size, in the pixels the boxes use."""
    image: QImage | None
    """The page's picture, at most PREVIEW_MAX_SIDE_PX on its long side."""
    rotation: int = 0
    lines: tuple[Any, ...] = ()
    blocks: tuple[Any, ...] = ()
    """Layout regions, drawn like a finished page's blocks (kind and box)."""


class LivePageBuilder:
    """Turns one document's PageProgress events into LivePages, on the conversion thread.

    A page's pixels are converted to a picture once per new array (after `render`, and again if
    the page was turned), so the UI thread only draws. Events that change nothing shown give
    None: no signal crosses to the window for them."""

    def __init__(self) -> None:
        self._pixels: Any = None
        self._image: QImage | None = None
        self._shown: tuple | None = None

    def build(self, event: Any) -> LivePage | None:
        if event.image is not self._pixels:
            self._pixels = event.image
            self._image = preview_image(event.image) if event.image is not None else None
        # What the view draws: the picture, line boxes, region kinds and boxes. Later stages
        # put tables and formulas on the same regions; that changes nothing on the page.
        shown = (event.index, id(self._image), tuple(line.box for line in event.lines),
                 tuple((region.kind, region.box) for region in event.regions or ()))
        if shown == self._shown:
            return None
        self._shown = shown
        height, width = event.image.shape[:2] if event.image is not None else (0, 0)
        return LivePage(index=event.index, page_number=event.page_number, total=event.total,
                        stage=event.stage, width=width, height=height, image=self._image,
                        rotation=event.rotation, lines=tuple(event.lines),
                        blocks=tuple(event.regions or ()))

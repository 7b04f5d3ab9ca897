"""A page while its stages run: its picture as soon as it is rendered, then the text lines and
layout regions as the stages find them (from the engine's PageProgress events, or the
LiveFrames the conversion process made of them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QImage

from gui.live_frames import LiveFrame, LiveFrames
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
    """Turns one document's PageProgress events (or LiveFrames) into LivePages, on the
    conversion thread.

    A new picture becomes a QImage once, so the UI thread only draws. Events that change
    nothing shown give None: no signal crosses to the window for them."""

    def __init__(self) -> None:
        self._frames = LiveFrames()
        self._image: QImage | None = None

    def build(self, event: Any) -> LivePage | None:
        frame = event if isinstance(event, LiveFrame) else self._frames.frame(event)
        if frame is None:
            return None
        if frame.new_picture:
            self._image = frame.image if frame.image is not None else (
                preview_image(frame.pixels) if frame.pixels is not None else None)
        return LivePage(index=frame.index, page_number=frame.page_number, total=frame.total,
                        stage=frame.stage, width=frame.width, height=frame.height,
                        image=self._image, rotation=frame.rotation, lines=frame.lines,
                        blocks=frame.blocks)

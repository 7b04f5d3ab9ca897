"""What the preview shows of a page while its stages run, as plain data free of Qt: it is made
from the engine's PageProgress events in the conversion process and crosses to the window's.

Only what the live view draws is kept (the picture at preview size, line boxes and text,
region kinds and boxes), and a stage that changes none of it gives no frame at all."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from typing import Any

PREVIEW_MAX_SIDE_PX = 2000  # enough for a sharp page on a 4K screen, light to hold and draw


def preview_pixels(pixels: Any) -> Any:
    """RGB (or grey) pixels at most PREVIEW_MAX_SIDE_PX on their long side (OpenCV's area
    filter, which lets go of Python's lock while it works); smaller pictures as they are."""
    import cv2

    height, width = pixels.shape[:2]
    longest = max(height, width, 1)
    if longest <= PREVIEW_MAX_SIDE_PX:
        return pixels
    factor = PREVIEW_MAX_SIDE_PX / longest
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    return cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)


def screen_pixels(pixels: Any, into: Any = None) -> Any:
    """RGB (or grey) pixels as opaque 32-bit ones in the byte order of the pictures screens
    draw from (gui.page_images.SCREEN_FORMAT: on little-endian machines Qt's RGB32, bytes B, G,
    R, 255), written `into` an array of that shape when one is given. OpenCV lets go of
    Python's lock while it works."""
    import cv2
    import numpy as np

    grey = pixels.ndim == 2
    if sys.byteorder == "little":
        code = cv2.COLOR_GRAY2BGRA if grey else cv2.COLOR_RGB2BGRA
    else:
        code = cv2.COLOR_GRAY2RGBA if grey else cv2.COLOR_RGB2RGBA
    return cv2.cvtColor(np.ascontiguousarray(pixels), code, dst=into)  # alpha 255: opaque


@dataclass(frozen=True)
class LiveFrame:
    """A change to the live view of one page (picklable: numpy pixels, engine data types)."""

    index: int
    """0-based position among the pages being processed."""
    page_number: int
    total: int
    stage: str
    """The last stage that finished."""
    width: int
    height: int
    """The analysed image's size, in the pixels the boxes use."""
    new_picture: bool
    """True when `pixels` replaces the picture shown; False: the last frame's picture stays."""
    pixels: Any = None
    """The page's picture at preview size (None before it is rendered, or when unchanged)."""
    image: Any = None
    """Instead of `pixels`: the new picture ready to draw, a QImage the window's process filled
    with the screen pixels the conversion process sent."""
    rotation: int = 0
    lines: tuple[Any, ...] = ()
    """Text lines with their boxes (their words left out: the view draws whole lines)."""
    blocks: tuple[Any, ...] = ()
    """Layout regions, drawn like a finished page's blocks (their lines left out)."""


class LiveFrames:
    """Turns one document's PageProgress events into LiveFrames.

    A page's pixels are scaled once per new array (after `render`, and again if the page was
    turned); the frames after that carry no picture. Events that change nothing shown give
    None, so nothing crosses for them."""

    def __init__(self) -> None:
        self._pixels: Any = None
        self._shown: tuple | None = None

    def frame(self, event: Any) -> LiveFrame | None:
        new_picture = event.image is not self._pixels
        self._pixels = event.image
        # What the view draws: the picture, line boxes, region kinds and boxes. Later stages
        # put tables and formulas on the same regions; that changes nothing on the page.
        shown = (event.index, id(event.image), tuple(line.box for line in event.lines),
                 tuple((region.kind, region.box) for region in event.regions or ()))
        if shown == self._shown:
            return None
        self._shown = shown
        height, width = event.image.shape[:2] if event.image is not None else (0, 0)
        pixels = preview_pixels(event.image) if new_picture and event.image is not None else None
        return LiveFrame(index=event.index, page_number=event.page_number, total=event.total,
                         stage=event.stage, width=width, height=height,
                         new_picture=new_picture, pixels=pixels, rotation=event.rotation,
                         lines=tuple(replace(line, words=()) if line.words else line
                                     for line in event.lines),
                         blocks=tuple(replace(region, lines=()) if region.lines else region
                                      for region in event.regions or ()))

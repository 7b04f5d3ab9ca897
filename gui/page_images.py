"""Page pictures for the preview: rendered by the engine's document reader off the UI thread."""

from __future__ import annotations

import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

from PySide6.QtGui import QImage

from gui.background import run_in_background
from gui.live_frames import PREVIEW_MAX_SIDE_PX, preview_pixels, screen_pixels

# The format screens draw from: opaque 32-bit RGB (its words 0xffRRGGBB are the bytes B, G, R,
# 255 on little-endian machines), which QPixmap.fromImage takes over as it is.
SCREEN_FORMAT = (QImage.Format.Format_RGB32 if sys.byteorder == "little"
                 else QImage.Format.Format_RGBA8888_Premultiplied)


def render_page_image(path: str, password: str | None, page: Any) -> QImage:
    """The analysed page as a QImage (runs on a background thread; QImage is thread-safe)."""
    import numpy as np

    from engine.api import open_document

    longest = max(page.width, page.height, 1)
    shrink = min(1.0, PREVIEW_MAX_SIDE_PX / longest)
    dpi = int(max(50, min(600, round(page.dpi * shrink))))
    with open_document(Path(path), password) as document:
        rendered = document.render(page.page_number, dpi, max(PREVIEW_MAX_SIDE_PX, 256))
    pixels = rendered.image
    if page.rotation:
        # The engine turned the page clockwise before analysis; boxes refer to the turned page.
        pixels = np.rot90(pixels, k=-(page.rotation // 90) % 4)
    return preview_image(pixels)


def preview_image(pixels: Any) -> QImage:
    """RGB (or grey) pixels, a numpy array, as a preview picture: at most PREVIEW_MAX_SIDE_PX on
    its long side, in the format screens draw from: opaque 32-bit RGB, which QPixmap.fromImage
    takes over as it is (0.0 ms for a 1414x2000 page; premultiplied ARGB cost 2-7 ms there, on
    the UI thread, spent scanning for transparent pixels and converting: tools/ui_lock.py).

    Runs off the UI thread. The pixel work is OpenCV's, which lets go of Python's lock while it
    works, and it writes straight into the picture's own memory; Qt's own scaling and conversion
    would hold the lock, and the window with it, for as long as they take (a quarter of a second
    for a page on a busy machine), and so would Qt copying converted pixels in (21-39 ms for a
    1414x2000 page, most of it the first touch of fresh memory)."""
    import numpy as np

    pixels = preview_pixels(pixels)
    height, width = pixels.shape[:2]
    image = QImage(width, height, SCREEN_FORMAT)
    rows = np.frombuffer(image.bits(), dtype=np.uint8).reshape(height, image.bytesPerLine())
    target = rows[:, :width * 4].reshape(height, width, 4)
    written = screen_pixels(pixels, into=target)
    if written.ctypes.data != target.ctypes.data:  # OpenCV made an array of its own instead
        raise ValueError(f"{pixels.dtype} pixels of shape {pixels.shape} are no RGB picture")
    return image


class PageImageCache:
    """A few recent page pictures, keyed by (job id, page position); loads missing ones lazily."""

    def __init__(self, capacity: int = 12) -> None:
        self._images: OrderedDict[tuple[int, int], QImage] = OrderedDict()
        self._loading: set[tuple[int, int]] = set()
        self._capacity = capacity

    def get(self, key: tuple[int, int]) -> QImage | None:
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
        return image

    def put(self, key: tuple[int, int], image: QImage) -> None:
        """Keep a picture that is already drawn (a page's live view, once the page is done)."""
        self._images[key] = image
        self._images.move_to_end(key)
        while len(self._images) > self._capacity:
            self._images.popitem(last=False)

    def forget_job(self, job_id: int) -> None:
        for key in [k for k in self._images if k[0] == job_id]:
            del self._images[key]

    def load(self, key: tuple[int, int], path: str, password: str | None, page: Any,
             on_ready: Callable[[tuple[int, int]], None],
             on_error: Callable[[tuple[int, int], BaseException], None]) -> None:
        """Render in the background unless it is cached or already on its way."""
        if key in self._images or key in self._loading:
            return
        self._loading.add(key)

        def done(image: QImage) -> None:
            self._loading.discard(key)
            self.put(key, image)
            on_ready(key)

        def failed(error: BaseException) -> None:
            self._loading.discard(key)
            on_error(key, error)

        run_in_background(lambda: render_page_image(path, password, page), done, failed)

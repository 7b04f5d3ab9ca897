"""Page pictures for the preview: rendered by the engine's document reader off the UI thread."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from gui.background import run_in_background

PREVIEW_MAX_SIDE_PX = 2000  # enough for a sharp page on a 4K screen, light to hold and draw


def render_page_image(path: str, password: str | None, page: Any) -> QImage:
    """The analysed page as a QImage (runs on a background thread; QImage is thread-safe)."""
    import numpy as np

    from engine.input.document import open_document

    longest = max(page.width, page.height, 1)
    shrink = min(1.0, PREVIEW_MAX_SIDE_PX / longest)
    dpi = int(max(50, min(600, round(page.dpi * shrink))))
    with open_document(Path(path), password) as document:
        rendered = document.render(page.page_number, dpi, max(PREVIEW_MAX_SIDE_PX, 256))
    pixels = rendered.image
    if page.rotation:
        # The engine turned the page clockwise before analysis; boxes refer to the turned page.
        pixels = np.rot90(pixels, k=-(page.rotation // 90) % 4)
    pixels = np.ascontiguousarray(pixels)
    height, width = pixels.shape[:2]
    image = QImage(pixels.data, width, height, pixels.strides[0], QImage.Format.Format_RGB888)
    image = image.copy()  # own the pixels: the numpy array goes away with this frame
    if max(width, height) > PREVIEW_MAX_SIDE_PX:
        image = image.scaled(PREVIEW_MAX_SIDE_PX, PREVIEW_MAX_SIDE_PX,
                             Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    # The format screens draw from: the UI thread's QPixmap.fromImage then has nothing to convert.
    return image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)


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
            self._images[key] = image
            while len(self._images) > self._capacity:
                self._images.popitem(last=False)
            on_ready(key)

        def failed(error: BaseException) -> None:
            self._loading.discard(key)
            on_error(key, error)

        run_in_background(lambda: render_page_image(path, password, page), done, failed)

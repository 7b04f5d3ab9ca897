"""Document input: identify files by content, open them, and render pages to bounded RGB images."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import cv2
import numpy as np
import pymupdf

from engine.imaging import composite_on_white
from engine.errors import CorruptDocument, UnsupportedInput
from engine.input.damage import damage_heard, decoder_messages, quiet_libraries, start_listening
from engine.input.kinds import InputKind, identify
from engine.input.limits import check_image_file, check_page_images
from engine.input.paged import open_paged, short_reason
from engine.input.probe import OFFICE_PROBE_LIMITS, probe_document
from engine.office.model import OfficeDocument
from engine.office.reader import read_office


@dataclass(frozen=True)
class RenderedPage:
    image: np.ndarray
    """RGB uint8, shape (height, width, 3)."""
    dpi: float
    """Effective resolution after the size cap (pixels per inch of the source page)."""
    scale: float
    """Pixels per PDF point (1/72 in); 1.0 for image inputs at their own size."""
    warnings: tuple[str, ...] = ()
    damage: str | None = None
    """What of the page could not be decoded, when part of it could (the page is partial)."""


class Document:
    """An opened input: page count, page rendering, and (for paged kinds) PyMuPDF page access."""

    def __init__(self, path: Path, kind: InputKind, pdf: pymupdf.Document | None,
                 frames: int, office: OfficeDocument | None = None) -> None:
        self.path = path
        self.kind = kind
        self._pdf = pdf
        self.office = office
        """Office documents: what their markup holds, page by page (engine/office)."""
        self.page_count = pdf.page_count if pdf is not None else \
            len(office.pages) if office is not None else frames

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()

    def __enter__(self) -> "Document":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pdf_page(self, page_number: int) -> pymupdf.Page | None:
        """The PyMuPDF page (1-based), or None for image inputs."""
        if self._pdf is None:
            return None
        return self._pdf.load_page(page_number - 1)

    def render(self, page_number: int, dpi: int, max_side_px: int) -> RenderedPage:
        """The page's pixels. A page none of whose content can be decoded is a CorruptDocument
        (the page fails); one that lost a part says which in `damage` (the page is partial)."""
        if self._pdf is not None:
            start_listening()
            page = self._pdf.load_page(page_number - 1)
            if self._pdf.is_repaired and self.kind is InputKind.PDF and not page.get_contents():
                raise CorruptDocument(f"page {page_number} is damaged: its content is missing "
                                      "(the file is damaged or truncated)")
            check_page_images(page, page_number)
            rendered = _render_pdf_page(page, page_number, dpi, max_side_px)
            damage = damage_heard()
            if damage.content_lost:
                raise CorruptDocument(damage.describe(page_number))
            return replace(rendered, damage=damage.describe(page_number)) if damage.found \
                else rendered
        if self.office is not None:
            raise UnsupportedInput(f"{self.path.name} is read from its markup; it has no page "
                                   "pictures to show.")
        return _load_image_frame(self.path, self.kind, page_number, max_side_px)


def open_document(path: Path, password: str | None = None,
                  check_cancel: Callable[[], None] | None = None,
                  bounded: bool = True) -> Document:
    """The input opened for reading. A paged one is first opened and counted by MuPDF in a
    bounded child (engine/input/probe.py) unless `bounded` is False: for a document probed
    already (the service's page readers), and in that child itself."""
    quiet_libraries()
    kind = identify(path)
    if kind.is_paged:
        if bounded:
            probe_document(path, password, check_cancel)
        return _open_paged(path, kind, password)
    if kind.is_office:  # read whole in the bounded child, or here when probed already
        office = OfficeDocument.from_json(probe_document(
            path, None, check_cancel, OFFICE_PROBE_LIMITS).office) if bounded \
            else read_office(path, kind.value)
        return Document(path, kind, None, 0, office)
    checked = check_image_file(path, kind.value)  # every page, before any is decoded
    frames = 1
    if kind is InputKind.TIFF:
        try:
            with decoder_messages():  # libtiff's complaints about a damaged chain: ours below
                frames = cv2.imcount(str(path))
        except cv2.error:
            frames = 0
        if frames < 1:
            raise CorruptDocument(f"{path.name} looks like a TIFF image but holds no readable page.")
        if frames > checked:
            raise CorruptDocument(f"{path.name} is a damaged TIFF image (page {checked + 1} has "
                                  "no readable header).")
    return Document(path, kind, None, frames)


def _open_paged(path: Path, kind: InputKind, password: str | None) -> Document:
    return Document(path, kind, open_paged(path, kind, password), 0)


def _render_pdf_page(page: pymupdf.Page, page_number: int, dpi: int,
                     max_side_px: int) -> RenderedPage:
    rect = page.rect
    scale = dpi / 72.0
    long_side_pt = max(rect.width, rect.height, 1.0)
    warnings: list[str] = []
    if long_side_pt * scale > max_side_px:
        new_scale = max_side_px / long_side_pt
        warnings.append(
            f"page is {rect.width / 72 * 2.54:.0f} x {rect.height / 72 * 2.54:.0f} cm; rendered at "
            f"{new_scale * 72:.0f} dpi instead of {dpi} dpi to stay within {max_side_px} pixels")
        scale = new_scale
    try:
        pix = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csRGB,
                              alpha=False)
    except Exception as exc:  # MuPDF's own error types for a page it cannot draw
        raise CorruptDocument(f"page {page_number} cannot be drawn ({short_reason(exc)})") from None
    if pix.width < 1 or pix.height < 1:
        # MuPDF draws nothing for a member it cannot decode (a CBZ page that is not an image).
        raise CorruptDocument(f"page {page_number} holds no readable image or content")
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)
    image = image[:, : pix.width * 3].reshape(pix.height, pix.width, 3).copy()
    return RenderedPage(image=image, dpi=scale * 72.0, scale=scale, warnings=tuple(warnings))


def _load_image_frame(path: Path, kind: InputKind, page_number: int,
                      max_side_px: int) -> RenderedPage:
    """A picture decoded by OpenCV. What its libraries say meanwhile decides: a picture they
    could not decode is a CorruptDocument naming it (a TIFF frame they give back blank fails
    that page), one they decoded in part (a JPEG's garbled data) is a page with damage."""
    with decoder_messages() as report:
        image = _decode(path, kind, page_number)
    where = f"page {page_number} of {path.name}" if kind is InputKind.TIFF else path.name
    said = f" ({report.damage[0]})" if report.damage else ""
    if image is None or (report.damage and kind is InputKind.TIFF):
        raise CorruptDocument(f"{where} is a damaged or truncated {kind.value.upper()} "
                              f"image{said}.")
    damage = f"{where} is damaged: part of the image could not be decoded{said}" \
        if report.damage else None
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    warnings: list[str] = []
    height, width = image.shape[:2]
    if max(height, width) > max_side_px:
        factor = max_side_px / max(height, width)
        image = cv2.resize(image, (max(1, round(width * factor)), max(1, round(height * factor))),
                           interpolation=cv2.INTER_AREA)
        warnings.append(f"image is {width}x{height} pixels; scaled to {image.shape[1]}x"
                        f"{image.shape[0]} to stay within {max_side_px} pixels")
    else:
        factor = 1.0
    return RenderedPage(image=image, dpi=72.0 * factor, scale=factor, warnings=tuple(warnings),
                        damage=damage)


def _decode(path: Path, kind: InputKind, page_number: int) -> np.ndarray | None:
    if kind is InputKind.TIFF:
        ok, frames = cv2.imreadmulti(str(path), start=page_number - 1, count=1,
                                     flags=cv2.IMREAD_COLOR)
        image = frames[0] if ok and frames else None
    else:
        data = np.fromfile(str(path), dtype=np.uint8)
        # PNG and WebP may carry alpha: decode it and lay the image on white. The other kinds
        # decode as colour, which applies the EXIF orientation so phone photos come out upright.
        alpha_capable = kind in (InputKind.PNG, InputKind.WEBP)
        image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED if alpha_capable else cv2.IMREAD_COLOR)
        if image is not None and image.ndim == 3 and image.shape[2] == 4:
            # Transparent pixels often hide black: lay the image on white paper first.
            image = composite_on_white(image)
        if image is not None and image.dtype != np.uint8:
            image = cv2.convertScaleAbs(image, alpha=255.0 / max(float(image.max()), 1.0))
    return image

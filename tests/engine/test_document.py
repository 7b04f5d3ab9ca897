"""engine.input.document: inputs identified by their bytes, whatever their names say; page rendering."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.input.document import InputKind, identify, open_document
from engine.errors import UnsupportedInput

from engine_samples import (encoded_image, jpeg_with_exif_orientation, write_text_pdf,
                            write_zip)


@pytest.mark.parametrize("ext, kind", [
    (".png", InputKind.PNG),
    (".jpg", InputKind.JPEG),
    (".tif", InputKind.TIFF),
    (".bmp", InputKind.BMP),
    (".webp", InputKind.WEBP),
])
@pytest.mark.parametrize("name", ["scan{ext}", "scan.pdf", "scan.txt", "scan"])
def test_images_identified_by_content(tmp_path, ext, kind, name):
    path = tmp_path / name.format(ext=ext)
    path.write_bytes(encoded_image(ext))
    assert identify(path) is kind


@pytest.mark.parametrize("name", ["paper.pdf", "paper.png", "paper"])
def test_pdf_identified_by_content(tmp_path, name):
    path = write_text_pdf(tmp_path / name, [["A digital page"]])
    assert identify(path) is InputKind.PDF


def test_pdf_header_after_leading_junk(tmp_path):
    data = write_text_pdf(tmp_path / "clean.pdf", [["A digital page"]]).read_bytes()
    path = tmp_path / "mail-attachment.bin"
    path.write_bytes(b"\r\n" * 100 + data)
    assert identify(path) is InputKind.PDF


def test_epub_identified_by_its_mimetype_member(tmp_path):
    members = {"mimetype": b"application/epub+zip",
               "META-INF/container.xml": b"<container/>",
               "OEBPS/chapter1.xhtml": b"<html><body><p>Once</p></body></html>"}
    path = write_zip(tmp_path / "novel.zip", members, stored_first="mimetype")
    assert identify(path) is InputKind.EPUB


def test_cbz_identified_by_its_image_members(tmp_path):
    members = {f"{i:03d}.png": encoded_image(".png") for i in range(3)}
    members["ComicInfo.xml"] = b"<ComicInfo/>"
    path = write_zip(tmp_path / "comic.pdf", members)
    assert identify(path) is InputKind.CBZ


def test_plain_zip_is_unsupported(tmp_path):
    path = write_zip(tmp_path / "notes.cbz", {"a.txt": b"x", "b.txt": b"y"})
    with pytest.raises(UnsupportedInput, match="notes.cbz"):
        identify(path)


def test_text_file_named_png_is_unsupported(tmp_path):
    path = tmp_path / "photo.png"
    path.write_text("definitely not an image\n", encoding="utf-8")
    with pytest.raises(UnsupportedInput, match="photo.png"):
        identify(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(UnsupportedInput, match="does not exist"):
        identify(tmp_path / "gone.pdf")
    with pytest.raises(UnsupportedInput, match="folder"):
        identify(tmp_path)


def test_image_with_a_pdf_name_opens_as_an_image(tmp_path):
    path = tmp_path / "scan.pdf"
    path.write_bytes(encoded_image(".png", height=30, width=50))
    with open_document(path) as document:
        assert document.kind is InputKind.PNG
        assert document.page_count == 1
        assert document.pdf_page(1) is None
        rendered = document.render(1, dpi=200, max_side_px=4000)
    assert rendered.image.shape == (30, 50, 3)
    assert rendered.image.dtype == np.uint8


def test_multipage_tiff_counts_its_frames(tmp_path):
    frames = [np.full((20, 30), v, dtype=np.uint8) for v in (0, 128, 255)]
    path = tmp_path / "fax.tif"
    assert cv2.imwritemulti(str(path), frames)
    with open_document(path) as document:
        assert document.page_count == 3
        assert document.render(2, 200, 4000).image[0, 0].tolist() == [128, 128, 128]


def test_large_image_is_scaled_to_the_cap_with_a_warning(tmp_path):
    path = tmp_path / "wide.png"
    path.write_bytes(encoded_image(".png", height=100, width=1200))
    with open_document(path) as document:
        rendered = document.render(1, dpi=200, max_side_px=600)
    assert rendered.image.shape == (50, 600, 3)
    assert rendered.warnings and "600" in rendered.warnings[0]


def test_pdf_page_rendered_at_dpi_and_capped(tmp_path):
    path = write_text_pdf(tmp_path / "a4.pdf", [["A digital page"]])  # 595 x 842 pt
    with open_document(path) as document:
        full = document.render(1, dpi=144, max_side_px=4000)
        capped = document.render(1, dpi=144, max_side_px=842)
    assert full.image.shape == (1684, 1190, 3) and full.dpi == pytest.approx(144)
    assert full.warnings == ()
    assert max(capped.image.shape[:2]) == 842 and capped.dpi == pytest.approx(72)
    assert capped.warnings and "842 pixels" in capped.warnings[0]


def test_rgb_channel_order_for_images(tmp_path):
    image = np.zeros((8, 8, 3), dtype=np.uint8)
    image[:, :, 2] = 255  # red in OpenCV's BGR
    path = tmp_path / "red.png"
    assert cv2.imwrite(str(path), image)
    with open_document(Path(path)) as document:
        pixel = document.render(1, 200, 4000).image[4, 4]
    assert pixel.tolist() == [255, 0, 0]


def test_exif_rotated_photo_comes_out_upright(tmp_path):
    stored = np.full((20, 40, 3), 255, dtype=np.uint8)
    stored[:, :10] = 0  # dark band on the stored image's left edge
    path = tmp_path / "phone.jpg"
    path.write_bytes(jpeg_with_exif_orientation(stored, orientation=6))
    with open_document(path) as document:
        image = document.render(1, 200, 4000).image
    # Turned 90 degrees clockwise for display: 40 tall, 20 wide, the band along the top.
    assert image.shape == (40, 20, 3)
    assert image[:8].mean() < 40 and image[-20:].mean() > 215


def test_transparent_png_is_laid_on_white_paper(tmp_path):
    rgba = np.zeros((10, 10, 4), dtype=np.uint8)  # black, fully transparent
    rgba[4:6, 4:6, 3] = 255  # except a small opaque black square
    path = tmp_path / "logo.png"
    assert cv2.imwrite(str(path), rgba)
    with open_document(path) as document:
        image = document.render(1, 200, 4000).image
    assert image.shape == (10, 10, 3)
    assert image[0, 0].tolist() == [255, 255, 255]
    assert image[5, 5].tolist() == [0, 0, 0]

"""Photographed pages: the page's outline on its background and the perspective undone
(engine/photo/outline.py), curled lines traced and flattened (engine/photo/dewarp.py), and
pictures with no background around a page left alone."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pymupdf
import pytest

from engine.photo.dewarp import find_surface, flatten, is_curled, runs_along
from engine.photo.outline import find_page_outline, rectify


def _text_page(height: int = 600, width: int = 420, bend_px: float = 0.0) -> np.ndarray:
    """A white page of 'words' (dark bars 9 px high) in lines 24 px apart, each line bent
    down by bend_px * sin(pi x / width)."""
    page = np.full((height, width, 3), 250, np.uint8)
    rng = np.random.default_rng(0)
    for top in range(40, height - 40, 24):
        x = 30
        while x < width - 60:
            length = int(rng.integers(20, 60))
            for dx in range(length):
                shift = int(round(bend_px * np.sin(np.pi * (x + dx) / width)))
                page[top + shift:top + shift + 9, x + dx] = 30
            x += length + 8
    return page


def _on_desk(page: np.ndarray, corners: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    height, width = page.shape[:2]
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    homography = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
    desk = np.full((size[0], size[1], 3), (110, 80, 50), np.uint8)
    seen = cv2.warpPerspective(page, homography, (size[1], size[0]))
    mask = cv2.warpPerspective(np.full((height, width), 1, np.uint8), homography,
                               (size[1], size[0]))
    return np.where(mask[:, :, None] > 0, seen, desk)


def test_a_page_on_a_desk_is_found_and_set_upright():
    corners = np.float32([[140, 90], [560, 120], [590, 700], [110, 680]])
    photo = _on_desk(_text_page(), corners, (800, 700))
    outline = find_page_outline(photo)
    assert outline is not None
    assert np.abs(outline.quad - corners).max() < 12
    upright = rectify(photo, outline)
    assert abs(upright.shape[1] / upright.shape[0] - 480 / 600) < 0.1
    assert upright.mean() > 180  # the page, not the desk


@pytest.mark.parametrize("picture", [
    _text_page(),                                           # a scan: the page fills it
    np.full((300, 400, 3), 255, np.uint8),                  # a blank picture
    np.pad(_text_page(), ((5, 5), (5, 5), (0, 0)), constant_values=235),  # a pale border
])
def test_a_picture_without_background_around_a_page_has_no_outline(picture):
    assert find_page_outline(picture) is None


def test_curved_lines_are_found_curled_and_come_out_level():
    curled = _text_page(bend_px=30)
    surface = find_surface(curled)
    assert surface is not None and is_curled(surface)
    flat = flatten(curled, surface)
    after = find_surface(flat)
    assert after is not None and not is_curled(after)
    assert after.bend_px() < surface.bend_px() / 5


def test_straight_lines_are_not_curled():
    surface = find_surface(_text_page())
    assert surface is not None and not is_curled(surface)


def _square_script_page(height: int = 600, width: int = 420) -> np.ndarray:
    """A page of square 'characters' (12 px, 2 px apart) in rows 20 px apart, each row moved
    along by up to 3 px, as Chinese is set: the characters stand in rough columns as well as
    in rows, so lines are traced both ways."""
    page = np.full((height, width, 3), 250, np.uint8)
    rng = np.random.default_rng(1)
    for top in range(40, height - 40, 20):
        for left in range(30 + int(rng.integers(0, 4)), width - 44, 14):
            if rng.random() < 0.93:
                page[top:top + 12, left:left + 12] = 30
                page[top + 4:top + 8, left + 3:left + 9] = 250  # an inner stroke's gap
    return page


def test_a_page_is_traced_the_way_its_lines_run_when_both_ways_trace():
    page = _square_script_page()
    along, across = find_surface(page), find_surface(np.ascontiguousarray(np.rot90(page)))
    assert along is not None and across is not None  # both ways give pieces
    assert runs_along(along, across) and not runs_along(across, along)


def _pictures(dev):
    """Every dev-set input as the pipeline sees it: images as they are, PDF pages at 200 dpi."""
    for item in json.loads((dev / "manifest.json").read_text(encoding="utf-8")):
        path = dev / item["input"]
        if path.suffix == ".pdf":
            with pymupdf.open(path) as doc:
                for page in doc:
                    pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csRGB, alpha=False)
                    yield item["id"], np.frombuffer(pix.samples, np.uint8).reshape(
                        pix.height, pix.width, 3)
        else:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            yield item["id"], cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


@pytest.mark.slow
def test_no_dev_set_page_is_taken_for_a_photo(eval_dev_dir):
    """The photo stage returns a page it finds no outline on untouched, so the dev set's output
    is the same with the step on and off."""
    found = [item for item, picture in _pictures(eval_dev_dir)
             if find_page_outline(picture) is not None]
    assert found == []

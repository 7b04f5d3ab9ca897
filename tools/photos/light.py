"""`python -m tools.photos --light`: does evening out the light help the text detector on
unevenly lit photos? Each page of tools/photos/pages.py is photographed lying flat (the
reference), lit unevenly at both strengths of tools/photos/camera.py's light, and with a hard
shadow band across the page besides (a phone or an arm between the lamp and the page). Each
photo's page is found and straightened as the photo stage does, its text detected as is and
after the light is evened out (the page divided by its paper's brightness, the ink kept), and
the detected lines compared with those on the evenly lit photo (same geometry: the light is
laid over the same picture): the share of the reference's lines found (box overlap 0.5 or
more) and the share of the found lines that are the reference's. Writes
docs/results/photos_light.json."""

from __future__ import annotations

import cv2
import numpy as np

from tools.photos import camera, pages

MATCH_IOU = 0.5


def shadow_band(image: np.ndarray, seed: int, depth: float = 0.5) -> np.ndarray:
    """A soft-edged band of shadow (light down to `depth`) across the picture at a slant."""
    rng = np.random.default_rng(seed + 11)
    height, width = image.shape[:2]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = np.deg2rad(rng.uniform(-30, 30))
    across = (y - height * rng.uniform(0.35, 0.65)) * np.cos(angle) - \
        (x - width / 2) * np.sin(angle)
    band = 1 / (1 + np.exp((np.abs(across) - 0.08 * height) / (0.01 * height)))
    gain = 1 - (1 - depth) * band
    return np.clip(image * gain[:, :, None], 0, 255).astype(np.uint8)


def even_light(image: np.ndarray) -> np.ndarray:
    """The picture divided by its paper's brightness: the brightest level around each place
    (a grey closing wider than the letters), smoothed; white paper comes out white everywhere,
    ink keeps its contrast with the paper around it."""
    height, width = image.shape[:2]
    side = max(15, (min(height, width) // 40) | 1)
    paper = cv2.morphologyEx(image, cv2.MORPH_CLOSE,
                             cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
    paper = cv2.GaussianBlur(paper, (0, 0), side / 2).astype(np.float32)
    return np.clip(image.astype(np.float32) / np.maximum(paper, 1) * 255, 0, 255
                   ).astype(np.uint8)


def _boxes(regions) -> np.ndarray:
    return np.array([region.bounds for region in regions], np.float64).reshape(-1, 4)


def _matched(found: np.ndarray, wanted: np.ndarray) -> int:
    """How many of `wanted` overlap a box of `found` by MATCH_IOU or more."""
    if not len(found) or not len(wanted):
        return 0
    x0 = np.maximum(wanted[:, None, 0], found[None, :, 0])
    y0 = np.maximum(wanted[:, None, 1], found[None, :, 1])
    x1 = np.minimum(wanted[:, None, 2], found[None, :, 2])
    y1 = np.minimum(wanted[:, None, 3], found[None, :, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area = lambda b: (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])  # noqa: E731
    iou = inter / (area(wanted)[:, None] + area(found)[None, :] - inter)
    return int((iou.max(axis=1) >= MATCH_IOU).sum())


def _decode(data: bytes) -> np.ndarray:
    return cv2.cvtColor(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR),
                        cv2.COLOR_BGR2RGB)


def lit_photos(pixels: np.ndarray, seed: int) -> dict[str, np.ndarray]:
    """The evenly lit photo ("flat") and the unevenly lit ones, all of one geometry."""
    flat = camera.lay_on_desk(pixels, np.full(pixels.shape[:2], 255, np.uint8), 0.0, seed)
    shots = {"flat": flat}
    for strength in camera.STRENGTHS:
        shots[f"light-{strength}"] = camera.light(flat, strength, seed)
    shots["light-2 and shadow band"] = shadow_band(camera.light(flat, 2, seed), seed)
    shots["shadow band 0.3"] = shadow_band(flat, seed, 0.3)
    return {name: _decode(camera.jpeg(image)) for name, image in shots.items()}


def measure_light(seed: int = 1, page_names: tuple[str, ...] = pages.PAGES) -> dict:
    from engine.api import Engine
    from engine.photo.outline import find_page_outline, rectify
    from settings import SettingsStore

    detector = Engine(SettingsStore().load()).models.page_reader().detector
    rows = []
    for name in page_names:
        photos = lit_photos(pages.pixels(pages.draw(name, seed)[0]), seed)
        outline = find_page_outline(photos["flat"])
        if outline is None:
            raise RuntimeError(f"{name}: no page found on the evenly lit photo")
        reference = _boxes(detector.detect(rectify(photos["flat"], outline)))
        for shot, image in photos.items():
            if shot == "flat":
                continue
            page = rectify(image, outline)
            row = {"page": name, "light": shot, "reference_lines": len(reference),
                   "found_outline": find_page_outline(image) is not None}
            for label, picture in (("as_is", page), ("evened", even_light(page))):
                found = _boxes(detector.detect(picture))
                row[label] = {"lines": len(found),
                              "recall": round(_matched(found, reference) / len(reference), 4),
                              "precision": round(_matched(reference, found) / max(len(found), 1),
                                                 4)}
            rows.append(row)
            print(row, flush=True)
    return {"seed": seed, "match_iou": MATCH_IOU, "photos": rows}

"""`python -m tools.photos generate`: each page of tools/photos/pages.py drawn, rendered and
photographed with every shot of tools/photos/camera.py into build/photos/seed-S, with the
truth beside it and a manifest."""

from __future__ import annotations

import json
from pathlib import Path

from tools.photos import camera, pages


def generate(folder: Path, seed: int, page_names: tuple[str, ...] = pages.PAGES) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    photos = []
    for name in page_names:
        pdf, truth = pages.draw(name, seed)
        (folder / f"{name}.md").write_text(truth, encoding="utf-8")
        (folder / f"{name}.pdf").write_bytes(pdf)
        pixels = pages.pixels(pdf)
        for shot in camera.shots():
            path = folder / f"{name}-{shot.name}.jpg"
            path.write_bytes(camera.photograph(pixels, shot, seed))
            photos.append({"id": path.stem, "page": name, "effect": shot.effect,
                           "strength": shot.strength, "image": path.name,
                           "truth": f"{name}.md", "language": pages.LANGUAGES[name]})
    manifest = {"seed": seed, "photos": photos}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest

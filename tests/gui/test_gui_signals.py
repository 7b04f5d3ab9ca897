"""The real desktop app stopped by SIGTERM (a logout, `kill`, a service manager) while it
converts: it closes as if the user had closed the window, the running document is cancelled,
its staging folder removed and nothing half-written is left; the exit status says why."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.gui, pytest.mark.model, pytest.mark.slow]


def scanned_pdf(path: Path, pages: int) -> Path:
    """Image-only pages of text, so every page goes through OCR."""
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        text_page = pymupdf.open()
        page = text_page.new_page()
        for i in range(18):
            page.insert_text((72, 90 + i * 34), f"Page {number} line {i} of the orchard survey",
                             fontsize=16)
        pixmap = page.get_pixmap(dpi=150)
        image_page = doc.new_page(width=page.rect.width, height=page.rect.height)
        image_page.insert_image(image_page.rect, pixmap=pixmap)
        text_page.close()
    doc.save(str(path))
    doc.close()
    return path


def staging(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".paperlens-" in p.name)


def test_sigterm_cancels_the_conversion_and_leaves_nothing_behind(tmp_path: Path, settings):
    from engine.models.store import ModelStore

    store = ModelStore(Path(settings.model.base_dir), settings.model.index_url)
    if not store.status(store.default_for_role("rec").id).installed:
        pytest.skip("the default models are not in the cache")
    docs = tmp_path / "docs"
    docs.mkdir()
    document = scanned_pdf(docs / "survey.pdf", pages=12)
    config = tmp_path / "settings.json"
    config.write_text(json.dumps({"model": {"base_dir": str(settings.model.base_dir)}}))
    keep = ("PATH", "HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "PAPERLENS_MODEL_DIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(PAPERLENS_CONFIG=str(config), PYTHONPATH=str(REPO_ROOT),
               QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"))
    log = (tmp_path / "app.log").open("w")
    app = subprocess.Popen([sys.executable, "-m", "gui.app", str(document)], cwd=REPO_ROOT,
                           env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while not staging(docs):
            assert app.poll() is None, (tmp_path / "app.log").read_text()
            assert time.monotonic() < deadline, "the app never started converting"
            time.sleep(0.05)
        app.send_signal(signal.SIGTERM)
        code = app.wait(timeout=60)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        log.close()
    assert code == 128 + signal.SIGTERM, (tmp_path / "app.log").read_text()
    assert staging(docs) == [], "the staging folder survived SIGTERM"
    assert sorted(p.name for p in docs.iterdir()) == ["survey.pdf"], "a partial output was left"

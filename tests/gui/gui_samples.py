"""Small documents the GUI tests convert, written with PyMuPDF into the test's folder."""

from __future__ import annotations

from pathlib import Path

PARAGRAPH = ("Paperlens reads this page with optical character recognition. The quick brown "
             "fox jumps over the lazy dog while the detector finds every line of text and "
             "the recogniser turns each line into words. ")


def write_text_pdf(path: Path, pages: int, paragraphs: int = 6) -> Path:
    """A PDF of `pages` A4 pages full of text (converted with OCR, every page costs real time)."""
    import pymupdf

    document = pymupdf.open()
    for number in range(1, pages + 1):
        page = document.new_page(width=595, height=842)
        page.insert_text((72, 80), f"Page {number} of the sample", fontsize=18)
        box = pymupdf.Rect(72, 110, 523, 780)
        page.insert_textbox(box, (PARAGRAPH * 2 + "\n\n") * paragraphs, fontsize=11)
    document.save(str(path))
    document.close()
    return path


def write_encrypted_pdf(path: Path, password: str) -> Path:
    import pymupdf

    document = pymupdf.open()
    page = document.new_page(width=595, height=842)
    page.insert_text((72, 100), "A locked page about invoices.", fontsize=14)
    document.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password,
                  owner_pw=password + "-owner")
    document.close()
    return path


def run_again_under_xvfb(test_file: str, *node_ids: str) -> str:
    """Tests of `test_file` run again in a pytest of their own on the xcb platform a desktop
    runs, under Xvfb; their output, once every one passed (skips when Xvfb is missing)."""
    import os
    import shutil
    import subprocess
    import sys

    import pytest

    xvfb_run = shutil.which("xvfb-run")
    if xvfb_run is None or not sys.platform.startswith("linux"):
        pytest.skip("xvfb-run is not installed")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "PYTHONPATH": str(root)}
    env.pop("WAYLAND_DISPLAY", None)
    run = subprocess.run([xvfb_run, "-a", "-s", "-screen 0 1400x900x24 -nolisten tcp",
                          sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
                          *(f"{test_file}::{node}" for node in node_ids)],
                         cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert f"{len(node_ids)} passed" in run.stdout and "platform: xcb" in run.stdout
    return run.stdout

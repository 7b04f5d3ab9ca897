"""Screenshots for the README, from the real app under Xvfb: the main window while a document
parses (a partly read document in the queue, the page with its layout boxes before its last
stage), a pasted formula with its LaTeX copied, and the preferences (device and why, watched
folders, models).

    python -m tools.screenshots [--out docs/screenshots]

Starts a private Xvfb display (Debian: apt-get install xvfb, plus Qt's xcb libraries:
libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-image0 libxcb-render-util0
libxkbcommon-x11-0), runs the real app on it with a throwaway settings file and data folder
(never the user's), queues real documents from the evaluation sets (one of them through a
watched folder), and grabs the windows. Models come from the user's model cache.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EVAL_ITEMS = REPO.parent / "shared" / "eval" / "dev" / "items"
# Evaluation items, copied under names a person would give them.
DOCUMENTS = (("docling-2305.03393v1-pg9/input.pdf", "tableformer-paper-p9.pdf"),
             ("docling-code_and_formula/input.pdf", "code-and-formula.pdf"),
             ("tesseract-phototest/input.png", "phototest.png"))
FORMULA = REPO.parent / "shared" / "eval" / "formula" / "images" / "im2latex-smallocr-388.png"
SCREEN = "1600x1000x24"
WINDOW_SIZE = (1480, 900)


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """A private X server; its display number is chosen by Xvfb itself (-displayfd)."""
    if shutil.which("Xvfb") is None:
        sys.exit("Xvfb is not installed (Debian: apt-get install xvfb)")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", SCREEN,
                               "-nolisten", "tcp", "-dpi", "96"], pass_fds=(write_end,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        sys.exit("Xvfb did not start")
    return server, f":{number}"


def wait_until(app, condition, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        app.processEvents()
        time.sleep(0.02)


def settle(app, seconds: float = 0.6) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def with_oversized_page(source: Path, target: Path) -> Path:
    """`source` and a page holding an image of 40000x30000 pixels (by its header: the data is
    8x8), which Paperlens refuses to decode: the document is read in part."""
    import pymupdf

    document = pymupdf.open(source)
    page = document.new_page(width=595, height=842)
    page.insert_text((72, 80), "Appendix: the full-resolution scan", fontsize=14)
    tiny = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    xref = page.insert_image(pymupdf.Rect(72, 100, 520, 700), pixmap=tiny)
    document.xref_set_key(xref, "Width", "40000")
    document.xref_set_key(xref, "Height", "30000")
    document.save(str(target))
    document.close()
    return target


def take(args: argparse.Namespace, workdir: Path) -> list[Path]:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QImage

    from gui.application import build_main_window, create_application
    from gui.queue_model import JobState
    from settings import SettingsStore

    app = create_application(["paperlens"])
    environ = {k: v for k, v in os.environ.items()
               if k in ("HOME", "XDG_CACHE_HOME", "PAPERLENS_MODEL_DIR")}
    store = SettingsStore(path=workdir / "config" / "settings.json", environ=environ)
    store.set("output.dir", str(workdir / "out"))
    scans, invoices = workdir / "Scans", workdir / "Invoices"
    for folder in (scans, invoices):
        folder.mkdir()
    store.set("watch.folders", [{"folder": str(scans), "output": str(scans / "converted")},
                                {"folder": str(invoices), "output": str(workdir / "out")}])
    window = build_main_window(store)
    window.resize(*WINDOW_SIZE)
    window.show()
    missing = [str(p) for p in [EVAL_ITEMS / item for item, _ in DOCUMENTS] + [FORMULA]
               if not p.is_file()]
    if missing:
        raise SystemExit(f"documents not found: {', '.join(missing)}")
    inbox = workdir / "documents"
    inbox.mkdir()
    (paper, _), (code, _), (photo, photo_name) = ((EVAL_ITEMS / item, name)
                                                  for item, name in DOCUMENTS)
    window.add_paths([with_oversized_page(paper, inbox / DOCUMENTS[0][1]),
                      Path(shutil.copyfile(code, inbox / DOCUMENTS[1][1]))])
    shutil.copyfile(photo, scans / photo_name)  # the watched folder queues it
    first, second = window.controller.model.jobs
    window.queue_view.select_job(second.id)  # its pages are shown as they are read
    wait_until(app, lambda: first.state.finished, 300, "the first document")
    if first.state is not JobState.PARTIAL:
        raise SystemExit(f"{first.path.name}: {first.state.value} {first.message}")
    wait_until(app, lambda: len(window.controller.model.jobs) == 3, 60, "the watched folder")
    # Grab while the page shown has its layout boxes and is still being read.
    preview = window.preview
    wait_until(app, lambda: second.state.finished or (
        preview.page_index in second.live and second.live[preview.page_index].blocks),
        300, "the layout of the second document")
    if second.state.finished:
        raise SystemExit(f"{second.path.name} finished before its layout boxes were seen")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shots = [out / "main-window.png"]
    window.grab().save(str(shots[0]))

    # A screenshot of a formula pasted, read, and its LaTeX copied with one click.
    wait_until(app, lambda: window.controller.running is None, 300, "the queue to finish")
    mime = QMimeData()
    mime.setImageData(QImage(str(FORMULA)))
    app.clipboard().setMimeData(mime)
    window.commands.paste.trigger()
    wait_until(app, lambda: len(window.controller.model.jobs) == 4, 30, "the pasted image")
    pasted = window.controller.model.jobs[-1]
    wait_until(app, lambda: pasted.state.finished, 120, "the pasted formula")
    window.commands.copy_latex.trigger()
    if app.clipboard().text() == "":
        raise SystemExit(f"no LaTeX was copied from {pasted.path.name}: {pasted.message}")
    settle(app, 0.3)
    shots.append(out / "paste-formula.png")
    window.grab().save(str(shots[-1]))

    dialog = window.preferences_dialog()
    dialog.load()
    dialog.show()
    wait_until(app, lambda: dialog.effective_label.text() != dialog.tr("Reading…"), 30,
               "the device status")
    settle(app)
    for name, tab in (("preferences.png", 0), ("preferences-watched.png", 4),
                      ("preferences-models.png", 2)):
        dialog.tabs.setCurrentIndex(tab)
        settle(app, 0.3)
        shots.append(out / name)
        dialog.grab().save(str(shots[-1]))
    dialog.close()
    window.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "docs" / "screenshots"))
    args = parser.parse_args(argv)
    server, display = start_xvfb()
    os.environ["DISPLAY"] = display
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    os.environ.pop("WAYLAND_DISPLAY", None)
    workdir = Path(tempfile.mkdtemp(prefix="paperlens-screenshots-"))
    os.environ["XDG_DATA_HOME"] = str(workdir / "data")  # pasted images, device decisions
    try:
        for shot in take(args, workdir):
            print(shot)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

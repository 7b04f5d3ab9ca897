"""Screenshots for the README, from the real app under Xvfb: the main window while a document
parses (a partly read document in the queue, the page with its layout boxes before its last
stage), a pasted formula with its LaTeX copied, the preferences (device and why, watched
folders, models), the reading options (a generated report read at pages 2-3, a page range
being typed wrong, Read Again With… open over the window), and the Rendered tab with typeset
display and inline formulas (a page of a mathematics paper from the evaluation set).

    python -m tools.screenshots [--out docs/screenshots] [--only options|math]

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
EQUATIONS = (EVAL_ITEMS / "olmocr-math_2503_04086" / "input.pdf", "group-rings-p1.pdf")
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


def settings_store(workdir: Path):
    """A throwaway settings file whose models are the user's; results go to workdir/out."""
    from settings import SettingsStore

    environ = {k: v for k, v in os.environ.items()
               if k in ("HOME", "XDG_CACHE_HOME", "PAPERLENS_MODEL_DIR")}
    store = SettingsStore(path=workdir / "config" / "settings.json", environ=environ)
    store.set("output.dir", str(workdir / "out"))
    return store


def take(args: argparse.Namespace, workdir: Path) -> list[Path]:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QImage

    from gui.application import build_main_window, create_application
    from gui.queue_model import JobState

    app = create_application(["paperlens"])
    store = settings_store(workdir)
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
    for name, tab in (("preferences.png", dialog.tabs.widget(0)),
                      ("preferences-watched.png", dialog.watched),
                      ("preferences-models.png", dialog.models.parentWidget())):
        dialog.tabs.setCurrentWidget(tab)
        settle(app, 0.3)
        shots.append(out / name)
        dialog.grab().save(str(shots[-1]))
    dialog.close()
    window.close()
    return shots


def write_report(path: Path) -> Path:
    """Three pages of a quarterly report with a running header and page numbers; a table of
    orders on page 3."""
    import pymupdf

    rows = (("Region", "Orders", "Revenue (k)"), ("North", "1,204", "340"),
            ("South", "951", "281"), ("West", "780", "212"))
    document = pymupdf.open()
    for number in (1, 2, 3):
        page = document.new_page(width=595, height=842)
        page.insert_text((72, 40), "Northwind Trading · Quarterly Review", fontsize=9)
        page.insert_text((292, 815), str(number), fontsize=9)
        if number == 1:
            page.insert_text((72, 300), "Quarterly Review", fontsize=32)
            page.insert_text((72, 340), "Third quarter, for the board", fontsize=14)
            continue
        page.insert_text((72, 100), "Orders" if number == 3 else "Summary", fontsize=18)
        text = ("Orders rose in every region this quarter, led by the north, while costs "
                "stayed flat. The figures are rounded to the nearest thousand. ") * 3
        page.insert_textbox(pymupdf.Rect(72, 120, 523, 260), text, fontsize=11)
        if number == 3:
            left, top, width, height = 72, 290, 150, 28
            for r, cells in enumerate(rows):
                for c, cell in enumerate(cells):
                    page.insert_text((left + c * width + 8, top + r * height + 19), cell,
                                     fontsize=11)
            for r in range(len(rows) + 1):
                page.draw_line((left, top + r * height), (left + 3 * width, top + r * height))
            for c in range(4):
                page.draw_line((left + c * width, top), (left + c * width,
                                                         top + len(rows) * height))
    document.save(str(path))
    document.close()
    return path


def with_dialog(window_image, dialog_image, at):
    """The window's picture with the dialog's laid on it at `at`, framed and shadowed."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QColor, QPainter

    picture = window_image.toImage()
    painter = QPainter(picture)
    area = QRect(at, dialog_image.size() / dialog_image.devicePixelRatio())
    for spread, alpha in ((8, 14), (5, 22), (3, 30)):
        painter.fillRect(area.adjusted(-spread + 3, -spread + 5, spread + 3, spread + 5),
                         QColor(0, 0, 0, alpha))
    painter.drawPixmap(area, dialog_image)
    painter.setPen(QColor("#8a8a8a"))
    painter.drawRect(area.adjusted(-1, -1, 0, 0))
    painter.end()
    return picture


def take_options(args: argparse.Namespace, workdir: Path) -> list[Path]:
    """The reading options: a report read at pages 2-3 with headers kept and tables as
    Markdown, a page range typed wrong beside the queue, and Read Again With… drawn over the
    window where it opens (Xvfb has no window manager to frame it: a border and a shadow
    stand in for the frame)."""
    from PySide6.QtTest import QTest

    from gui.application import build_main_window, create_application

    app = create_application(["paperlens"])
    workdir = workdir / "options"  # its own settings: no watched folders, an empty queue
    workdir.mkdir()
    store = settings_store(workdir)
    store.set("output.keep_furniture", True)
    store.set("output.table_format", "markdown")
    window = build_main_window(store)
    window.resize(*WINDOW_SIZE)
    window.move(0, 0)
    window.show()
    inbox = workdir / "reports"
    inbox.mkdir()
    window.pages_edit.edit.setText("2-3")
    window.add_paths([write_report(inbox / "q3-review.pdf")])
    [job] = window.controller.model.jobs
    window.queue_view.select_job(job.id)
    wait_until(app, lambda: job.state.finished, 300, "the report")
    if not job.state.written:
        raise SystemExit(f"{job.path.name}: {job.state.value} {job.message}")
    window.preview.select_page(1)  # the page with the table
    window.pages_edit.edit.clear()
    QTest.keyClicks(window.pages_edit.edit, "5-3")  # typed wrong: the message shows at once
    dialog = window.read_again.open()
    dialog.pages_edit.edit.setText("3")
    dialog.switches.table_combo.setCurrentIndex(dialog.switches.table_combo.findData("html"))
    settle(app, 1.0)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shot = out / "options.png"
    with_dialog(window.grab(), dialog.grab(),
                dialog.geometry().topLeft() - window.geometry().topLeft()).save(str(shot))
    dialog.reject()
    window.close()
    return [shot]


def take_math(args: argparse.Namespace, workdir: Path) -> list[Path]:
    """The Rendered tab of a page of a mathematics paper: display formulas typeset, and inline
    ones within their sentences."""
    from gui.application import build_main_window, create_application
    from gui.math_view import MATH_SCHEME
    from gui.markdown_pane import image_positions

    app = create_application(["paperlens"])
    workdir = workdir / "math"
    workdir.mkdir()
    window = build_main_window(settings_store(workdir))
    window.resize(*WINDOW_SIZE)
    window.move(0, 0)
    window.show()
    source, name = EQUATIONS
    if not source.is_file():
        raise SystemExit(f"document not found: {source}")
    inbox = workdir / "documents"
    inbox.mkdir()
    window.add_paths([Path(shutil.copyfile(source, inbox / name))])
    [job] = window.controller.model.jobs
    window.queue_view.select_job(job.id)
    wait_until(app, lambda: job.state.finished, 300, "the mathematics page")
    if not job.state.written:
        raise SystemExit(f"{job.path.name}: {job.state.value} {job.message}")
    pane = window.preview.markdown
    pane.setCurrentWidget(pane.rendered)
    splitter = window.preview.splitter  # the text wide enough for the formula crops (640 px)
    splitter.setSizes([70, 300, sum(splitter.sizes()) - 370])
    document = pane.rendered.document()
    wait_until(app, lambda: sum(name.startswith(MATH_SCHEME)
                                for name in image_positions(document)) >= 2, 60,
               "the formulas to be typeset")
    settle(app, 1.0)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shot = out / "rendered-math.png"
    window.grab().save(str(shot))
    window.close()
    return [shot]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "docs" / "screenshots"))
    parser.add_argument("--only", choices=["options", "math"],
                        help="take only these screenshots (options: options.png; math: "
                             "rendered-math.png)")
    args = parser.parse_args(argv)
    server, display = start_xvfb()
    os.environ["DISPLAY"] = display
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    os.environ.pop("WAYLAND_DISPLAY", None)
    workdir = Path(tempfile.mkdtemp(prefix="paperlens-screenshots-"))
    os.environ["XDG_DATA_HOME"] = str(workdir / "data")  # pasted images, device decisions
    try:
        shots = [] if args.only else take(args, workdir)
        if args.only in (None, "options"):
            shots += take_options(args, workdir)
        if args.only in (None, "math"):
            shots += take_math(args, workdir)
        for shot in shots:
            print(shot)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

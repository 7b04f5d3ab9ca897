"""Screenshots for the README: the main window during a parse and the preferences, under Xvfb.

    python -m tools.screenshots [--out docs/screenshots]

Starts a private Xvfb display (Debian: apt-get install xvfb, plus Qt's xcb libraries:
libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-image0 libxcb-render-util0
libxkbcommon-x11-0), runs the real app on it with a throwaway settings file (never the user's),
queues real documents from the evaluation set, grabs the window while the second document
parses, then the preferences dialog. Models come from the user's model cache.
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


def take(args: argparse.Namespace, workdir: Path) -> list[Path]:
    from gui.application import build_main_window, create_application
    from gui.queue_model import JobState
    from settings import SettingsStore

    app = create_application(["paperlens"])
    environ = {k: v for k, v in os.environ.items()
               if k in ("HOME", "XDG_CACHE_HOME", "PAPERLENS_MODEL_DIR")}
    store = SettingsStore(path=workdir / "config" / "settings.json", environ=environ)
    store.set("output.dir", str(workdir / "out"))
    window = build_main_window(store)
    window.resize(*WINDOW_SIZE)
    window.show()
    missing = [str(EVAL_ITEMS / item) for item, _ in DOCUMENTS if not (EVAL_ITEMS / item).is_file()]
    if missing:
        raise SystemExit(f"documents not found: {', '.join(missing)}")
    inbox = workdir / "documents"
    inbox.mkdir()
    documents = [Path(shutil.copyfile(EVAL_ITEMS / item, inbox / name)) for item, name in DOCUMENTS]
    window.add_paths(documents)
    first, second, _third = window.controller.model.jobs
    wait_until(app, lambda: first.state.finished, 300, "the first document")
    if first.state is not JobState.DONE:
        raise SystemExit(f"{first.path.name}: {first.message}")
    window.queue_view.select_job(first.id)
    wait_until(app, lambda: window.preview.page_view.has_image, 60, "the page picture")
    blocks = window.preview.job.pages[window.preview.page_index].blocks
    table = next((i for i, b in enumerate(blocks) if str(b.kind.value) == "table"), 0)
    window.preview.select_block(window.preview.page_index, table)
    # Grab while the second document is between its pages: "Page 2 of 2" in the queue.
    wait_until(app, lambda: second.pages_done >= 1 or second.state.finished, 300,
               "a page of the second document")
    settle(app, 0.15)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shots = [out / "main-window.png"]
    window.grab().save(str(shots[0]))

    wait_until(app, lambda: window.controller.running is None, 300, "the queue to finish")
    dialog = window.preferences_dialog()
    dialog.load()
    dialog.show()
    wait_until(app, lambda: dialog.effective_label.text() != dialog.tr("Reading…"), 30,
               "the device status")
    settle(app)
    shots.append(out / "preferences.png")
    dialog.grab().save(str(shots[-1]))
    dialog.tabs.setCurrentIndex(2)
    settle(app, 0.3)
    shots.append(out / "preferences-models.png")
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

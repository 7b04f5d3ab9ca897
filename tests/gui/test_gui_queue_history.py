"""History: converted documents stay in the queue across restarts, with their outputs and
status, until the user removes them; each can show its folder or its Markdown file."""

from __future__ import annotations

import json
import subprocess
import sys
import shutil
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices

from gui.queue_history import HISTORY_FILE_NAME, QueueHistory
from gui.queue_model import JobState, QueueModel, page_problems, status_text
from stepped_engine import SteppedEngine

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]


class OpenedUrls(QObject):
    """Takes the place of the desktop for file URLs: records what would have been opened."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@pytest.fixture
def opened_urls():
    handler = OpenedUrls()
    QDesktopServices.setUrlHandler("file", handler, "open")
    yield handler.urls
    QDesktopServices.unsetUrlHandler("file")


def documents(tmp_path: Path, *names: str) -> list[Path]:
    paths = []
    for name in names:
        (tmp_path / name).write_bytes(b"%PDF-1.7\n")
        paths.append(tmp_path / name)
    return paths


def test_the_queue_comes_back_after_a_restart_until_removed(qtbot, make_window, gui_store,
                                                            tmp_path, opened_urls):
    engine = SteppedEngine(free=True, partial_pages=(2,))
    first = make_window(lambda _settings: engine)
    report, broken, waiting = documents(tmp_path, "report.pdf", "broken.pdf", "later.pdf")
    first.add_paths([report, broken])
    qtbot.waitUntil(lambda: all(j.state.finished for j in first.controller.model.jobs),
                    timeout=20_000)
    engine.free = False  # the third document is still being read when the window closes
    first.add_paths([waiting])
    qtbot.waitUntil(lambda: first.controller.running is not None)
    before = [(j.path, j.state, status_text(j), j.outputs, page_problems(j))
              for j in first.controller.model.jobs]
    assert [state for _, state, *_ in before] == [JobState.PARTIAL, JobState.FAILED,
                                                  JobState.PARSING]
    first.close()
    assert (gui_store.path.parent / HISTORY_FILE_NAME).is_file()

    second = make_window(lambda _settings: SteppedEngine())
    jobs = second.controller.model.jobs
    after = [(j.path, j.state, status_text(j), j.outputs, page_problems(j)) for j in jobs]
    assert after[:2] == before[:2]
    assert status_text(jobs[0]) == "Partly done: page(s) 2 not read"
    assert page_problems(jobs[0]) == ["Page 2 (table): ValueError: the table model gave no cells"]
    assert status_text(jobs[1]) == "Failed: broken.pdf is damaged and cannot be opened."
    assert (after[2][0], after[2][1]) == (waiting, JobState.CANCELLED)  # Retry reads it again
    assert second.controller.running is None  # nothing starts by itself

    # The restored document shows its Markdown from its file; its folder and file open.
    second.queue_view.select_job(jobs[0].id)
    qtbot.waitUntil(lambda: "text of page 2" in second.preview.source.toPlainText(),
                    timeout=10_000)
    assert "earlier session" in second.preview.page_view.scene().items()[0].text()
    commands = second.commands
    assert commands.open_output.isEnabled() and commands.reveal.isEnabled()
    assert commands.export.isEnabled() and not commands.copy_markdown.isEnabled()
    assert {commands.open_output, commands.reveal, commands.remove} <= set(
        second.queue_view.actions())  # the queue's right-click menu
    commands.open_output.trigger()
    assert opened_urls[-1] == QUrl.fromLocalFile(str(tmp_path / "out"))
    exported = second.export_selected(tmp_path / "exported")
    assert [p.name for p in exported] == ["report.md"]

    # Removing takes it off for good; a retried document is kept as what it becomes.
    second.queue_view.select_job(jobs[1].id)
    second.remove_selected()
    second.close()
    third = make_window(lambda _settings: SteppedEngine())
    assert [j.path for j in third.controller.model.jobs] == [report, waiting]


def test_an_unreadable_queue_file_starts_an_empty_queue(qtbot, make_window, gui_store, caplog):
    path = gui_store.path.parent / HISTORY_FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    window = make_window(lambda _settings: SteppedEngine())
    assert window.controller.model.jobs == []
    assert "could not be read" in caplog.text
    path.write_text(json.dumps({"version": 1, "jobs": [
        {"path": "/a.pdf", "output_dir": "/out", "output_name": "a", "state": "done"},
        {"path": "/b.pdf", "state": "done"},  # no output folder: skipped
    ]}), encoding="utf-8")
    assert [str(j.path) for j in QueueHistory(gui_store.path).load()] == ["/a.pdf"]


def test_saving_goes_through_the_atomic_writer_only_when_something_changed(tmp_path,
                                                                          monkeypatch):
    history = QueueHistory(tmp_path / "settings.json")
    model = QueueModel()
    job = model.add(tmp_path / "a.pdf", tmp_path / "out")
    job.state, job.outputs = JobState.DONE, (str(tmp_path / "out" / "a.md"),)
    writes = []
    monkeypatch.setattr("gui.queue_history.write_atomic",
                        lambda path, data: writes.append((path, data)))
    history.save(model.jobs, wait=True)
    history.save(model.jobs, wait=True)
    assert len(writes) == 1 and writes[0][0] == tmp_path / HISTORY_FILE_NAME
    assert writes[0][1]["jobs"][0]["outputs"] == [str(tmp_path / "out" / "a.md")]
    job.state = JobState.FAILED
    history.save(model.jobs, wait=True)
    assert len(writes) == 2 and writes[1][1]["jobs"][0]["state"] == "failed"


@pytest.mark.skipif(shutil.which("dbus-run-session") is None, reason="no dbus-run-session")
def test_reveal_asks_the_file_manager_to_select_the_markdown(tmp_path):
    """Over the session bus, as file managers offer it (org.freedesktop.FileManager1)."""
    script = textwrap.dedent(f"""
        from pathlib import Path
        from PySide6.QtCore import ClassInfo, QObject, QTimer, Slot
        from PySide6.QtGui import QGuiApplication
        from PySide6.QtDBus import QDBusConnection
        from gui.reveal import FILE_MANAGER, FILE_MANAGER_PATH, reveal_file

        @ClassInfo({{"D-Bus Interface": FILE_MANAGER}})
        class FileManager(QObject):
            shown = []

            @Slot("QStringList", str)
            def ShowItems(self, uris, startup_id):
                self.shown.append(list(uris))
                QTimer.singleShot(0, app.quit)

        app = QGuiApplication([])
        bus = QDBusConnection.sessionBus()
        manager = FileManager()
        bus.registerObject(FILE_MANAGER_PATH, manager,
                           QDBusConnection.RegisterOption.ExportAllSlots)
        bus.registerService(FILE_MANAGER)
        reveal_file(Path({str(tmp_path / "out" / "report.md")!r}))
        QTimer.singleShot(10_000, app.quit)
        app.exec()
        print("shown", manager.shown)
    """)
    run = subprocess.run(["dbus-run-session", "--", sys.executable, "-c", script], cwd=ROOT,
                         capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen",
                              "HOME": str(tmp_path)})
    expected = QUrl.fromLocalFile(str(tmp_path / "out" / "report.md")).toString()
    assert f"shown [['{expected}']]" in run.stdout, run.stdout + run.stderr


def test_without_a_file_manager_to_ask_reveal_opens_the_folder(tmp_path, opened_urls,
                                                              monkeypatch):
    from gui import reveal

    monkeypatch.setattr(reveal, "_show_items", lambda _path: False)
    monkeypatch.setattr(reveal.sys, "platform", "linux")
    reveal.reveal_file(tmp_path / "out" / "report.md")
    assert opened_urls == [QUrl.fromLocalFile(str(tmp_path / "out"))]

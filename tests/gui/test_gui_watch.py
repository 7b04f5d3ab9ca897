"""Watched folders: a document that appears in one is converted into its output folder once it
is complete, exactly once (also after a restart, also under another name); a bad file is
reported in the log and the next file still converts."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil

import pytest

from gui.queue_model import JobState
from gui.watch_records import RECORDS_FILE_NAME
from gui_samples import write_encrypted_pdf, write_text_pdf
from settings import InvalidSetting
from stepped_engine import SteppedEngine

pytestmark = pytest.mark.gui


@pytest.fixture
def watch_log(caplog):
    caplog.set_level(logging.INFO, logger="gui")
    return caplog


def jobs_for(window, name: str) -> list:
    return [j for j in window.controller.model.jobs if j.path.name == name]


def test_a_document_dropped_into_a_watched_folder_converts_once_also_after_a_restart(
        qtbot, make_window, gui_store, tmp_path, watch_log):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    window = make_window(lambda _settings: SteppedEngine(free=True))
    dialog = window.preferences_dialog()  # Preferences > Watched folders > Add…
    assert dialog.watched.add_folder(inbox)
    output = inbox / "converted"
    assert [(w.folder, w.output) for w in window.watcher.folders] == [(inbox, output)]
    assert dialog.watched.table.item(0, 1).text() == str(output)

    # Written in two parts with a pause between: nothing is taken before it is complete.
    content = write_text_pdf(tmp_path / "source.pdf", pages=1).read_bytes()
    for temporary in (".report.pdf", "report.pdf.crdownload"):  # copy tools' and browsers'
        (inbox / temporary).write_bytes(content)
    report = inbox / "report.pdf"
    with open(report, "wb") as stream:
        stream.write(content[:len(content) // 2])
        stream.flush()
        qtbot.wait(1200)
        assert window.controller.model.jobs == []
        stream.write(content[len(content) // 2:])
    qtbot.waitUntil(lambda: (output / "report.md").is_file(), timeout=20_000)
    [job] = window.controller.model.jobs
    qtbot.waitUntil(lambda: job.state.finished)
    assert job.state is JobState.DONE and job.output_dir == output

    # The same content again, touched or under another name: skipped, and said so.
    os.utime(report, (1_000_000_000, 1_000_000_000))
    shutil.copyfile(report, inbox / "report copy.pdf")
    qtbot.waitUntil(lambda: "report copy.pdf skipped: the same content was converted" in
                    watch_log.text and "report.pdf skipped" in watch_log.text, timeout=20_000)
    assert len(window.controller.model.jobs) == 1
    window.close()
    records = json.loads((gui_store.path.parent / RECORDS_FILE_NAME).read_text())["files"]
    assert [(r["sha256"], r["state"]) for r in records] == [
        (hashlib.sha256(content).hexdigest(), "done")]

    # A new window on the same settings: the folder is still watched, nothing converts twice,
    # and a new document does.
    watch_log.clear()
    engine = SteppedEngine(free=True)
    second = make_window(lambda _settings: engine)
    assert [w.folder for w in second.watcher.folders] == [inbox]
    qtbot.waitUntil(lambda: "report.pdf skipped" in watch_log.text
                    and "report copy.pdf skipped" in watch_log.text, timeout=20_000)
    assert [j.state for j in second.controller.model.jobs] == [JobState.DONE]  # the history's
    assert engine.sent == []
    write_text_pdf(inbox / "letter.pdf", pages=1)
    qtbot.waitUntil(lambda: (output / "letter.md").is_file(), timeout=20_000)
    assert [j.path.name for j in second.controller.model.jobs] == ["report.pdf", "letter.pdf"]
    assert sorted(p.name for p in output.glob("*.md")) == ["letter.md", "report.md"]

    # Taken off the list: new documents stay where they are.
    second.preferences_dialog().watched.table.selectRow(0)
    assert second.preferences_dialog().watched.remove_selected()
    assert second.watcher.folders == ()
    write_text_pdf(inbox / "later.pdf", pages=1)
    qtbot.wait(2500)
    assert not (output / "later.md").exists()


@pytest.mark.model
def test_a_bad_file_is_logged_and_never_holds_up_the_next(qtbot, make_window, gui_store, engine,
                                                          tmp_path, watch_log):
    inbox, output = tmp_path / "inbox", tmp_path / "converted"
    inbox.mkdir()
    gui_store.set("watch.folders", [{"folder": str(inbox), "output": str(output)}])
    window = make_window(lambda _settings: engine)
    window.password_prompt = lambda job, wrong: pytest.fail("a watched file asked for a password")
    (inbox / "broken.pdf").write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    write_encrypted_pdf(inbox / "locked.pdf", "s3cret")
    qtbot.waitUntil(lambda: len(window.controller.model.jobs) == 2, timeout=30_000)
    write_text_pdf(inbox / "notes.pdf", pages=1)
    qtbot.waitUntil(lambda: (output / "notes.md").is_file(), timeout=120_000)

    [broken], [locked], [notes] = (jobs_for(window, n) for n in ("broken.pdf", "locked.pdf",
                                                                  "notes.pdf"))
    qtbot.waitUntil(lambda: notes.state.finished)
    assert (broken.state, broken.error_kind) == (JobState.FAILED, "CorruptDocument")
    assert (locked.state, locked.error_kind) == (JobState.FAILED, "PasswordRequired")
    assert notes.state is JobState.DONE and "quick brown" in notes.result.markdown
    warnings = [r.getMessage() for r in watch_log.records if r.levelno == logging.WARNING]
    assert any("broken.pdf could not be converted" in w and broken.message in w
               for w in warnings), warnings
    assert any("locked.pdf could not be converted" in w and "password" in w for w in warnings)

    # A failed file is not tried again until its content changes.
    watch_log.clear()
    window.watcher.scan()
    qtbot.wait(2500)
    assert len(jobs_for(window, "broken.pdf")) == 1
    write_text_pdf(inbox / "broken.pdf", pages=1)  # mended
    qtbot.waitUntil(lambda: [j.state for j in jobs_for(window, "broken.pdf")]
                    == [JobState.FAILED, JobState.DONE], timeout=120_000)
    assert (output / "broken.md").is_file()


def test_a_watched_folder_must_not_be_its_own_output(gui_store, tmp_path):
    with pytest.raises(InvalidSetting, match="watch.folders"):
        gui_store.set("watch.folders", [{"folder": str(tmp_path), "output": str(tmp_path)}])
    with pytest.raises(InvalidSetting, match="watch.folders"):
        gui_store.set("watch.folders", [{"folder": str(tmp_path), "output": "a"},
                                        {"folder": str(tmp_path), "output": "b"}])
    saved = gui_store.set("watch.folders", [{"folder": "~/in", "output": "out"}])
    [watched] = saved.watch.folders
    assert watched.folder.is_absolute() and watched.output == gui_store.path.parent / "out"


def test_an_unreadable_watched_folder_is_reported_and_watched_again_when_back(
        qtbot, make_window, gui_store, tmp_path, watch_log):
    inbox, output = tmp_path / "later", tmp_path / "converted"
    gui_store.set("watch.folders", [{"folder": str(inbox), "output": str(output)}])
    window = make_window(lambda _settings: SteppedEngine(free=True))
    qtbot.waitUntil(lambda: f"the watched folder {inbox} cannot be read" in watch_log.text,
                    timeout=20_000)
    inbox.mkdir()
    write_text_pdf(inbox / "scan.pdf", pages=1)
    window.watcher.scan()  # the slow rescan, without waiting for it
    qtbot.waitUntil(lambda: (output / "scan.md").is_file(), timeout=20_000)
    assert f"the watched folder {inbox} can be read again" in watch_log.text


def test_a_failure_that_is_not_the_files_is_tried_again_next_session(qtbot, make_window,
                                                                      gui_store, tmp_path,
                                                                      watch_log):
    inbox, output = tmp_path / "inbox", tmp_path / "converted"
    inbox.mkdir()
    output.write_text("a file where the output folder should be")
    gui_store.set("watch.folders", [{"folder": str(inbox), "output": str(output)}])
    window = make_window(lambda _settings: SteppedEngine(free=True))
    write_text_pdf(inbox / "memo.pdf", pages=1)
    qtbot.waitUntil(lambda: "memo.pdf could not be converted" in watch_log.text, timeout=20_000)
    [job] = window.controller.model.jobs
    assert job.state is JobState.FAILED and job.error_kind == "FileExistsError"
    window.close()

    output.unlink()  # the folder can be made now
    second = make_window(lambda _settings: SteppedEngine(free=True))
    qtbot.waitUntil(lambda: [j.state for j in second.controller.model.jobs]
                    == [JobState.FAILED, JobState.DONE], timeout=20_000)
    assert (output / "memo.md").is_file()

"""The queue model: parse order, status words, output names that never collide."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui.queue_model import JobState, QueueModel, status_text, unique_output_name

pytestmark = pytest.mark.gui


def test_jobs_keep_the_order_they_were_added(qtbot, tmp_path):
    model = QueueModel()
    a = model.add(tmp_path / "a.pdf", tmp_path)
    b = model.add(tmp_path / "b.png", tmp_path)
    assert model.rowCount() == 2
    assert model.next_waiting() is a
    a.state = JobState.DONE
    assert model.next_waiting() is b
    assert model.add(tmp_path / "b.png", tmp_path) is None  # already waiting
    assert model.data(model.index(1, QueueModel.NAME)) == "b.png"


def test_status_words(qtbot, tmp_path):
    job = QueueModel().add(tmp_path / "a.pdf", tmp_path)
    assert status_text(job) == "Waiting"
    job.state, job.page_count, job.pages_done = JobState.PARSING, 5, 2
    assert status_text(job) == "Page 3 of 5"
    job.state, job.message = JobState.FAILED, "a.pdf is damaged and cannot be opened."
    assert status_text(job) == "Failed: a.pdf is damaged and cannot be opened."
    job.state = JobState.CANCELLED
    assert status_text(job) == "Cancelled"
    job.state, job.warnings = JobState.DONE, ["page 2: skipped"]
    assert status_text(job) == "Done with warnings (1)"


def test_progress_counts_pages_of_the_running_document(qtbot, tmp_path):
    model = QueueModel()
    done = model.add(tmp_path / "a.pdf", tmp_path)
    running = model.add(tmp_path / "b.pdf", tmp_path)
    model.add(tmp_path / "c.pdf", tmp_path)
    done.state = JobState.DONE
    running.state, running.page_count, running.pages_done = JobState.PARSING, 4, 2
    assert model.progress() == (1.5, 3)
    assert model.data(model.index(1, QueueModel.STATUS), QueueModel.ProgressRole) == (2, 4)


def test_same_stem_in_one_folder_gets_a_distinct_output_name(qtbot, tmp_path):
    model = QueueModel()
    first = model.add(tmp_path / "x" / "scan.pdf", tmp_path / "out")
    second = model.add(tmp_path / "y" / "scan.png", tmp_path / "out")
    elsewhere = model.add(tmp_path / "z" / "scan.pdf", tmp_path / "other")
    assert (first.output_name, second.output_name, elsewhere.output_name) == \
        ("scan", "scan-2", "scan")
    assert unique_output_name("a", Path("o"), [(Path("o"), "A"), (Path("o"), "a-2")]) == "a-3"


def test_remove_and_reset(qtbot, tmp_path):
    model = QueueModel()
    job = model.add(tmp_path / "a.pdf", tmp_path)
    job.state = JobState.PARSING
    assert not model.remove(job.id)  # never the one being parsed
    job.state, job.message = JobState.FAILED, "bad"
    job.reset()
    assert job.state is JobState.WAITING and job.message == "" and not job.cancel.is_set()
    assert model.remove(job.id) and model.rowCount() == 0

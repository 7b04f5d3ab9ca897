"""The reading options of the window: the page range typed beside the queue (checked as it is
typed, by the CLI's parser), the switches in Preferences > Reading (remembered, applied to the
documents added afterwards), Read Again With… from the queue's menu, and the choices reaching
the engine in its child process (a generated 3-page report read twice)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialogButtonBox

from engine.errors import InvalidOptions
from engine.options import parse_page_ranges
from engine.types import DocumentResult
from gui.queue_history import QueueHistory
from gui.queue_model import JobState, QueueModel
from gui.reading_choices import ReadingChoices, format_page_ranges
from gui_samples import run_again_under_xvfb

pytestmark = pytest.mark.gui

HEADER = "Northwind Quarterly Review"
TABLE = [["Region", "Orders", "Revenue"], ["North", "1200", "340"], ["South", "950", "280"]]


class RecordingEngine:
    """Stands in for the Engine: keeps the options each document was converted with."""

    def __init__(self, _settings) -> None:
        self.options: list = []

    def device_status(self):
        from engine.device.status import DeviceStatus

        return DeviceStatus(configured="cpu", configured_origin="default")

    def convert(self, path, options, on_event, cancel) -> DocumentResult:
        self.options.append(options)
        return DocumentResult(path=str(path), kind="pdf", page_count=0, pages=(), markdown="",
                              outputs=())


@pytest.fixture
def recording_window(make_window):
    window = make_window(RecordingEngine)
    window.show()
    return window


def documents(folder: Path, *names: str) -> list[Path]:
    folder.mkdir(exist_ok=True)
    paths = [folder / name for name in names]
    for path in paths:
        path.write_bytes(b"%PDF-1.4\n")  # never opened: the engine here is a stand-in
    return paths


def type_pages(qtbot, window, text: str) -> None:
    window.pages_edit.edit.clear()
    qtbot.keyClicks(window.pages_edit.edit, text)


def click_box(qtbot, check) -> None:
    """A click on the check box's square, as a person ticks it."""
    qtbot.mouseClick(check, Qt.MouseButton.LeftButton, pos=QPoint(8, check.height() // 2))


def converted_options(qtbot, window, count: int) -> list:
    qtbot.waitUntil(lambda: window.controller.worker.engine is not None and len(
        window.controller.worker.engine.options) == count and window.controller.running is None)
    return window.controller.worker.engine.options


def test_the_page_range_is_checked_as_it_is_typed(qtbot, recording_window, tmp_path):
    window = recording_window
    print(f"platform: {QGuiApplication.platformName()}")  # read by the run under X below
    field = window.pages_edit
    type_pages(qtbot, window, "1-3,7")
    assert field.valid and field.pages == (1, 2, 3, 7) == window.controller.pages
    assert field.message.isHidden()
    for typed in ("3-1", "1-x", "0"):
        type_pages(qtbot, window, typed)
        with pytest.raises(InvalidOptions) as cli_says:
            parse_page_ranges(typed)
        # The message shown is the CLI's own, under the field, as soon as the text is typed.
        assert not field.valid and field.message.isVisible()
        assert field.message.text() == field.error == cli_says.value.message
    assert "runs backwards" not in field.message.text()  # the last one typed is shown
    # While it is no page range, nothing is added: a document is never read whole by mistake.
    [report] = documents(tmp_path / "in", "report.pdf")
    window.add_paths([report])
    assert window.controller.model.jobs == []
    assert "pages start at 1" in window.status_label.text()
    type_pages(qtbot, window, "2-3")
    window.add_paths([report])
    [job] = window.controller.model.jobs
    assert job.choices.pages == (2, 3)
    assert window.controller.model.index(0, QueueModel.NAME).data() == "report.pdf · pages 2-3"
    [options] = converted_options(qtbot, window, 1)
    assert options.pages == (2, 3)
    window.pages_edit.edit.clear()  # empty: every page
    assert field.valid and field.message.isHidden() and window.controller.pages is None


def test_switches_are_preferences_for_the_documents_added_afterwards(qtbot, recording_window,
                                                                     gui_store, tmp_path):
    window = recording_window
    first, second = documents(tmp_path / "in", "first.pdf", "second.pdf")
    window.add_paths([first])
    dialog = window.preferences_dialog()
    dialog.show()
    assert dialog.tabs.tabText(dialog.tabs.indexOf(dialog.switches.parentWidget())) == "Reading"
    switches = dialog.switches
    assert not switches.furniture_check.isChecked() and switches.inline_math_check.isChecked()
    assert switches.dewarp_check.isChecked()
    click_box(qtbot, switches.furniture_check)
    click_box(qtbot, switches.inline_math_check)
    click_box(qtbot, switches.dewarp_check)
    switches.table_combo.setCurrentIndex(switches.table_combo.findData("markdown"))
    switches.layout_combo.setCurrentIndex(switches.layout_combo.findData("cdla"))
    # Remembered as the other preferences are: in the settings file, shown again next time.
    output = json.loads(gui_store.path.read_text(encoding="utf-8"))["output"]
    assert (output["keep_furniture"], output["inline_math"], output["table_format"],
            output["dewarp"]) == (True, False, "markdown", False)
    dialog.close()
    dialog.load()
    assert switches.furniture_check.isChecked() and not switches.inline_math_check.isChecked()
    assert switches.layout_combo.currentData() == "cdla" and not switches.dewarp_check.isChecked()

    window.add_paths([second])
    before, after = converted_options(qtbot, window, 2)
    assert (before.keep_furniture, before.inline_math, before.table_format,
            before.layout_model, before.dewarp) == (False, True, "html", "yolov8n-doclaynet",
                                                    True)
    assert (after.keep_furniture, after.inline_math, after.table_format,
            after.layout_model, after.dewarp) == (True, False, "markdown", "cdla-picodet", False)
    assert after.pages is None
    tip = window.controller.model.index(1, QueueModel.NAME).data(Qt.ItemDataRole.ToolTipRole)
    assert ("Read with: every page, tables as Markdown, headers and footers kept, formulas in "
            "text as printed, layout by CDLA, photos read as taken") in tip
    # A file of a watched folder is read with the switches too, never a typed page range.
    type_pages(qtbot, window, "2")
    watched = window.controller.add_file(first, tmp_path / "watched-out")
    assert watched.choices == ReadingChoices(keep_furniture=True, table_format="markdown",
                                             inline_math=False, layout="cdla", dewarp=False)


def read_again(qtbot, window, job, pages: str, table_format: str, furniture: bool = False):
    """Choose `job` in the queue, open Read Again With… from its menu and read it so."""
    window.queue_view.select_job(job.id)
    assert window.commands.read_again in window.queue_view.actions()  # the right-click menu
    assert window.commands.read_again.isEnabled()
    window.commands.read_again.trigger()
    dialog = window.read_again.dialog
    assert dialog.isVisible()
    dialog.pages_edit.edit.clear()
    qtbot.keyClicks(dialog.pages_edit.edit, pages)
    dialog.switches.table_combo.setCurrentIndex(dialog.switches.table_combo.findData(table_format))
    dialog.switches.furniture_check.setChecked(furniture)
    qtbot.mouseClick(dialog.read_button, Qt.MouseButton.LeftButton)


def test_read_again_with_other_choices_from_the_queue(qtbot, recording_window, tmp_path):
    window = recording_window
    [report] = documents(tmp_path / "in", "report.pdf")
    type_pages(qtbot, window, "1-2")
    window.add_paths([report])
    converted_options(qtbot, window, 1)
    [first] = window.controller.model.jobs
    assert first.state is JobState.DONE

    window.queue_view.select_job(first.id)
    window.commands.read_again.trigger()
    dialog = window.read_again.dialog
    # Filled in with how it was read; Read only while the pages are a page range.
    assert dialog.pages_edit.edit.text() == "1-2"
    assert dialog.switches.table_combo.currentData() == "html"
    qtbot.keyClicks(dialog.pages_edit.edit, "-")
    assert not dialog.read_button.isEnabled() and dialog.pages_edit.message.isVisible()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert len(window.controller.model.jobs) == 1

    read_again(qtbot, window, first, "3", "markdown")
    again_options = converted_options(qtbot, window, 2)[-1]
    assert again_options.pages == (3,) and again_options.table_format == "markdown"
    earlier, again = window.controller.model.jobs
    assert earlier is first and first.choices.pages == (1, 2)  # the first reading stays
    assert again.choices == ReadingChoices(pages=(3,), table_format="markdown")
    assert window.selected_job() is again

    # Kept across restarts with the queue.
    history = QueueHistory(tmp_path / "config" / "settings.json")
    history.save(window.controller.model.jobs, wait=True)
    assert [job.choices for job in history.load()] == [first.choices, again.choices]

    # While a next reading of the same file waits, another is refused, and the window says so.
    waiting = window.controller.model.add(report, tmp_path / "out")
    read_again(qtbot, window, first, "2", "html")
    assert window.controller.model.jobs[-1] is waiting
    assert window.status_label.text() == ("Not read again: report.pdf is already in the queue "
                                          "to be read.")


@pytest.mark.parametrize("pages, text", [
    ((1, 2, 3, 7), "1-3,7"),
    ((7, 1, 2, 3), "7,1-3"),
    ((5,), "5"),
    ((2, 3, 5, 6, 9), "2-3,5-6,9"),
])
def test_format_page_ranges_reads_back_to_the_same_pages(pages, text):
    assert format_page_ranges(pages) == text
    assert parse_page_ranges(text) == pages


def test_an_older_queue_file_without_choices_reads_every_page(tmp_path):
    history = QueueHistory(tmp_path / "settings.json")
    history.path.write_text(json.dumps({"version": 1, "jobs": [
        {"path": str(tmp_path / "a.pdf"), "output_dir": str(tmp_path), "output_name": "a",
         "state": "done"}]}), encoding="utf-8")
    [job] = history.load()
    assert job.choices == ReadingChoices()


def write_report(path: Path) -> Path:
    """Three pages with a running header and page numbers; page 3 holds a ruled table."""
    import pymupdf

    document = pymupdf.open()
    for number in (1, 2, 3):
        page = document.new_page(width=595, height=842)
        page.insert_text((72, 40), HEADER, fontsize=9)
        page.insert_text((290, 815), str(number), fontsize=9)
        if number == 1:
            page.insert_text((72, 120), "The cover page is not read.", fontsize=12)
        elif number == 2:
            for row, line in enumerate(("Sales grew in every region this quarter.",
                                        "The figures below are rounded to thousands.")):
                page.insert_text((72, 120 + 18 * row), line, fontsize=12)
        else:
            page.insert_text((72, 110), "Orders by region", fontsize=12)
            left, top, width, height = 72, 130, 150, 28
            for r, cells in enumerate(TABLE):
                for c, cell in enumerate(cells):
                    page.insert_text((left + c * width + 8, top + r * height + 19), cell,
                                     fontsize=12)
            for r in range(len(TABLE) + 1):
                page.draw_line((left, top + r * height), (left + 3 * width, top + r * height))
            for c in range(4):
                page.draw_line((left + c * width, top), (left + c * width,
                                                         top + len(TABLE) * height))
    document.save(str(path))
    document.close()
    return path


@pytest.mark.model
def test_the_choices_reach_the_engine_process(qtbot, make_window, default_models, tmp_path):
    """The shipping engine (a child process): pages 2-3 of a generated report with headers kept
    and tables as Markdown, then read again with HTML tables and headers left out."""
    window = make_window()  # no engine factory: the engine runs in its child process
    window.show()
    report = write_report(tmp_path / "report.pdf")
    dialog = window.preferences_dialog()
    dialog.switches.furniture_check.setChecked(True)
    dialog.switches.table_combo.setCurrentIndex(dialog.switches.table_combo.findData("markdown"))
    type_pages(qtbot, window, "2-3")
    with qtbot.waitSignal(window.controller.jobFinished, timeout=120_000):
        window.add_paths([report])
    [first] = window.controller.model.jobs
    assert first.state is JobState.DONE, first.message
    from gui.engine_process import EngineProcess

    assert isinstance(window.controller.worker.engine, EngineProcess)
    markdown = first.markdown_path.read_text(encoding="utf-8")
    assert [page.page_number for page in first.result.pages] == [2, 3]
    assert "cover page" not in markdown and "Sales grew" in markdown
    assert markdown.count(HEADER) == 2  # kept on both pages read
    assert "| Region | Orders | Revenue |" in markdown and "<table>" not in markdown
    pages = json.loads(first.markdown_path.with_suffix(".json").read_text())["pages"]
    assert [page["page_number"] for page in pages] == [2, 3]

    with qtbot.waitSignal(window.controller.jobFinished, timeout=120_000):
        read_again(qtbot, window, first, "3", "html", furniture=False)
    again = window.controller.model.jobs[-1]
    assert again is not first and again.state is JobState.DONE, again.message
    assert again.markdown_path != first.markdown_path  # the first reading's files stay
    markdown = again.markdown_path.read_text(encoding="utf-8")
    assert [page.page_number for page in again.result.pages] == [3]
    assert "<table>" in markdown and "<td>Region</td>" in markdown and "| Region" not in markdown
    assert "Sales grew" not in markdown and HEADER not in markdown


@pytest.mark.skipif(os.environ.get("QT_QPA_PLATFORM") == "xcb", reason="already on X")
def test_the_same_under_an_x_server():
    """The tests above that need no model, again on the xcb platform a desktop runs (Xvfb)."""
    run_again_under_xvfb(__file__, "test_the_page_range_is_checked_as_it_is_typed",
                         "test_read_again_with_other_choices_from_the_queue")

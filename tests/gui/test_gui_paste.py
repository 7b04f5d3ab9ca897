"""Paste and capture: Ctrl+V converts a clipboard image or files copied in a file manager; one
click puts a formula's LaTeX, or a table as HTML or Markdown, back on the clipboard."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, Qt, QUrl
from PySide6.QtGui import QGuiApplication, QImage

from engine.content.formulas import Formula
from engine.content.tables import Table, TableCell
from engine.types import Block, BlockKind, Box, DocumentResult, PageResult, TextSource
from gui.copy_block import copy_target, table_text
from gui.paste import GNOME_COPIED_FILES, PASTED_DIR_NAME
from gui.queue_model import Job, JobState
from settings import user_data_dir
from stepped_engine import SteppedEngine

pytestmark = pytest.mark.gui

FORMULA_SET = Path(__file__).resolve().parents[2].parent / "shared" / "eval" / "formula"
FORMULA_ID = "im2latex-smallocr-388"  # a = a e^Phi, dt = e^Phi dt: one line, read confidently
TABLE_ITEM = "pubtabnet-PMC5679144_002_01"  # two columns, no merged cells


def put_on_clipboard(mime: QMimeData) -> None:
    QGuiApplication.clipboard().setMimeData(mime)


def press_ctrl_v(qtbot, widget) -> None:
    qtbot.keyClick(widget, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    # Qt keeps the modifiers of the last key event as the keyboard's state; without the Ctrl
    # key's release a later test's clicks would be Ctrl+clicks.
    qtbot.keyRelease(widget, Qt.Key.Key_Control)


def image_mime(path: Path) -> QMimeData:
    """What a screenshot tool leaves on the clipboard: pixels, no file."""
    image = QImage(str(path))
    assert not image.isNull(), path
    mime = QMimeData()
    mime.setImageData(image)
    return mime


def paste_and_convert(qtbot, window, mime: QMimeData, by_keys: bool = False) -> Job:
    put_on_clipboard(mime)
    before = len(window.controller.model.jobs)
    if by_keys:
        with qtbot.waitActive(window):
            window.show()
            window.activateWindow()
        window.queue_view.setFocus()
        press_ctrl_v(qtbot, window.queue_view)
    else:
        window.commands.paste.trigger()  # Edit > Paste
    qtbot.waitUntil(lambda: len(window.controller.model.jobs) == before + 1, timeout=10_000)
    job = window.controller.model.jobs[-1]
    assert window.selected_job() is job  # the copy commands work on it
    qtbot.waitUntil(lambda: job.state.finished, timeout=120_000)
    assert job.state is JobState.DONE, job.message
    return job


@pytest.mark.model
def test_a_pasted_formula_screenshot_gives_its_latex_in_one_click(qtbot, engine_window):
    window = engine_window
    record = next(r for r in json.loads((FORMULA_SET / "manifest.json").read_text())
                  if r["id"] == FORMULA_ID)
    assert not window.commands.copy_latex.isEnabled()
    job = paste_and_convert(qtbot, window, image_mime(FORMULA_SET / record["input"]),
                            by_keys=True)

    # Kept as a PNG in the data folder, converted like a dropped file.
    assert job.path.parent == user_data_dir(os.environ) / PASTED_DIR_NAME
    assert job.path.name.startswith("pasted-") and job.path.suffix == ".png"
    assert QImage(str(job.path)).size() == QImage(str(FORMULA_SET / record["input"])).size()
    [block] = [b for p in job.result.pages for b in p.blocks]
    assert block.kind is BlockKind.FORMULA and "\\Phi" in block.formula.latex
    assert window.commands.copy_latex.isEnabled() and not window.commands.copy_table.isEnabled()

    QGuiApplication.clipboard().clear()
    window.commands.copy_latex.trigger()  # the toolbar's "Copy LaTeX"
    assert QGuiApplication.clipboard().text() == block.formula.latex.strip()
    assert "LaTeX copied" in window.status_label.text()


@pytest.mark.model
def test_a_pasted_table_screenshot_copies_as_html_or_markdown(qtbot, engine_window, gui_store,
                                                              eval_dev_dir):
    window = engine_window
    job = paste_and_convert(qtbot, window,
                            image_mime(eval_dev_dir / "items" / TABLE_ITEM / "input.png"))
    [table] = [b for p in job.result.pages for b in p.blocks if b.kind is BlockKind.TABLE]
    assert "Abnormal vaginal bleeding" in table.html
    assert window.commands.copy_table.isEnabled()

    window.commands.copy_table.trigger()
    clipboard = QGuiApplication.clipboard().mimeData()
    assert clipboard.text() == table.html and clipboard.html() == table.html

    gui_store.set("output.table_format", "markdown")
    window.commands.copy_table.trigger()
    text = QGuiApplication.clipboard().text()
    assert text.startswith("| Clinical presentation and physical signs | Rate |\n|")
    assert "| Abnormal vaginal bleeding | 90.1% |" in text
    assert QGuiApplication.clipboard().mimeData().html() == table.html  # for office programs


def test_files_copied_in_a_file_manager_are_queued(qtbot, make_window, tmp_path):
    window = make_window(lambda _settings: SteppedEngine(free=True))
    first, second, third = (tmp_path / n for n in ("a.pdf", "b.pdf", "c.pdf"))
    for path in (first, second, third):
        path.write_bytes(b"%PDF-1.7\n")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(first)), QUrl.fromLocalFile(str(second))])
    put_on_clipboard(mime)
    window.commands.paste.trigger()
    assert [j.path for j in window.controller.model.jobs] == [first, second]

    # GNOME Files may offer only its own list ("copy", then one URL a line).
    gnome = QMimeData()
    gnome.setData(GNOME_COPIED_FILES, f"copy\n{QUrl.fromLocalFile(str(third)).toString()}\n"
                  .encode())
    put_on_clipboard(gnome)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    window.preview.rendered.setFocus()  # Ctrl+V in the (read-only) Markdown view pastes too
    press_ctrl_v(qtbot, window.preview.rendered)
    assert [j.path for j in window.controller.model.jobs] == [first, second, third]
    assert window.selected_job().path == third
    qtbot.waitUntil(lambda: all(j.state is JobState.DONE for j in window.controller.model.jobs),
                    timeout=20_000)

    # Text is not a document: nothing is queued, and the status bar says why.
    text = QMimeData()
    text.setText("just some words")
    put_on_clipboard(text)
    assert not window.paster.paste()
    assert len(window.controller.model.jobs) == 3
    assert "no image and no copied files" in window.status_label.text()


def test_which_block_a_copy_command_takes():
    def formula(latex: str, y: float) -> Block:
        return Block(BlockKind.FORMULA, Box(0, y, 100, y + 20), formula=Formula(latex))

    page = PageResult(1, 100, 200, 72.0, TextSource.OCR, "scan", blocks=(
        Block(BlockKind.TEXT, Box(0, 0, 100, 10), text="words"), formula("a^2", 20),
        formula("b^2", 60), Block(BlockKind.TABLE, Box(0, 100, 100, 150),
                                  table=Table((TableCell(0, 0, "1"),), 1, 1))))
    job = Job(1, Path("doc.pdf"), Path("out"), "doc")
    job.result = DocumentResult("doc.pdf", "pdf", 1, (page,))
    assert copy_target(job, None, "formula") is None  # two formulas: which one is not known
    assert copy_target(job, (0, 2), "formula").formula.latex == "b^2"  # the one clicked
    assert copy_target(job, (0, 0), "formula") is None
    assert copy_target(job, None, "table").html.startswith("<table>")  # the only table
    assert copy_target(job, (0, 9), "table") is not None
    job.result = None  # converted in an earlier session: only its files are left
    assert copy_target(job, (0, 2), "formula") is None


def test_a_table_with_merged_cells_stays_html_in_markdown_mode():
    merged = Table((TableCell(0, 0, "both", colspan=2), TableCell(1, 0, "1"),
                    TableCell(1, 1, "2")), 2, 2)
    assert table_text(merged, "markdown") == (
        '<table><tbody><tr><td colspan="2">both</td></tr><tr><td>1</td><td>2</td></tr>'
        "</tbody></table>")
    simple = Table((TableCell(0, 0, "x"), TableCell(0, 1, "y"), TableCell(1, 0, "1"),
                    TableCell(1, 1, "2")), 2, 2)
    assert table_text(simple, "markdown") == "| x | y |\n| --- | --- |\n| 1 | 2 |"
    assert table_text(simple, "html") == ("<table><tbody><tr><td>x</td><td>y</td></tr>"
                                          "<tr><td>1</td><td>2</td></tr></tbody></table>")


def test_an_image_that_cannot_be_kept_is_said_so_and_nothing_is_queued(qtbot, make_window,
                                                                       tmp_path, caplog):
    window = make_window(lambda _settings: SteppedEngine(free=True))
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    window.paster.folder = blocker / "pasted"
    image = QImage(64, 32, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    mime = QMimeData()
    mime.setImageData(image)
    put_on_clipboard(mime)
    window.commands.paste.trigger()
    qtbot.waitUntil(lambda: "could not be saved" in window.status_label.text(), timeout=10_000)
    assert str(blocker / "pasted") in window.status_label.text()
    assert "could not be saved" in caplog.text
    assert window.controller.model.jobs == []
    assert blocker.read_text() == "a file where the data folder should be"

"""Export copies a document's outputs, images included, keeping their places beside the .md."""

from __future__ import annotations

import pytest

from gui.export import ExportError, export_outputs

pytestmark = pytest.mark.gui


def test_export_keeps_images_beside_the_markdown(tmp_path):
    source = tmp_path / "out"
    (source / "images").mkdir(parents=True)
    (source / "images" / "doc-p1-0.png").write_bytes(b"png")
    (source / "doc.json").write_text("{}")
    (source / "doc.md").write_text("![figure](images/doc-p1-0.png)\n")
    outputs = [source / "images" / "doc-p1-0.png", source / "doc.json", source / "doc.md"]
    target = tmp_path / "exported"
    written = export_outputs(outputs, target)
    assert written[-1] == target / "doc.md"  # the Markdown comes last
    assert (target / "images" / "doc-p1-0.png").read_bytes() == b"png"
    assert (target / "doc.md").read_text() == "![figure](images/doc-p1-0.png)\n"
    assert not [p for p in target.rglob("*.part")]


def test_export_to_the_same_folder_is_harmless(tmp_path):
    (tmp_path / "doc.md").write_text("text")
    assert export_outputs([tmp_path / "doc.md"], tmp_path) == [tmp_path / "doc.md"]
    assert (tmp_path / "doc.md").read_text() == "text"


def test_export_without_markdown_or_into_a_file_fails_clearly(tmp_path):
    with pytest.raises(ExportError, match="nothing to export"):
        export_outputs([], tmp_path)
    (tmp_path / "doc.md").write_text("text")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ExportError, match="Cannot export"):
        export_outputs([tmp_path / "doc.md"], blocker / "sub")


def test_selected_documents_export_in_one_go_in_the_remembered_formats(qtbot, make_window,
                                                                       gui_store, tmp_path):
    from gui_samples import write_text_pdf
    from stepped_engine import SteppedEngine

    documents = [write_text_pdf(tmp_path / f"harvest{n}.pdf", 2) for n in (1, 2)]  # as read
    window = make_window(lambda _settings: SteppedEngine(free=True))
    window.state.set_export_formats(["md", "pdf", "docx", "xlsx"])  # the dialog's last choice
    window.add_paths(documents)
    qtbot.waitUntil(lambda: all(j.result is not None for j in window.controller.model.jobs),
                    timeout=30_000)
    window.queue_view.selectAll()
    target = tmp_path / "exported"
    window.export_selected(target)
    qtbot.waitUntil(lambda: "Exported" in window.status_label.text(), timeout=60_000)
    names = {p.name for p in target.iterdir()}
    for stem in ("harvest1", "harvest2"):
        assert {f"{stem}.md", f"{stem}.searchable.pdf", f"{stem}.docx"} <= names
        assert f"{stem}.json" not in names
    # No table in either document: the workbook is not written, and the window says why.
    assert not [n for n in names if n.endswith(".xlsx")]
    assert sum("xlsx not written: No table was found" in p
               for p in window.exporter.problems) == 2
    assert window.state.export_formats() == ["md", "pdf", "docx", "xlsx"]
    assert gui_store.load().output.dir == target


def test_a_document_from_an_earlier_session_is_copied_and_says_why_not_more(tmp_path):
    from gui.export import DocumentExport, export_documents

    source = tmp_path / "out"
    source.mkdir()
    (source / "old.md").write_text("# Old\n")
    (source / "old.json").write_text("{}")
    report = export_documents([DocumentExport("old", (str(source / "old.md"),
                                                      str(source / "old.json")))],
                              ["md", "json", "docx"], tmp_path / "exported")
    assert sorted(p.name for p in report.written) == ["old.json", "old.md"]
    assert report.problems == ["old: convert it again to export it as PDF, Word or Excel (it was "
                               "converted in an earlier session)."]


def test_the_dialog_offers_every_format_the_engine_writes():
    from engine.formats import OutputFormat
    from gui.export import FORMATS, MADE

    assert FORMATS == tuple(f.value for f in OutputFormat)
    assert set(MADE) == {"pdf", "docx", "xlsx", "alto", "hocr"}


def test_export_dialog_starts_from_the_last_choice(qtbot, tmp_path):
    from PySide6.QtWidgets import QDialogButtonBox

    from gui.export import ExportDialog

    dialog = ExportDialog(None, ["pdf", "xlsx"], tmp_path, 2)
    qtbot.addWidget(dialog)
    assert dialog.chosen() == ["pdf", "xlsx"]
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled()
    for box in dialog.boxes.values():
        box.setChecked(False)
    assert not ok.isEnabled()  # nothing to export
    dialog.boxes["docx"].setChecked(True)
    assert ok.isEnabled() and dialog.chosen() == ["docx"]


def test_export_never_replaces_a_file_in_the_chosen_folder(tmp_path):
    from gui.export import DocumentExport, export_documents

    source = tmp_path / "out"
    (source / "images").mkdir(parents=True)
    (source / "images" / "doc-p1-figure1.png").write_bytes(b"png")
    (source / "doc.json").write_text("{}")
    (source / "doc.md").write_text("Intro\n\n![figure](images/doc-p1-figure1.png)\n")
    target = tmp_path / "shared"
    (target / "images").mkdir(parents=True)
    (target / "doc.md").write_text("Someone else's notes\n")
    (target / "images" / "doc-p1-figure1.png").write_bytes(b"theirs")
    outputs = tuple(str(p) for p in (source / "images" / "doc-p1-figure1.png",
                                     source / "doc.json", source / "doc.md"))
    report = export_documents([DocumentExport("doc", outputs)], ["md", "json"], target)
    assert report.problems == []
    assert (target / "doc.md").read_text() == "Someone else's notes\n"
    assert (target / "images" / "doc-p1-figure1.png").read_bytes() == b"theirs"
    assert (target / "doc-2.md").read_text() == "Intro\n\n![figure](images/doc-2-p1-figure1.png)\n"
    assert (target / "images" / "doc-2-p1-figure1.png").read_bytes() == b"png"
    assert (target / "doc-2.json").read_text() == "{}"
    again = export_documents([DocumentExport("doc", outputs)], ["md"], source)
    assert again.problems == [] and (source / "doc.md").exists()  # its own folder: same name
    assert not (source / "doc-2.md").exists()

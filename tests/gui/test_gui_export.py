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

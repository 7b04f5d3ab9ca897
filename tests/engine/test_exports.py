"""Exports beyond plain paragraphs: tables, formulas, figures, content list, staged writing."""

import json

import numpy as np
import pytest

from engine.content.crops import Crop
from engine.content.formulas import Formula
from engine.output.content_list import content_list
from engine.errors import OutputNotWritable
from engine.output.markdown import render_markdown
from engine.output.tables import table_markdown
from engine.output.writer import OutputWriter
from engine.types import Block, BlockKind, Box, PageResult, TextSource
from table_samples import table_of

SIMPLE = ("<table><tbody><tr><td>Crop</td><td>t/ha</td></tr><tr><td>Wheat</td><td>7.1</td></tr>"
          "</tbody></table>")
MERGED = ('<table><tbody><tr><td colspan="2">Yield</td></tr><tr><td>a</td><td>b</td></tr>'
          "</tbody></table>")


def page(*blocks, number=1):
    return PageResult(page_number=number, width=1000, height=2000, dpi=200,
                      text_source=TextSource.TEXT_LAYER, text_source_reason="test",
                      blocks=tuple(blocks))


def b(kind, text="", **kw):
    return Block(kind=kind, box=Box(100, 100, 500, 200), text=text, **kw)


def test_gfm_only_without_merged_cells():
    assert table_markdown(table_of(SIMPLE)) == "| Crop | t/ha |\n| --- | --- |\n| Wheat | 7.1 |"
    assert table_markdown(table_of(MERGED)) is None


def test_tables_render_as_html_or_gfm_by_option():
    pages = [page(b(BlockKind.TABLE, table=table_of(SIMPLE))),
             page(b(BlockKind.TABLE, table=table_of(MERGED)), number=2)]
    assert SIMPLE in render_markdown(pages)
    markdown = render_markdown(pages, table_format="markdown")
    assert "| Wheat | 7.1 |" in markdown and MERGED in markdown


def test_unparsed_table_keeps_its_image_and_text():
    text = render_markdown([page(b(BlockKind.TABLE, "Crop Wheat 7.1", crop=Crop("images/d-p1-table1.png")))])
    assert text == "![table](images/d-p1-table1.png)\n\nCrop Wheat 7.1\n"


def test_formula_with_and_without_latex():
    with_model = render_markdown([page(b(BlockKind.FORMULA, "E = mc2", formula=Formula("E = mc^2")))])
    assert with_model == "$$\nE = mc^2\n$$\n"
    without = render_markdown([page(b(BlockKind.FORMULA, "E = mc2 -- x", crop=Crop("images/f.png")))])
    assert without == "![formula](images/f.png)\n<!-- formula text: E = mc2 - - x -->\n"


def test_figure_then_caption():
    md = render_markdown([page(b(BlockKind.FIGURE, crop=Crop("images/d-p1-figure1.png")),
                               b(BlockKind.CAPTION, "Figure 1. Fields."))])
    assert md == "![figure](images/d-p1-figure1.png)\n\nFigure 1. Fields.\n"


def test_sentence_continuing_across_a_page_break_is_one_paragraph():
    md = render_markdown([page(b(BlockKind.TEXT, "In the north the harvest was"),
                               b(BlockKind.FOOTER, "12")),
                          page(b(BlockKind.TEXT, "late this year."), number=2)])
    assert md == "In the north the harvest was late this year.\n"


def test_a_page_number_is_not_the_start_of_a_sentence():
    md = render_markdown([page(b(BlockKind.TEXT, "9"), b(BlockKind.TEXT, "order to compute it."))])
    assert md == "9\n\norder to compute it.\n"


def test_furniture_kept_on_request():
    pages = [page(b(BlockKind.HEADER, "Annual report"), b(BlockKind.TEXT, "Body."))]
    assert render_markdown(pages) == "Body.\n"
    assert render_markdown(pages, keep_furniture=True) == "Annual report\n\nBody.\n"


def test_content_list_types_levels_boxes_and_captions():
    items = content_list([page(b(BlockKind.TITLE, "Report", level=1),
                               b(BlockKind.TABLE, table=table_of(SIMPLE)),
                               b(BlockKind.CAPTION, "Table 1. Yields."),
                               b(BlockKind.FOOTER, "3"))])
    assert [i["type"] for i in items] == ["text", "table", "text", "discarded"]
    assert items[0]["text_level"] == 1
    assert items[1]["table_body"] == SIMPLE and items[1]["table_caption"] == ["Table 1. Yields."]
    assert items[1]["bbox"] == [100, 50, 500, 100] and items[1]["page_idx"] == 0
    json.dumps(items)


def test_writer_moves_everything_into_place_only_on_commit(tmp_path):
    writer = OutputWriter(tmp_path, "doc")
    writer.add_images({"images/doc-p1-figure1.png": np.zeros((4, 4, 3), np.uint8)})
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == []
    outputs = writer.commit({"doc.json": b"{}", "doc.md": b"# hi\n"})
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) \
        == ["doc.json", "doc.md", "images/doc-p1-figure1.png"]
    assert outputs[-1].endswith("doc.md")


def test_writer_abort_leaves_nothing(tmp_path):
    writer = OutputWriter(tmp_path, "doc")
    writer.add_images({"images/doc-p1-figure1.png": np.zeros((4, 4, 3), np.uint8)})
    writer.abort()
    assert list(tmp_path.iterdir()) == []


def test_writer_reports_an_unwritable_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(OutputNotWritable, match="Cannot write"):
        OutputWriter(blocker / "out", "doc")

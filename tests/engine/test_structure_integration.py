"""The real layout and table models on a two-column page with a ruled table."""

import re
from html.parser import HTMLParser

import pytest

from engine.options import ConvertOptions
from engine_structure_samples import LEFT, RIGHT, TABLE_HEADER, TABLE_ROWS, write_two_column_report

pytestmark = pytest.mark.model


class Grid(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def test_two_column_page_with_a_table(engine, tmp_path):
    path = write_two_column_report(tmp_path / "report.pdf")
    result = engine.convert(path, ConvertOptions(output_dir=str(tmp_path / "out")))
    markdown = result.markdown
    tables = re.findall(r"<table>.*?</table>", markdown, flags=re.S)
    assert len(tables) == 1
    grid = Grid()
    grid.feed(tables[0])
    assert len(grid.rows) == 1 + len(TABLE_ROWS)
    assert all(len(row) == len(TABLE_HEADER) for row in grid.rows)
    assert grid.rows[0] == TABLE_HEADER
    assert grid.rows[3] == TABLE_ROWS[2]
    # Reading order: title, the whole left column, the whole right column, caption, table.
    order = [markdown.index(s) for s in ("Harvest Report 2024", LEFT[0], LEFT[-1], RIGHT[0],
                                         RIGHT[-1], "Table 1. Yields per field.", "<table>")]
    assert order == sorted(order)
    assert (tmp_path / "out" / "report.md").read_text(encoding="utf-8") == markdown

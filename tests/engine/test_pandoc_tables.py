"""The Word export's tables are built from the typed cells (engine/export/pandoc_tables.py):
the same pandoc table pandoc itself makes of our HTML, and no HTML reader anywhere in the
engine's table path."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from engine.content.table_html import table_html
from engine.content.tables import Table, TableCell
from engine.export.docx import pandoc_path
from engine.export.pandoc_tables import pandoc_table

ENGINE = Path(__file__).resolve().parents[2] / "engine"

TABLES = {
    "spans, a header cell in the body, an empty cell, markup characters": Table((
        TableCell(0, 0, "Crop", header=True), TableCell(0, 1, "Yield t/ha", colspan=2,
                                                       header=True),
        TableCell(1, 0, "Wheat\nwinter", rowspan=2), TableCell(1, 1, "2023", header=True),
        TableCell(1, 2, "7 & <8>"), TableCell(2, 1, "6.8"), TableCell(2, 2, "")), 3, 3, 1),
    "no head, no spans": Table((TableCell(0, 0, "a"), TableCell(0, 1, "b"),
                                TableCell(1, 0, "c"), TableCell(1, 1, "d")), 2, 2, 0),
    "two head rows, spaces inside a cell": Table((
        TableCell(0, 0, "h1", header=True), TableCell(0, 1, "h2", header=True),
        TableCell(1, 0, "h3", header=True), TableCell(1, 1, "h4", header=True),
        TableCell(2, 0, "v"), TableCell(2, 1, " spaced\u00a0 out ")), 3, 2, 2),
}


def pandoc_reading(html: str) -> dict:
    done = subprocess.run([pandoc_path(), "--from", "html", "--to", "json"],
                          input=html.encode("utf-8"), capture_output=True, check=True)
    return json.loads(done.stdout)["blocks"][0]


@pytest.mark.parametrize("name", TABLES)
def test_a_table_from_its_cells_is_what_pandoc_reads_from_its_html(name):
    table = TABLES[name]
    assert json.loads(json.dumps(pandoc_table(table))) == pandoc_reading(table_html(table))


def test_a_caption_goes_into_the_table_as_plain_text():
    table = TABLES["no head, no spans"]
    html = table_html(table)
    html = html[:len("<table>")] + "<caption>Table 1: yields &amp; costs</caption>" + \
        html[len("<table>"):]
    built = pandoc_table(table, "Table 1:  yields & costs")
    assert json.loads(json.dumps(built)) == pandoc_reading(html)


def test_nothing_in_the_engine_hands_html_to_pandocs_reader():
    """The Python HTML readers are checked in test_table_content.py; pandoc's own reader could
    come in as text (a Lua filter calling pandoc.read, a command reading html)."""
    ways_in = re.compile(r"pandoc\.read\(|[\"']--from[\"'],\s*[\"']html|-f\s+html|--from[= ]html")
    found = [f"{path.relative_to(ENGINE)}:{n}" for path in ENGINE.rglob("*.py")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if ways_in.search(line)]
    assert found == []
    assert ways_in.search("return pandoc.read(el.text, 'html').blocks")
    assert ways_in.search('[pandoc_path(), "--from", "html", "--to", "docx"]')

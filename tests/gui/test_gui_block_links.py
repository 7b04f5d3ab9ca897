"""Finding each block's text in the Markdown source and in its rendered text."""

from __future__ import annotations

from types import SimpleNamespace as NS

import pytest

from engine.content.crops import Crop
from gui.block_links import link_at, link_for, locate_blocks

pytestmark = pytest.mark.gui


def page(*texts: str) -> NS:
    return NS(blocks=[NS(text=t, formula=None, crop=None) for t in texts])


def test_blocks_are_found_in_order_despite_markdown_syntax():
    pages = [page("Results", "2023. Revenue grew by *10* percent", "the same words"),
             page("the same words")]
    markdown = ("# Results\n\n2023\\. Revenue grew by \\*10\\* percent\n\nthe same words\n\n"
                "the same words\n")
    links = locate_blocks(pages, markdown)
    assert [(l.page_index, l.block_index) for l in links] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    assert markdown[links[1].start:links[1].end].startswith("2023")
    assert links[2].start < links[3].start  # repeated text maps to successive occurrences
    assert link_at(links, links[1].start + 3) == links[1]
    assert link_for(links, 1, 0) == links[3]


def test_long_block_spans_to_its_last_words():
    words = " ".join(f"word{i}" for i in range(40))
    links = locate_blocks([page(words)], "intro\n\n" + words + "\n\nnext")
    assert links[0].end == len("intro\n\n" + words)


def test_blocks_missing_from_the_text_get_no_link():
    pages = [page("Running header 2024", "Body text here")]
    links = locate_blocks(pages, "Body text here\n")
    assert [(l.page_index, l.block_index) for l in links] == [(0, 1)]


def test_figure_is_found_by_its_image_path():
    figure = NS(blocks=[NS(text="", formula=None, crop=Crop("images/doc-p1-0.png"))])
    links = locate_blocks([figure], "![figure](images/doc-p1-0.png)\n")
    assert len(links) == 1


def test_table_is_found_across_its_html_tags():
    table = NS(blocks=[NS(text="", formula=None, crop=None,
                          html="<table><tr><td>Model</td><td>mAP</td></tr>"
                               "<tr><td>OTSL</td><td>0.88</td></tr></table>")])
    source = ("Intro.\n\n<table><tr><td>Model</td><td>mAP</td></tr>"
              "<tr><td>OTSL</td><td>0.88</td></tr></table>\n")
    [link] = locate_blocks([table], source)
    assert source[link.start:link.end].startswith("Model")
    assert source[link.start:link.end].endswith("</table>")
    rendered = "Intro.\u2029Model\u2029mAP\u2029OTSL\u20290.88"
    assert locate_blocks([table], rendered)[0].end == len(rendered)

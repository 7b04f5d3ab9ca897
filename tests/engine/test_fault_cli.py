"""The CLI under faults of its surroundings: settings it could not take as they were, PDF
passwords kept off the command line, and document text that tries to be HTML or a link."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from engine.content.crops import Crop
from engine.cli.main import main as cli_main
from engine.output.markdown import render_markdown
from engine.types import Block, BlockKind, Box, Line, PageResult, TextSource

from engine_samples import write_encrypted_pdf, write_text_pdf
from table_samples import table_of

FAST = ["--layout", "none", "--method", "txt"]
SECRET = "rye-field"
BOX = Box(0, 0, 10, 10)


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    monkeypatch.delenv("PAPERLENS_PASSWORD", raising=False)
    return tmp_path


@pytest.fixture
def locked(isolated: Path) -> Path:
    return write_encrypted_pdf(isolated / "locked.pdf", "Quarterly harvest figures",
                               user_pw=SECRET, owner_pw="barn-owner")


def markdown_of(folder: Path, stem: str) -> str:
    return (folder / f"{stem}.md").read_text(encoding="utf-8")


# -- settings the CLI could not take as they were ---------------------------------------------

def test_corrupt_settings_are_reported_on_stderr(isolated, capsys):
    (isolated / "settings.json").write_text("{ not json", encoding="utf-8")
    source = write_text_pdf(isolated / "notes.pdf", [["Field notes"]])
    assert cli_main(["convert", str(source), "-o", str(isolated / "out"), *FAST]) == 0
    err = capsys.readouterr().err
    assert "warning: Settings file" in err and "was corrupt" in err


def test_settings_of_the_wrong_type_are_reported_on_stderr(isolated, capsys):
    (isolated / "settings.json").write_text(json.dumps({"output": {"table_format": 5}}),
                                            encoding="utf-8")
    source = write_text_pdf(isolated / "notes.pdf", [["Field notes"]])
    assert cli_main(["convert", str(source), "-o", str(isolated / "out"), *FAST]) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "output.table_format" in err


# -- passwords off the command line -------------------------------------------------------------

def test_password_file(locked, isolated):
    secret = isolated / "secret.txt"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    out = isolated / "out"
    assert cli_main(["convert", str(locked), "-o", str(out), "--password-file", str(secret)]) == 0
    assert "Quarterly harvest figures" in markdown_of(out, "locked")


def test_password_from_the_environment(locked, isolated, monkeypatch):
    monkeypatch.setenv("PAPERLENS_PASSWORD", SECRET)
    out = isolated / "out"
    assert cli_main(["convert", str(locked), "-o", str(out)]) == 0
    assert "Quarterly harvest figures" in markdown_of(out, "locked")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_password_asked_on_a_terminal_until_it_opens(locked, isolated, monkeypatch, capsys):
    answers = iter(["oat-field", SECRET])
    asked = []

    def getpass(prompt: str, stream=None) -> str:
        asked.append(prompt)
        return next(answers)

    monkeypatch.setattr("sys.stdin", Terminal())
    monkeypatch.setattr("getpass.getpass", getpass)
    out = isolated / "out"
    assert cli_main(["convert", str(locked), "-o", str(out)]) == 0
    assert len(asked) == 2 and "locked.pdf" in asked[0]
    assert "Quarterly harvest figures" in markdown_of(out, "locked")
    assert "The password does not open locked.pdf" in capsys.readouterr().err


def test_no_terminal_no_prompt_but_a_hint(locked, isolated, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO())
    monkeypatch.setattr("getpass.getpass", lambda *a, **k: pytest.fail("asked without a terminal"))
    assert cli_main(["convert", str(locked), "-o", str(isolated / "out")]) == 1
    err = capsys.readouterr().err
    assert "locked.pdf is encrypted" in err
    assert "--password-file FILE or PAPERLENS_PASSWORD" in err, "say how to give it instead"


def test_password_and_password_file_exclude_each_other(locked, isolated, capsys):
    with pytest.raises(SystemExit) as caught:
        cli_main(["convert", str(locked), "-o", str(isolated / "out"), "--password", SECRET,
                  "--password-file", str(isolated / "secret.txt")])
    assert caught.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_unreadable_password_file_is_a_usage_error(locked, isolated, capsys):
    code = cli_main(["convert", str(locked), "-o", str(isolated / "out"), "--password-file",
                     str(isolated / "missing.txt")])
    assert code == 2
    assert "Cannot read the password file" in capsys.readouterr().err


# -- document text that tries to be HTML or a link ----------------------------------------------

HOSTILE = ("<script>alert(1)</script> and [click here](javascript:alert(1)) "
           "<img src=x onerror=alert(1)> &lt;kept&gt;")


def live_markup(markdown: str) -> list[str]:
    """HTML tags and javascript: links a Markdown renderer would act on (unescaped ones)."""
    return re.findall(r"<(?:script|img)|(?<!\\)\]\(javascript:|(?<!\\)\]:\s*javascript:",
                      markdown)


def page_of(*blocks: Block) -> PageResult:
    return PageResult(page_number=1, width=100, height=100, dpi=72.0,
                      text_source=TextSource.TEXT_LAYER, text_source_reason="test", blocks=blocks)


def block(kind: BlockKind, text: str = "", **fields) -> Block:
    return Block(kind, BOX, (), text, 1.0, **fields)


def test_document_text_cannot_become_html_or_links():
    markdown = render_markdown([page_of(
        block(BlockKind.TITLE, HOSTILE, level=1), block(BlockKind.TEXT, HOSTILE),
        block(BlockKind.LIST_ITEM, "• " + HOSTILE), block(BlockKind.CAPTION, HOSTILE),
        block(BlockKind.TEXT, "[ref]: javascript:alert(1)"))])
    assert live_markup(markdown) == [], markdown
    assert "&lt;script>" in markdown, "the text stays readable as text"
    assert "&amp;lt;kept&amp;gt;" in markdown, "a reference in the text is shown, not decoded"


def test_our_tables_keep_their_html_and_their_cells_stay_text():
    table = ("<table><tbody><tr><td>Field</td><td>&lt;script&gt;alert(1)&lt;/script&gt;</td></tr>"
             "<tr><td>North</td><td>12</td></tr></tbody></table>")
    html = render_markdown([page_of(block(BlockKind.TABLE, table=table_of(table)))])
    assert table in html
    gfm = render_markdown([page_of(block(BlockKind.TABLE, table=table_of(table)))],
                          table_format="markdown")
    assert "<script" not in gfm and "&lt;script>alert(1)" in gfm


def test_code_comments_and_image_paths_cannot_break_out():
    code = Block(BlockKind.CODE, BOX, (Line("```", BOX), Line("<script>", BOX)))
    formula = block(BlockKind.FORMULA, "x --->< script", crop=Crop("images/f.png"))
    figure = block(BlockKind.FIGURE, crop=Crop("images/a) <script>-p1-figure1.png"))
    markdown = render_markdown([page_of(code, formula, figure)])
    assert markdown.startswith("````\n```\n<script>\n````"), "the fence outlasts the code"
    assert "-->" not in markdown.replace("<!-- formula text", "").rsplit(" -->", 1)[0]
    assert "![figure](<images/a) \\<script\\>-p1-figure1.png>)" in markdown


def test_converted_pdf_text_is_escaped(isolated):
    source = write_text_pdf(isolated / "web.pdf", [[HOSTILE]])
    out = isolated / "out"
    assert cli_main(["convert", str(source), "-o", str(out), *FAST]) == 0
    markdown = markdown_of(out, "web")
    assert "alert(1)" in markdown
    assert live_markup(markdown) == [], markdown

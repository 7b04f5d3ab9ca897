"""Generated Office documents with known truth: text documents written with python-docx
(headings, bullet and numbered lists, a table with merged cells, display and inline equations
in Word's own OMML), workbooks with openpyxl (sheets with merged cells, ruled), presentations
with python-pptx (title, bullets with speaker notes, a table with merged cells), each also
saved again by LibreOffice (DOCX, XLSX, PPTX and OpenDocument), documents holding a pasted
scan or a screenshot whose text only OCR can read, and documents holding what Paperlens
leaves out and must name (tools/officeset/left_out.py).

The prose is real English (tools/structure/text_source); the truth of a document is its
Markdown as Paperlens writes it, tables as HTML with their spans."""

from __future__ import annotations

import copy
import html
import io
import json
import random
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools.officeset.left_out import write_left_out
from tools.structure.text_source import load_prose

REPO = Path(__file__).resolve().parents[2]
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
DISPLAY = ("\\frac{a+b}{c} = x^{2}", "\\int_{0}^{1} f(x)\\, dx = F(1) - F(0)",
           "\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}", "\\sqrt{x^{2}+y^{2}} \\leq r")
INLINE = ("x^{2}+y^{2}", "\\alpha + \\beta", "n \\geq 2", "e^{i\\pi}")
# What LibreOffice saves each written kind as: the same kind again and its OpenDocument kind.
SAVED_AGAIN = {"docx": ("docx:MS Word 2007 XML", "odt"),
               "xlsx": ("xlsx:Calc MS Excel 2007 XML", "ods"),
               "pptx": ("pptx:Impress MS PowerPoint 2007 XML", "odp")}


@dataclass(frozen=True)
class OfficeItem:
    name: str
    family: str
    """docx, xlsx, pptx (written by the Python libraries), docx-lo, odt-lo ... (saved again by
    LibreOffice), scan-docx, scan-pptx (a picture holding text)."""
    file: str
    truth: str
    tables: list[str] = field(default_factory=list)
    scan: str = ""
    """The text of the pasted scan or screenshot (scan families)."""


@dataclass(frozen=True)
class Grid:
    """A table: rows of (text, rowspan, colspan), the cells covered by a span left out."""
    rows: list[list[tuple[str, int, int]]]
    header_rows: int = 1

    def html(self) -> str:
        def row_html(row):
            cells = []
            for text, rowspan, colspan in row:
                spans = "".join(f' {n}="{v}"' for n, v in (("rowspan", rowspan),
                                                           ("colspan", colspan)) if v > 1)
                cells.append(f"<td{spans}>{html.escape(text, quote=False)}</td>")
            return "<tr>" + "".join(cells) + "</tr>"

        head = "".join(row_html(r) for r in self.rows[:self.header_rows])
        body = "".join(row_html(r) for r in self.rows[self.header_rows:])
        return ("<table>" + (f"<thead>{head}</thead>" if head else "")
                + (f"<tbody>{body}</tbody>" if body else "") + "</table>")

    def full(self) -> list[list[str | None]]:
        """The grid with every position: the text at a span's corner, None under a span."""
        width = sum(c for _, _, c in self.rows[0])
        grid: list[list[str | None]] = [[""] * width for _ in self.rows]
        taken = set()
        for r, row in enumerate(self.rows):
            c = 0
            for text, rowspan, colspan in row:
                while (r, c) in taken:
                    c += 1
                grid[r][c] = text
                for dr in range(rowspan):
                    for dc in range(colspan):
                        if dr or dc:
                            taken.add((r + dr, c + dc))
                            grid[r + dr][c + dc] = None
                c += colspan
        return grid

    def spans(self) -> list[tuple[int, int, int, int]]:
        """(row, col, rowspan, colspan) of every merged cell, 0-based."""
        out, taken = [], set()
        for r, row in enumerate(self.rows):
            c = 0
            for _text, rowspan, colspan in row:
                while (r, c) in taken:
                    c += 1
                if rowspan > 1 or colspan > 1:
                    out.append((r, c, rowspan, colspan))
                for dr in range(rowspan):
                    for dc in range(colspan):
                        taken.add((r + dr, c + dc))
                c += colspan
        return out


def make_grid(rng: random.Random, words: list[str]) -> Grid:
    """A 4-column table: a header cell over two columns, a body cell over two rows."""
    label = rng.choice(words).capitalize()
    rows = [[(label, 1, 2), ("Year", 1, 1), ("Share", 1, 1)]]
    for index in range(3):
        first = (rng.choice(words), 2, 1) if index == 0 else None
        row = [first] if first else []
        row += [(rng.choice(words), 1, 1), (str(rng.randint(1990, 2030)), 1, 1),
                (f"{rng.randint(1, 99)}.{rng.randint(1, 9)}", 1, 1)]
        if index == 2:
            row = [(rng.choice(words), 1, 1)] + row
        rows.append(row)
    return Grid(rows)


def _words(prose) -> list[str]:
    return sorted({w.strip(".,;:").lower() for p in prose.paragraphs[:400] for w in p.split()
                   if w.strip(".,;:").isalpha() and 4 <= len(w.strip(".,;:")) <= 10})


def _md(text: str) -> str:
    """Document text in the truth's Markdown: a dollar sign is money, not a formula."""
    return text.replace("$", "\\$")


def _sentence(text: str, limit: int = 260) -> str:
    """A paragraph cut at a sentence end within `limit` characters."""
    if len(text) <= limit:
        return text
    cut = text[:limit].rfind(". ")
    return text[:cut + 1] if cut > 60 else text[:limit].rsplit(" ", 1)[0] + "."


def generate(folder: Path, seed: int, count: int) -> list[OfficeItem]:
    """`count` documents of each family written to `folder`, with manifest.json."""
    folder.mkdir(parents=True, exist_ok=True)
    prose = load_prose()
    words = _words(prose)
    rng = random.Random(seed)
    items: list[OfficeItem] = []
    for index in range(1, count + 1):
        items.append(write_docx(folder / f"docx-{index}.docx", rng, prose, words))
        items.append(write_xlsx(folder / f"xlsx-{index}.xlsx", rng, words))
        items.append(write_pptx(folder / f"pptx-{index}.pptx", rng, prose, words))
        items.append(write_scan_docx(folder / f"scan-docx-{index}.docx", rng, prose))
        items.append(write_scan_pptx(folder / f"scan-pptx-{index}.pptx", rng, prose))
    if shutil.which("soffice"):
        for item in list(items):
            if item.family in SAVED_AGAIN:
                items.extend(saved_again(folder, item))
    (folder / "manifest.json").write_text(json.dumps([asdict(i) for i in items], indent=1)
                                          + "\n", encoding="utf-8")
    left_out = write_left_out(folder, rng, words, scan_picture(_scan_lines(rng, prose), rng))
    (folder / "left_out.json").write_text(json.dumps([asdict(i) for i in left_out], indent=1)
                                          + "\n", encoding="utf-8")
    return items


def omml(latex: list[str], display: bool) -> list:
    """Word's own equations (OMML elements) for LaTeX, as pandoc writes them into a DOCX."""
    import pypandoc
    from lxml import etree

    source = "\n\n".join(f"$${t}$$" if display else f"${t}$" for t in latex)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "math.docx"
        pypandoc.convert_text(source, "docx", format="markdown", outputfile=str(out))
        with zipfile.ZipFile(out) as archive:
            root = etree.fromstring(archive.read("word/document.xml"))
    m = "http://schemas.openxmlformats.org/officeDocument/2006/math"
    tag = f"{{{m}}}oMathPara" if display else f"{{{m}}}oMath"
    return [copy.deepcopy(e) for e in root.iter(tag)
            if display or e.getparent().tag != f"{{{m}}}oMathPara"]


def write_docx(path: Path, rng: random.Random, prose, words: list[str]) -> OfficeItem:
    import docx

    title, sub1, sub2 = (prose.title(rng) for _ in range(3))
    paragraphs = [_sentence(p) for p in prose.sample(rng, 3)]
    bullets = [prose.title(rng) for _ in range(3)]
    steps = [prose.title(rng) for _ in range(3)]
    grid = make_grid(rng, words)
    display = rng.choice(DISPLAY)
    inline = rng.choice(INLINE)
    document = docx.Document()
    document.add_heading(title, level=1)
    document.add_paragraph(paragraphs[0])
    document.add_heading(sub1, level=2)
    for text in bullets:
        document.add_paragraph(text, style="List Bullet")
    for text in steps:
        document.add_paragraph(text, style="List Number")
    _docx_table(document, grid)
    document.add_heading(sub2, level=2)
    document.add_paragraph(paragraphs[1])
    document.add_paragraph()._p.append(omml([display], True)[0])
    before = document.add_paragraph("The value of ")
    before._p.append(omml([inline], False)[0])
    before.add_run(" is given above.")
    document.add_paragraph(paragraphs[2])
    document.save(path)
    truth = "\n\n".join([f"# {_md(title)}", _md(paragraphs[0]), f"## {_md(sub1)}",
                         *(f"- {_md(b)}" for b in bullets),
                         *(f"{n}. {_md(s)}" for n, s in enumerate(steps, start=1)),
                         grid.html(), f"## {_md(sub2)}", _md(paragraphs[1]),
                         f"$$\n{display}\n$$", f"The value of ${inline}$ is given above.",
                         _md(paragraphs[2])]) + "\n"
    return OfficeItem(path.stem, "docx", path.name, truth, [grid.html()])


def _docx_table(document, grid: Grid) -> None:
    from docx.oxml import OxmlElement

    full = grid.full()
    table = document.add_table(rows=len(full), cols=len(full[0]))
    table.style = "Table Grid"
    for row in table.rows[:grid.header_rows]:  # Word's "repeat as header row": the head
        row._tr.get_or_add_trPr().append(OxmlElement("w:tblHeader"))
    for r, c, rowspan, colspan in grid.spans():
        table.cell(r, c).merge(table.cell(r + rowspan - 1, c + colspan - 1))
    for r, row in enumerate(full):
        for c, text in enumerate(row):
            if text is not None:
                table.cell(r, c).text = text


def write_xlsx(path: Path, rng: random.Random, words: list[str]) -> OfficeItem:
    import openpyxl

    book = openpyxl.Workbook()
    parts, tables = [], []
    for number in range(2):
        sheet = book.active if number == 0 else book.create_sheet()
        sheet.title = f"{rng.choice(words).capitalize()} {number + 1}"
        grid = make_grid(rng, words)
        for r, row in enumerate(grid.full(), start=1):
            for c, text in enumerate(row, start=1):
                if text:
                    sheet.cell(r, c, int(text) if text.isdigit() else
                               float(text) if text.replace(".", "", 1).isdigit() else text)
        for r, c, rowspan, colspan in grid.spans():
            sheet.merge_cells(start_row=r + 1, start_column=c + 1, end_row=r + rowspan,
                              end_column=c + colspan)
        _ruled(sheet)
        body = Grid(grid.rows, header_rows=0)  # a sheet has no head rows
        parts += [f"# {sheet.title}", body.html()]
        tables.append(body.html())
    book.save(path)
    return OfficeItem(path.stem, "xlsx", path.name, "\n\n".join(parts) + "\n", tables)


def _ruled(sheet) -> None:
    """A thin border round every cell of the sheet's table, as a table meant to be printed
    has: Calc prints no grid of its own, so a sheet without borders prints as loose words in
    columns whose merged cells cannot be seen, and the text of a cell merged over two rows
    stands on the lower row (Calc's default alignment is the foot of the cell). Such a
    printout does not hold the file's table, and its PDF cannot be read back into it."""
    from openpyxl.styles import Border, Side

    thin = Side(style="thin")
    for row in sheet.iter_rows(min_row=1, max_row=sheet.max_row, max_col=sheet.max_column):
        for cell in row:
            cell.border = Border(left=thin, right=thin, top=thin, bottom=thin)


def write_pptx(path: Path, rng: random.Random, prose, words: list[str]) -> OfficeItem:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    title, subtitle, agenda, table_title = (prose.title(rng) for _ in range(4))
    bullets = [prose.title(rng) for _ in range(3)]
    notes = _sentence(rng.choice(prose.paragraphs), 200)
    grid = make_grid(rng, words)
    slide = deck.slides.add_slide(deck.slide_layouts[0])
    slide.shapes.title.text = title
    slide.placeholders[1].text = subtitle
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = agenda
    frame = slide.placeholders[1].text_frame
    frame.text = bullets[0]
    for level, text in ((1, bullets[1]), (0, bullets[2])):
        paragraph = frame.add_paragraph()
        paragraph.text, paragraph.level = text, level
    slide.notes_slide.notes_text_frame.text = notes
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = table_title
    full = grid.full()
    table = slide.shapes.add_table(len(full), len(full[0]), Inches(0.5), Inches(2), Inches(9),
                                   Inches(3)).table
    for r, c, rowspan, colspan in grid.spans():
        table.cell(r, c).merge(table.cell(r + rowspan - 1, c + colspan - 1))
    for r, row in enumerate(full):
        for c, text in enumerate(row):
            if text is not None:
                table.cell(r, c).text = text
    deck.save(path)
    truth = "\n\n".join([f"# {_md(title)}", _md(subtitle), f"## {_md(agenda)}",
                         *(f"- {_md(b)}" for b in bullets), _md(notes),
                         f"## {_md(table_title)}", grid.html()]) + "\n"
    return OfficeItem(path.stem, "pptx", path.name, truth, [grid.html()])


def scan_picture(lines: list[str], rng: random.Random) -> bytes:
    """A page of printed lines as a scanner gives it: grey paper, a little noise, PNG."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(FONT), 30)
    width = 60 + max(int(font.getlength(line)) for line in lines)
    image = Image.new("L", (width, 60 + 52 * len(lines)), 238)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((30, 30 + 52 * row), line, fill=25, font=font)
    pixels = np.asarray(image, dtype=np.int16)
    noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 6, pixels.shape)
    buffer = io.BytesIO()
    Image.fromarray(np.clip(pixels + noise, 0, 255).astype(np.uint8)).save(buffer, "PNG")
    return buffer.getvalue()


def _scan_lines(rng: random.Random, prose) -> list[str]:
    import textwrap

    return textwrap.wrap(_sentence(rng.choice(prose.paragraphs), 220), 48)


def write_scan_docx(path: Path, rng: random.Random, prose) -> OfficeItem:
    import docx
    from docx.shared import Inches

    heading = prose.title(rng)
    lines = _scan_lines(rng, prose)
    document = docx.Document()
    document.add_heading(heading, level=1)
    document.add_picture(io.BytesIO(scan_picture(lines, rng)), width=Inches(6))
    document.save(path)
    return OfficeItem(path.stem, "scan-docx", path.name, f"# {_md(heading)}\n", [],
                      _md(" ".join(lines)))


def write_scan_pptx(path: Path, rng: random.Random, prose) -> OfficeItem:
    from pptx import Presentation
    from pptx.util import Inches

    heading = prose.title(rng)
    lines = _scan_lines(rng, prose)
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = heading
    slide.shapes.add_picture(io.BytesIO(scan_picture(lines, rng)), Inches(0.5), Inches(2),
                             width=Inches(9))
    deck.save(path)
    return OfficeItem(path.stem, "scan-pptx", path.name, f"## {_md(heading)}\n", [],
                      _md(" ".join(lines)))


def soffice(source: Path, target: str, out: Path) -> Path:
    """LibreOffice's conversion of `source` (`target`: an extension, or extension:filter)
    into `out`, with a profile of its own so that no running LibreOffice is disturbed."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="paperlens-lo-") as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
                        "--convert-to", target, "--outdir", str(out), str(source)],
                       check=True, capture_output=True, timeout=180)
    made = out / f"{source.stem}.{target.split(':')[0]}"
    if not made.is_file():
        raise RuntimeError(f"LibreOffice did not convert {source.name} to {target}")
    return made


def saved_again(folder: Path, item: OfficeItem) -> list[OfficeItem]:
    """The document saved again by LibreOffice in its own kind and in OpenDocument."""
    out = []
    for target in SAVED_AGAIN[item.family]:
        suffix = target.split(":")[0]
        made = soffice(folder / item.file, target, folder / "lo")
        final = folder / f"{item.name}-lo-{suffix}.{suffix}"
        made.replace(final)
        out.append(OfficeItem(final.stem, f"{suffix}-lo", final.name, item.truth, item.tables,
                              item.scan))
    return out

"""Searchable PDF: the input's own pages, untouched, with an invisible text layer (render mode
3) on every page that was read by OCR, word by word on the pixels each word came from; pages
read from their own text layer are copied as they are. Headings become the outline, the first
heading the title."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from engine.formats import ExportFailed
from engine.export.invisible_font import InvisibleFont, build_invisible_font
from engine.export.page_words import page_lines
from engine.export.text_placement import Run, laid_text, line_runs
from engine.types import BlockKind, Box, DocumentResult, PageResult, Status, TextSource

FONT_NAME = "PLInvisible"
HEADINGS = (BlockKind.TITLE, BlockKind.SECTION_HEADER)
PRODUCER = "Paperlens"
# An OCR line this much on the page's own visible text is left out of the layer: that text is
# searchable already, and would be found twice.
COVERED_SHARE = 0.5
# Inputs MuPDF cannot open, whose pixels are laid on a page of their own.
PIXELS_ONLY = ("webp",)
# Inputs read from their markup (engine/office), which MuPDF lays out as pages itself.
OFFICE_KINDS = ("docx", "xlsx", "pptx", "odt", "ods", "odp")


def build_searchable_pdf(result: DocumentResult, password: str | None = None) -> bytes:
    """The searchable PDF of a converted document, as bytes (the caller writes them)."""
    source = Path(result.path)
    document, encrypted = _open_pages(source, result.kind, password)
    try:
        numbers = [p.page_number for p in result.pages]
        if result.kind in OFFICE_KINDS:
            # MuPDF lays an Office document out on pages of its own, not the document's
            # slides, sheets or body: the whole of it, its text its own.
            numbers = list(range(1, document.page_count + 1))
        beyond = [n for n in numbers if n > document.page_count]
        if beyond:
            raise ExportFailed(f"{source.name} has {document.page_count} page(s) now, but page "
                               f"{beyond[0]} was converted: the file changed since; convert it "
                               "again.")
        if numbers != list(range(1, document.page_count + 1)):
            document.select([n - 1 for n in numbers])
        ocr_pages = [p for p in result.pages if _has_ocr_text(p)]
        if ocr_pages:
            font = build_invisible_font(ch for p in ocr_pages for line in page_lines(p)
                                        for ch in laid_text(line))
            for index, page in enumerate(result.pages):
                if _has_ocr_text(page):
                    _add_text_layer(document, document[index], page, font)
        if result.kind not in OFFICE_KINDS:  # headings on notional pages point nowhere
            _set_outline_and_title(document, result)
        # An encrypted input gives an encrypted output, with the same passwords.
        keep = pymupdf.PDF_ENCRYPT_KEEP if encrypted else pymupdf.PDF_ENCRYPT_NONE
        return document.tobytes(garbage=3, deflate=True, no_new_id=True, encryption=keep)
    except ExportFailed:
        raise
    except Exception as exc:  # MuPDF's own error types while editing or saving
        raise ExportFailed(f"The searchable PDF could not be made ({_short(exc)}).") from None
    finally:
        document.close()


def _short(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:160] if text else type(exc).__name__


def _open_pages(source: Path, kind: str, password: str | None
                ) -> tuple[pymupdf.Document, bool]:
    """The input as a PDF, and whether it is encrypted: a PDF as it is; images, XPS, EPUB and
    CBZ as PyMuPDF turns them into PDF pages (a JPEG keeps its own bytes; other images are
    stored losslessly), opened as the kind its content was identified as, whatever its name.
    Encryption is read before the password is given: asking the opened document afterwards
    (`needs_pass`) makes MuPDF write its streams encrypted twice."""
    if kind in PIXELS_ONLY:
        return _page_of_pixels(source), False
    try:
        opened = pymupdf.open(str(source), filetype=kind)
    except Exception as exc:
        raise ExportFailed(f"The searchable PDF could not be made: {source.name} cannot be "
                           f"opened again ({_short(exc)}).") from None
    encrypted = bool(opened.is_encrypted)
    if opened.needs_pass and not opened.authenticate(password or ""):
        opened.close()
        raise ExportFailed(f"The searchable PDF could not be made: {source.name} is encrypted "
                           "and the password does not open it.")
    if opened.is_pdf:
        return opened, encrypted
    try:
        return pymupdf.open("pdf", opened.convert_to_pdf()), False
    finally:
        opened.close()


def _page_of_pixels(source: Path) -> pymupdf.Document:
    """A PDF page holding an image PDF cannot carry as it is (WebP), stored losslessly as
    PNG, laid on white where transparent as Paperlens read it, at 96 dpi (as MuPDF takes
    images without a resolution)."""
    import cv2
    import numpy as np

    from engine.imaging import composite_on_white

    image = cv2.imdecode(np.fromfile(str(source), dtype=np.uint8), cv2.IMREAD_UNCHANGED)
    ok, png = cv2.imencode(".png", composite_on_white(image)) if image is not None else (False,
                                                                                      None)
    if not ok:
        raise ExportFailed(f"The searchable PDF could not be made: {source.name} cannot be "
                           "read again.")
    document = pymupdf.open()
    page = document.new_page(width=image.shape[1] * 72 / 96, height=image.shape[0] * 72 / 96)
    page.insert_image(page.rect, stream=png.tobytes())
    return document


def _has_ocr_text(page: PageResult) -> bool:
    return (page.text_source is TextSource.OCR and page.status is not Status.FAILED
            and any(line.text.strip() for line in page_lines(page)))


def _add_text_layer(document: pymupdf.Document, pdf_page: pymupdf.Page, page: PageResult,
                    font: InvisibleFont) -> None:
    _remove_invisible_text(pdf_page)
    visible = _visible_text(pdf_page)
    to_shown = _pixels_to_shown(pdf_page, page)
    to_pdf = _pixels_to_pdf(pdf_page, page)
    ops = [f"BT /{FONT_NAME} 1 Tf 3 Tr"]
    for line in page_lines(page):
        if visible and _covered(pymupdf.Rect(line.box.x0, line.box.y0, line.box.x1,
                                             line.box.y1) * to_shown, visible):
            continue  # the page's own text is there already, and searchable
        for run in line_runs(line, font):
            ops.append(_show(run, to_pdf, font))
    ops.append("ET")
    if len(ops) == 2:
        return
    pdf_page.insert_font(fontname=FONT_NAME, fontbuffer=font.data)
    if pdf_page.get_contents():
        pdf_page.wrap_contents()  # the page's own graphics state stays inside q ... Q
    _append_contents(document, pdf_page, "\n".join(ops).encode("ascii"))


def _show(run: Run, to_pdf: pymupdf.Matrix, font: InvisibleFont) -> str:
    matrix = pymupdf.Matrix(*run.matrix()) * to_pdf
    numbers = " ".join(_num(v) for v in (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e,
                                         matrix.f))
    return f"{numbers} Tm <{font.encode(run.text)}> Tj"


def _num(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pixels_to_pdf(pdf_page: pymupdf.Page, page: PageResult) -> pymupdf.Matrix:
    """Analysed page pixels -> PDF user space: onto the page as shown, then the page's own
    /Rotate and y axis undone."""
    return (_pixels_to_shown(pdf_page, page) * pdf_page.derotation_matrix
            * ~pdf_page.transformation_matrix)


def _pixels_to_shown(pdf_page: pymupdf.Page, page: PageResult) -> pymupdf.Matrix:
    """Analysed page pixels -> the page as a viewer shows it (points, y down): the quarter
    turns the reader made undone, the pixels scaled onto the page."""
    width, height = page.width, page.height
    turn = page.rotation % 360
    if turn == 90:      # turned clockwise: a pixel (x, y) was at (y, H0 - x)
        original = (height, width)
        unturn = pymupdf.Matrix(0, -1, 1, 0, 0, width)
    elif turn == 180:
        original = (width, height)
        unturn = pymupdf.Matrix(-1, 0, 0, -1, width, height)
    elif turn == 270:   # turned counter-clockwise: a pixel (x, y) was at (W0 - y, x)
        original = (height, width)
        unturn = pymupdf.Matrix(0, 1, -1, 0, height, 0)
    else:
        original = (width, height)
        unturn = pymupdf.Matrix(1, 0, 0, 1, 0, 0)
    shown = pdf_page.rect
    scale = pymupdf.Matrix(shown.width / max(original[0], 1), 0, 0,
                           shown.height / max(original[1], 1), 0, 0)
    return unturn * scale


def _visible_text(pdf_page: pymupdf.Page) -> list[pymupdf.Rect]:
    """Where the page shows text of its own (a page that is mostly picture, with some real
    text on it), as the page is shown."""
    rects = []
    for block in pdf_page.get_text("dict")["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                if span["text"].strip() and span.get("alpha", 255) > 0:
                    rects.append(pymupdf.Rect(span["bbox"]))
    return rects


def _covered(box: pymupdf.Rect, visible: list[pymupdf.Rect]) -> bool:
    """Whether most of an OCR line lies on text the page already has."""
    area = abs(box)
    inside = sum(abs(box & rect) for rect in visible)
    return area > 0 and inside >= COVERED_SHARE * area


def _remove_invisible_text(pdf_page: pymupdf.Page) -> None:
    """An earlier OCR layer (text that is all invisible) goes, so text is not found twice;
    visible text (a garbled layer read again by OCR) stays, since it is part of the page."""
    trace = pdf_page.get_texttrace()
    if not trace or any(span["type"] != 3 and span["opacity"] > 0 for span in trace):
        return
    pdf_page.add_redact_annot(pdf_page.rect)
    pdf_page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_NONE,
                              graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                              text=pymupdf.PDF_REDACT_TEXT_REMOVE)


def _append_contents(document: pymupdf.Document, pdf_page: pymupdf.Page, data: bytes) -> None:
    xref = document.get_new_xref()
    document.update_object(xref, "<<>>")
    document.update_stream(xref, data)
    kind, value = document.xref_get_key(pdf_page.xref, "Contents")
    if kind == "array":
        contents = value[:-1].rstrip() + f" {xref} 0 R]"
    elif kind == "xref":
        contents = f"[{value} {xref} 0 R]"
    else:
        contents = f"{xref} 0 R"
    document.xref_set_key(pdf_page.xref, "Contents", contents)


def heading_entries(result: DocumentResult) -> list[tuple[int, str, int, Box]]:
    """(level, text, page index, box in page pixels) of every heading, in reading order."""
    entries = []
    for index, page in enumerate(result.pages):
        for block in page.blocks:
            text = " ".join(block.text.split())
            if block.kind in HEADINGS and text:
                level = block.level or (1 if block.kind is BlockKind.TITLE else 2)
                entries.append((level, text, index, block.box))
    return entries


def outline(result: DocumentResult) -> list[list]:
    """The headings as [level, text, page] outline entries: levels counted from the
    document's highest heading, and gapless (an outline cannot skip a level)."""
    entries = heading_entries(result)
    top = min((level for level, *_ in entries), default=1)
    toc: list[list] = []
    previous = 0
    for level, text, index, _box in entries:
        level = max(1, min(level - top + 1, previous + 1))
        toc.append([level, text, index + 1])
        previous = level
    return toc


def _set_outline_and_title(document: pymupdf.Document, result: DocumentResult) -> None:
    toc = outline(result)
    for entry, (_level, _text, index, box) in zip(toc, heading_entries(result)):
        # Each entry opens its page at the heading itself.
        shown = pymupdf.Rect(box.x0, box.y0, box.x1, box.y1) * _pixels_to_shown(
            document[index], result.pages[index])
        entry.append({"kind": pymupdf.LINK_GOTO, "page": index + 1,
                      "to": pymupdf.Point(shown.x0, shown.y0), "zoom": 0})
    if toc and not document.get_toc():  # an author's own outline is kept
        document.set_toc(toc)
    metadata = dict(document.metadata or {})
    if toc and not (metadata.get("title") or "").strip():
        metadata["title"] = toc[0][1]
    metadata["producer"] = PRODUCER
    document.set_metadata({k: v for k, v in metadata.items()
                           if k in ("title", "author", "subject", "keywords", "creator",
                                    "producer", "creationDate", "modDate", "trapped")
                           and v is not None})

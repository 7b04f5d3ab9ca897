"""Presentations (PPTX) read with python-pptx: one page per slide, its shapes in reading order
(top to bottom, then left to right; groups opened), the title placeholder a heading, body
placeholders and bulleted paragraphs list items, tables with their merged cells (the first
row the head when marked so, or painted so: engine/office/model.py, painted_head), pictures,
and the speaker notes after the slide's content."""

from __future__ import annotations

from pathlib import Path

from engine.office.model import PICTURE, Cell, OfficeDocument, OfficePage, Part, joined, \
    office_table, painted_head
from engine.content.tables import Table

EMU_PER_PT = 12_700
_BULLETS = ("buChar", "buAutoNum", "buBlip")


def read_presentation(path: Path) -> OfficeDocument:
    from pptx import Presentation

    deck = Presentation(str(path))
    width = (deck.slide_width or 9_144_000) / EMU_PER_PT
    height = (deck.slide_height or 6_858_000) / EMU_PER_PT
    pages = []
    for slide in deck.slides:
        parts: list[Part] = []
        unread: list[str] = []
        title = ""
        for shape in _in_reading_order(slide.shapes):
            parts.extend(_shape_parts(shape, slide, unread))
        for part in parts:
            if part.kind in ("title", "section_header"):
                title = part.text
                break
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            text = joined([notes.text.replace("\n", " ")]) if notes is not None else ""
            if text:
                parts.append(Part("footnote", text))
        pages.append(OfficePage(tuple(parts), title=title, width_pt=width, height_pt=height,
                                unread=tuple(unread)))
    return OfficeDocument("pptx", tuple(pages))


def _content_left_out(shape) -> str:
    """What a shape without text holds that is not read ("" for lines, connectors and empty
    shapes, which hold nothing to read)."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    if getattr(shape, "has_chart", False) and shape.has_chart:
        return "the chart"
    kinds = {MSO_SHAPE_TYPE.EMBEDDED_OLE_OBJECT: "the embedded object",
             MSO_SHAPE_TYPE.LINKED_OLE_OBJECT: "the linked object",
             MSO_SHAPE_TYPE.MEDIA: "the video or sound", MSO_SHAPE_TYPE.DIAGRAM: "the diagram"}
    if shape.shape_type in kinds:
        return kinds[shape.shape_type]
    if shape.element.tag.endswith("}graphicFrame"):  # SmartArt and other drawings in a frame
        return "the drawing"
    return ""


def _in_reading_order(shapes) -> list:
    return sorted(shapes, key=lambda s: ((s.top or 0) // EMU_PER_PT // 8, s.left or 0))


def _shape_parts(shape, slide, unread: list[str]) -> list[Part]:
    """The shape's parts; a shape that holds content this reader does not take (a chart, a
    SmartArt diagram, an embedded object or video) is named in `unread` instead."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER

    if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
        return [p for child in _in_reading_order(shape.shapes)
                for p in _shape_parts(child, slide, unread)]
    if getattr(shape, "has_table", False) and shape.has_table:
        return [Part("table", table=_table(shape.table))]
    picture = _picture_member(shape)
    if picture:
        return [Part(PICTURE, picture=picture)]
    if not getattr(shape, "has_text_frame", False) or not shape.has_text_frame:
        left_out = _content_left_out(shape)
        if left_out:
            unread.append(f"{left_out} {shape.name!r} on this slide is not read")
        return []
    kind = shape.placeholder_format.type if shape.is_placeholder else None
    if kind in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.SLIDE_NUMBER, PP_PLACEHOLDER.DATE):
        # Furniture on every slide, left out of the Markdown as a printed page's footer is.
        text = joined([shape.text_frame.text.replace("\n", " ")])
        return [Part("footer", text)] if text else []
    if kind in (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.VERTICAL_TITLE):
        text = joined([shape.text_frame.text.replace("\n", " ").replace("\v", " ")])
        if not text:
            return []
        return [Part("title", text, level=1) if kind == PP_PLACEHOLDER.CENTER_TITLE
                else Part("section_header", text, level=2)]
    listed = kind in (PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT, PP_PLACEHOLDER.VERTICAL_BODY,
                      PP_PLACEHOLDER.VERTICAL_OBJECT)
    parts = []
    for paragraph in shape.text_frame.paragraphs:
        text = joined([paragraph.text.replace("\v", " ")])
        if not text:
            continue
        if _no_bullet(paragraph) or not (listed or _bulleted(paragraph)):
            parts.append(Part("text", text))
        else:
            parts.append(Part("list_item", text, level=paragraph.level))
    return parts


def _bulleted(paragraph) -> bool:
    properties = paragraph._p.pPr
    return properties is not None and any(
        child.tag.rsplit("}", 1)[-1] in _BULLETS for child in properties)


def _no_bullet(paragraph) -> bool:
    properties = paragraph._p.pPr
    return properties is not None and any(
        child.tag.rsplit("}", 1)[-1] == "buNone" for child in properties)


def _picture_member(shape) -> str:
    """The package member of a picture shape's image ("" for any other shape)."""
    blip = shape._element.xpath(".//a:blip/@r:embed") if hasattr(shape, "_element") else []
    if not blip or getattr(shape, "has_text_frame", False) and shape.has_text_frame \
            and shape.text_frame.text.strip():
        return ""
    try:
        return str(shape.part.related_part(blip[0]).partname).lstrip("/")
    except KeyError:
        return ""


def _table(table) -> Table:
    rows, fills = [], []
    for row in table.rows:
        cells, painted = [], []
        for cell in row.cells:
            if cell.is_spanned:
                continue
            text = joined([cell.text.replace("\n", " ").replace("\v", " ")])
            if cell.is_merge_origin:
                cells.append(Cell(text, rowspan=cell.span_height, colspan=cell.span_width))
            else:
                cells.append(Cell(text))
            painted.append(_fill(cell))
        rows.append(cells)
        fills.append(painted)
    header = 1 if table.first_row else painted_head(fills)
    return office_table(rows, header)


_SOLID_FILL = "{http://schemas.openxmlformats.org/drawingml/2006/main}solidFill"


def _fill(cell) -> str:
    """A cell's own solid fill as written ("" when it has none: the table style paints it)."""
    properties = cell._tc.tcPr
    fill = properties.find(_SOLID_FILL) if properties is not None else None
    if fill is None or not len(fill):
        return ""
    colour = fill[0]
    return f"{colour.tag.rsplit('}', 1)[-1]}:{colour.get('val', '')}"

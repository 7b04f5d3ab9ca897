"""A two-column report page with a ruled table, drawn with PyMuPDF at test time."""

from pathlib import Path

import pymupdf

TABLE_HEADER = ["Field", "Yield t/ha", "Rain mm", "Grade"]
TABLE_ROWS = [[f"Field {i}", f"{i * 3}.{i}", str(i * 7), f"grade {chr(64 + i)}"] for i in range(1, 6)]
LEFT = [f"Left column sentence {i} explains the harvest." for i in range(1, 9)]
RIGHT = [f"Right column sentence {i} describes the weather." for i in range(1, 9)]


def write_two_column_report(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((50, 70), "Harvest Report 2024", fontsize=20, fontname="tibo")
    for column_x, sentences in ((50, LEFT), (310, RIGHT)):
        box = pymupdf.Rect(column_x, 95, column_x + 235, 400)
        page.insert_textbox(box, " ".join(sentences), fontsize=11, fontname="tiro")
    page.insert_text((50, 432), "Table 1. Yields per field.", fontsize=10, fontname="tiro")
    widths = [140, 110, 110, 135]
    top, row_h = 442, 22
    rows = [TABLE_HEADER] + TABLE_ROWS
    right_edge = 50 + sum(widths)
    for r in range(len(rows) + 1):
        page.draw_line((50, top + r * row_h), (right_edge, top + r * row_h), width=0.8)
    x = 50
    for w in widths + [0]:
        page.draw_line((x, top), (x, top + len(rows) * row_h), width=0.8)
        x += w
    for r, row in enumerate(rows):
        x = 50
        for text, w in zip(row, widths):
            page.insert_text((x + 6, top + r * row_h + 15), text, fontsize=11,
                             fontname="tibo" if r == 0 else "tiro")
            x += w
    doc.save(path)
    return path

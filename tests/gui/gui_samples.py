"""Small documents the GUI tests convert, written with PyMuPDF into the test's folder."""

from __future__ import annotations

from pathlib import Path

PARAGRAPH = ("Paperlens reads this page with optical character recognition. The quick brown "
             "fox jumps over the lazy dog while the detector finds every line of text and "
             "the recogniser turns each line into words. ")


def write_text_pdf(path: Path, pages: int, paragraphs: int = 6) -> Path:
    """A PDF of `pages` A4 pages full of text (converted with OCR, every page costs real time)."""
    import pymupdf

    document = pymupdf.open()
    for number in range(1, pages + 1):
        page = document.new_page(width=595, height=842)
        page.insert_text((72, 80), f"Page {number} of the sample", fontsize=18)
        box = pymupdf.Rect(72, 110, 523, 780)
        page.insert_textbox(box, (PARAGRAPH * 2 + "\n\n") * paragraphs, fontsize=11)
    document.save(str(path))
    document.close()
    return path


def write_encrypted_pdf(path: Path, password: str) -> Path:
    import pymupdf

    document = pymupdf.open()
    page = document.new_page(width=595, height=842)
    page.insert_text((72, 100), "A locked page about invoices.", fontsize=14)
    document.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password,
                  owner_pw=password + "-owner")
    document.close()
    return path

"""The file name suffixes of the inputs Paperlens reads, free of the readers' imports (a folder
listing needs these and not PyMuPDF or OpenCV)."""

from __future__ import annotations

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp"})
DOCUMENT_SUFFIXES = frozenset({".pdf", ".xps", ".oxps", ".epub", ".cbz", ".docx", ".xlsx",
                               ".pptx", ".odt", ".ods", ".odp"})
SUPPORTED_SUFFIXES = IMAGE_SUFFIXES | DOCUMENT_SUFFIXES

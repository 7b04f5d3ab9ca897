"""Paperlens as OCRmyPDF's OCR engine: `ocrmypdf --plugin paperlens_ocrmypdf in.pdf out.pdf`.

OCRmyPDF renders each page to an image and asks its engine for the page's text; this plugin
reads the image with Paperlens (detection, recognition, layout and reading order, word boxes)
and gives OCRmyPDF the OcrElement tree of paragraphs, lines and words, which OCRmyPDF's own
renderer lays on the page as invisible text. One Engine per OCRmyPDF worker process, its models
loaded on the first page; conversion settings come from the user's Paperlens settings file.

OCRmyPDF 17 still wants the tesseract program on the PATH (its built-in Tesseract plugin
checks for it on every run, and its option checks need that plugin loaded), though Tesseract
reads nothing here. Only loaded when named with --plugin (no entry point: OCRmyPDF would load
one for every run and Paperlens would take over from Tesseract unasked)."""

from __future__ import annotations

import threading
from pathlib import Path

from ocrmypdf import hookimpl
from ocrmypdf.pluginspec import OcrEngine, OrientationConfidence

LANGUAGES = frozenset({"eng", "chi_sim", "chi_tra", "jpn"})
"""What the default recognition model (PP-OCRv6) reads: Chinese (both scripts), Japanese and
English; OCRmyPDF refuses any other -l with this list."""
SIDE_RENDERER_MESSAGE = (
    "Paperlens gives OCRmyPDF its text as an OcrElement tree, which OCRmyPDF's fpdf2 renderer "
    "lays on the page; use --pdf-renderer auto (the default) or fpdf2, not {}.")

_engine_lock = threading.Lock()
_engine = None


def _shared_engine():
    """This process's Engine and settings (OCRmyPDF runs pages in worker threads or worker
    processes: one per process, one page at a time on it)."""
    global _engine
    with _engine_lock:
        if _engine is None:
            from engine.api import Engine
            from settings import SettingsStore

            settings = SettingsStore().load()
            _engine = (Engine(settings), settings, threading.Lock())
        return _engine


def read_page(input_file: Path):
    """The page image read by Paperlens: OCR on every line, the picture as given (OCRmyPDF
    has deskewed or rotated it already when asked to), nothing written."""
    from engine.api import TextMethod, options_from_settings

    engine, settings, lock = _shared_engine()
    options = options_from_settings(settings, method=TextMethod.OCR, dewarp=False,
                                    write_json=False, write_markdown=False,
                                    write_content_list=False)
    with lock:
        result = engine.convert(Path(input_file), options)
    (page,) = result.pages
    return page


class PaperlensOcrEngine(OcrEngine):
    @staticmethod
    def version() -> str:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("paperlens")
        except PackageNotFoundError:
            return "source"

    @staticmethod
    def creator_tag(options) -> str:
        return f"Paperlens {PaperlensOcrEngine.version()}"

    def __str__(self) -> str:
        return f"Paperlens {self.version()}"

    @staticmethod
    def languages(options) -> set[str]:
        return set(LANGUAGES)

    @staticmethod
    def get_orientation(input_file: Path, options) -> OrientationConfidence:
        """No opinion (confidence 0): Paperlens turns a page itself while reading it, and the
        boxes it gives are laid back on the image as OCRmyPDF passed it."""
        return OrientationConfidence(angle=0, confidence=0.0)

    @staticmethod
    def get_deskew(input_file: Path, options) -> float:
        return 0.0

    @staticmethod
    def supports_generate_ocr() -> bool:
        return True

    @staticmethod
    def generate_ocr(input_file: Path, options, page_number: int = 0):
        from PIL import Image

        from paperlens_ocrmypdf.page_tree import page_text, page_tree

        with Image.open(input_file) as image:
            size = image.size
            dpi = image.info.get("dpi", (300, 300))
        dpi = float(dpi[0] if isinstance(dpi, tuple) else dpi)
        tree = page_tree(read_page(Path(input_file)), size, dpi, page_number)
        return tree, page_text(tree)

    @staticmethod
    def generate_hocr(input_file: Path, output_hocr: Path, output_text: Path, options) -> None:
        raise NotImplementedError(SIDE_RENDERER_MESSAGE.format("hocr"))

    @staticmethod
    def generate_pdf(input_file: Path, output_pdf: Path, output_text: Path, options) -> None:
        raise NotImplementedError(SIDE_RENDERER_MESSAGE.format("sandwich"))


@hookimpl
def get_ocr_engine(options):
    """Paperlens whenever this plugin is loaded (hooks registered last are asked first)."""
    return PaperlensOcrEngine()

"""The journey of a document, in one place: open it, choose its pages, run each page through
PAGE_STAGES, set aside what repeats across pages, join tables that go on over a page break,
write the Markdown and commit every file at once. Adding a page stage is one line in
PAGE_STAGES."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, Iterator

from engine import events
from engine.errors import (Cancelled, CorruptDocument, DocumentFailed, InvalidOptions,
                           PaperlensError)
from engine.formulas.display import tidy_display_math
from engine.formulas.inline import find_inline_math
from engine.formulas.stage import find_math_lines, recognize_formula_image, recognize_formulas
from engine.export.registry import ExportContext, export_document
from engine.input.document import Document, open_document
from engine.input.stage import choose_text_source, render
from engine.layout.stage import detect_layout
from engine.model_set import ModelSet
from engine.office.pages import office_pages
from engine.photo.stage import flatten_photo
from engine.ocr.coverage import check_coverage
from engine.ocr.handwriting import flag_handwriting
from engine.ocr.stage import join_leaders, recognize_text, split_at_gutters
from engine.options import ConvertOptions, TablesAcrossPages
from engine.output.content_list import content_list
from engine.output.document_json import document_json
from engine.output.markdown import render_markdown
from engine.output.overlay import LayoutOverlay
from engine.output.writer import OutputWriter, check_writable
from engine.page import PageOutcome, PageState, Stage
from engine.runtime.steps import ONNX_PREFIX, STEP_PREFIX, advance
from engine.structure.furniture import mark_furniture
from engine.structure.headings import document_headings
from engine.structure.hyphens import WordLists, mend_hyphens
from engine.structure.stage import (assemble_blocks, crop_figures, drop_line_number_gutter,
                                    read_code_cells)
from engine.tables.across_pages import join_tables_across_pages
from engine.tables.lineless import find_lineless_tables
from engine.tables.stage import recognize_tables
from engine.types import DocumentResult, PageError, PageResult, Status, document_status

PAGE_STAGES: tuple[tuple[str, Stage], ...] = (
    ("render", render),                            # engine/input: page -> pixels
    ("text_layer", choose_text_source),            # engine/input: a trustworthy text layer?
    ("photo", flatten_photo),                      # engine/photo: a photographed page flattened
    ("ocr", recognize_text),                       # engine/ocr: det -> cls -> rec otherwise
    ("handwriting", flag_handwriting),             # engine/ocr: mostly handwritten? say so
    ("layout", detect_layout),                     # engine/layout: regions by kind
    ("gutters", split_at_gutters),                 # engine/ocr: lines cut at column gutters
    ("leaders", join_leaders),                     # engine/ocr: entry . . . page number
    ("line_numbers", drop_line_number_gutter),     # engine/structure: 1, 2, 3 ... in a margin
    ("formula_image", recognize_formula_image),    # engine/formulas: an image that is a formula
    ("math_lines", find_math_lines),               # engine/formulas: display math left loose
    ("lineless_tables", find_lineless_tables),     # engine/tables: text-layer columns
    ("table", recognize_tables),                   # engine/tables
    ("formula", recognize_formulas),               # engine/formulas: LaTeX per formula region
    ("figures", crop_figures),                     # engine/structure
    ("blocks", assemble_blocks),                   # engine/structure: blocks in reading order
    ("hyphens", mend_hyphens),                     # engine/structure: "well-known" kept whole
    ("code_cells", read_code_cells),               # engine/structure: code laid on its cells
    ("display_math", tidy_display_math),           # engine/formulas: once, numbered, no item no.
    ("inline_math", find_inline_math),             # engine/formulas: $x^2$ inside the text
    ("coverage", check_coverage),                  # engine/ocr: text seen but not read, said
)


def convert_document(source: Path, options: ConvertOptions, models: ModelSet,
                     on_event: events.EventCallback, check_cancel: Callable[[], None]
                     ) -> DocumentResult:
    """The document read page by page in this process."""

    def read_here(document: Document, numbers: list[int], stem: str) -> Iterator[PageOutcome]:
        def progress(index: int, number: int, stage: str, state: PageState) -> None:
            on_event(events.PageProgress(str(source), number, index, len(numbers), stage,
                                         state.image, state.rotation, state.lines,
                                         state.regions))

        return read_pages(document, numbers, options, stem, models, check_cancel, progress)

    return assemble_document(source, options, read_here, on_event, check_cancel,
                             models.word_lists)


PageSource = Callable[["Document", list[int], str], Iterable[PageOutcome]]
"""Reads the chosen pages of an open document and yields their outcomes in page order:
`(document, page numbers, output stem)`. Here (`read_pages`) or on other machines
(engine/cluster); everything that needs all pages happens in `assemble_document`."""


def read_pages(document: Document, numbers: list[int], options: ConvertOptions, stem: str,
               models: ModelSet, check_cancel: Callable[[], None],
               on_stage: Callable[[int, int, str, PageState], None] | None = None
               ) -> Iterator[PageOutcome]:
    """Each page through run_page, in order. `on_stage(index, number, stage, page)` hears of
    every stage that finished. The picture is kept only when the layout overlay needs it.
    An Office document's pages come from its markup instead (engine/office/pages.py), and
    only the pictures inside it go through run_page, each as an image input of its own."""
    if document.office is not None:
        def read_picture(path: Path, prefix: str) -> PageOutcome:
            with open_document(path, bounded=False) as picture:
                state = PageState(document=picture, page_number=1, options=options,
                                  image_prefix=prefix)
                state, result = run_page(state, models, check_cancel)
                return PageOutcome(result, state.crops, state.image)

        yield from office_pages(document.path, document.office, numbers, stem, read_picture)
        return
    for index, number in enumerate(numbers):
        check_cancel()
        page = PageState(document=document, page_number=number, options=options,
                         image_prefix=f"{stem}-p{number}")

        def progress(stage: str, state: PageState, index=index, number=number) -> None:
            if on_stage is not None:
                on_stage(index, number, stage, state)

        page, result = run_page(page, models, check_cancel, progress)
        yield PageOutcome(result, page.crops,
                          page.image if options.write_layout_overlay else None)


def assemble_document(source: Path, options: ConvertOptions, read: PageSource,
                      on_event: events.EventCallback, check_cancel: Callable[[], None],
                      word_lists: Callable[[], WordLists] | None = None) -> DocumentResult:
    """Open the document, choose its pages, take their outcomes from `read` in order (images
    staged as each arrives), then what needs every page: furniture, Markdown, the commit.
    `word_lists`: what tells a compound's hyphen from a word broken in two where a paragraph
    goes on past a column or page (engine/structure/hyphens.py); without them every such
    hyphen is a broken word's."""
    started = time.perf_counter()
    stem = options.output_name or source.stem
    if options.output_dir is not None:
        check_writable(Path(options.output_dir))
    writer: OutputWriter | None = None
    overlay = LayoutOverlay() if options.write_layout_overlay else None
    try:
        with open_document(source, options.password, check_cancel) as document:
            numbers = select_pages(options.pages, document.page_count, source.name)
            if options.output_dir is not None:
                # The name is settled here, before any page names an image after it.
                writer = OutputWriter(Path(options.output_dir), stem, options.overwrite)
                stem = writer.stem
            on_event(events.DocumentStarted(str(source), len(numbers)))
            pages: list[PageResult] = []
            for index, outcome in enumerate(read(document, numbers, stem)):
                result, number = outcome.result, outcome.result.page_number
                for warning in result.warnings:
                    on_event(events.Warning(str(source), warning, number))
                if writer is not None:
                    writer.add_images(dict(outcome.crops))
                if overlay is not None and outcome.image is not None:
                    overlay.add_page(outcome.image, result)
                pages.append(result)
                on_event(events.PageDone(str(source), number, index, len(numbers), result,
                                         dict(result.timings_s)))
            check_cancel()
            if document.office is None:  # an Office document's headings are its styles'
                pages = mark_furniture(pages)                 # running heads set aside
                if options.tables_across_pages is TablesAcrossPages.JOIN:
                    pages = join_tables_across_pages(pages)   # a table going on: one table
                pages = document_headings(pages)              # heading levels, whole document
            export_start = time.perf_counter()
            markdown = render_markdown(pages, options.table_format, options.keep_furniture,
                                       word_lists)
            result = DocumentResult(path=str(source), kind=document.kind.value,
                                    page_count=document.page_count, pages=tuple(pages),
                                    markdown=markdown, status=document_status(pages),
                                    warnings=tuple(f"page {p.page_number}: {w}"
                                                   for p in pages for w in p.warnings))
            if result.status is Status.FAILED:
                raise DocumentFailed(_nothing_read(result), result)
            if writer is not None:
                check_cancel()
                exported = export_document(result, options.exports, stem, ExportContext(
                    options.password, writer.staging, options.table_format))
                check_cancel()  # a stop asked for while exporting: nothing is written
                for problem in exported.problems:  # that format alone is left out
                    on_event(events.Warning(str(source), problem))
                result = replace(result, warnings=result.warnings + exported.problems)
                result = replace(result, outputs=commit(writer, result, stem, options, overlay,
                                                        exported.files))
                writer = None
            return replace(result, timings_s={"export": time.perf_counter() - export_start,
                                              "total": time.perf_counter() - started})
    finally:
        if writer is not None:
            writer.abort()
        if overlay is not None:
            overlay.close()


def _nothing_read(result: DocumentResult) -> str:
    first = result.pages[0]
    reason = f" (page {first.page_number}, {first.errors[0].stage}: {first.errors[0].message})" \
        if first.errors else ""
    return f"No page of {Path(result.path).name} could be read{reason}; nothing was written."


def run_page(page: PageState, models: ModelSet, check_cancel: Callable[[], None],
             on_stage: Callable[[str, PageState], None] = lambda _stage, _page: None
             ) -> tuple[PageState, PageResult]:
    """Every stage in order, each timed; pure inference time is recorded per model role
    (`onnx_det`), and the seconds of the models' and Tesseract's steps per chain (`step_det`,
    `step_script_reading.tesseract_lines`: engine/runtime/steps.py), inside the stages.

    A stage that raises fails this page alone (status failed, the stage and the reason in its
    errors) and the document goes on. Cancellation, and errors about the whole run (a model
    that cannot be loaded, an output folder that cannot be written), stop the document; so
    does a damaged single image, which has no other page to save (a damaged frame of a
    multi-page TIFF fails that page alone). `on_stage(name, page)` hears
    of every stage that finished, for a live view of the page."""
    before, steps_before = models.clock_snapshot(), models.step_snapshot()
    timings: dict[str, float] = {}
    failed = False
    for name, stage in PAGE_STAGES:
        check_cancel()
        start = time.perf_counter()
        try:
            page = stage(page, models)
        except Cancelled:
            raise
        except PaperlensError as exc:
            if not isinstance(exc, CorruptDocument) or (not page.document.kind.is_paged
                                                        and page.document.page_count < 2):
                raise
            page, failed = _failed(page, name, exc), True
        except Exception as exc:  # one bad page fails that page, never the document
            page, failed = _failed(page, name, exc), True
        timings[name] = time.perf_counter() - start
        if failed:
            break
        on_stage(name, page)
    for role, spent in advance(before, models.clock_snapshot()).items():
        timings[f"{ONNX_PREFIX}{role}"] = spent
    for chain, spent in advance(steps_before, models.step_snapshot()).items():
        timings[f"{STEP_PREFIX}{chain}"] = spent
    page = replace(page, timings_s=timings)
    return page, page.result(failed=failed)


def _failed(page: PageState, stage: str, exc: BaseException) -> PageState:
    message = getattr(exc, "message", None) or str(exc)[:300] or type(exc).__name__
    error = PageError(stage=stage, kind=type(exc).__name__, message=message)
    return replace(page, blocks=(), crops=(), errors=page.errors + (error,),
                   text_source_reason=page.text_source_reason or "failed")


def commit(writer: OutputWriter, result: DocumentResult, stem: str, options: ConvertOptions,
           overlay: LayoutOverlay | None, exported: dict[str, bytes] | None = None
           ) -> tuple[str, ...]:
    """JSON, content list, layout PDF and exports staged, then the Markdown last: once it is
    visible, everything it links to is in place."""
    payloads: dict[str, bytes] = dict(exported or {})
    if options.write_json:
        payloads[f"{stem}.json"] = json.dumps(document_json(result), ensure_ascii=False,
                                              indent=1).encode()
    if options.write_content_list:
        payloads[f"{stem}_content_list.json"] = json.dumps(
            content_list(result.pages), ensure_ascii=False, indent=1).encode()
    staged: tuple[str, ...] = ()
    if overlay is not None:
        name = f"{stem}_layout.pdf"
        staged = (writer.produce(name, lambda path: overlay.save(str(path))),)
    if options.write_markdown:
        payloads[f"{stem}.md"] = result.markdown.encode("utf-8")
    return writer.commit(payloads, staged, move_images=options.write_markdown)


def select_pages(pages: tuple[int, ...] | None, count: int, name: str) -> list[int]:
    if pages is None:
        return list(range(1, count + 1))
    outside = [p for p in pages if p > count]
    if outside:
        raise InvalidOptions(f"{name} has {count} page(s); page {outside[0]} does not exist.")
    return list(pages)

"""The MCP tools of paperlens-mcp, on the official MCP Python SDK's MCPServer: convert a
document to Markdown, fetch a kept result's Markdown, JSON or one page's blocks, list the kept
results, and show the compute device.

A conversion runs in a worker thread; each page read is an MCP progress notification, and a
request the client cancels sets the engine's cancel event, which the engine checks before every
page stage: the conversion stops within the page it is reading and writes nothing."""

from __future__ import annotations

import threading
from typing import Annotated, Any, Literal

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from engine.api import Cancelled, PaperlensError
from paperlens_mcp.conversions import ConversionRequest, Conversions, Refused
from paperlens_mcp.results import ResultNotFound

INSTRUCTIONS = (
    "Paperlens reads PDFs and images (scans, photos, born-digital pages) on this computer and "
    "turns them into Markdown with tables, formulas and reading order. convert_document reads "
    "one document, given by its path inside a folder the server allows or as base64 bytes; "
    "every conversion is kept, and get_result returns its Markdown, its JSON or one page's "
    "blocks later.")

PagesArg = Annotated[str | None, Field(description="Pages to read, e.g. '1-3,7' (default all).")]
FormatsArg = Annotated[str | None, Field(
    description="What to write beside the kept result, comma-separated: md, json, pdf (a "
                "searchable PDF), docx, xlsx, alto (ALTO 4 XML), hocr; default md,json, as "
                "paperlens-cli --format.")]


def build_server(conversions: Conversions) -> MCPServer:
    server = MCPServer("paperlens", instructions=INSTRUCTIONS)
    busy = anyio.Lock()

    @server.tool()
    async def convert_document(
            ctx: Context,
            path: Annotated[str | None, Field(description="Absolute path of the document, "
                                              "inside a folder the server allows.")] = None,
            content_base64: Annotated[str | None, Field(
                description="The document's bytes, base64; instead of path.")] = None,
            filename: Annotated[str | None, Field(
                description="Name of the sent bytes (names the outputs).")] = None,
            pages: PagesArg = None,
            keep_furniture: Annotated[bool, Field(
                description="Keep running headers, footers and page numbers.")] = False,
            table_format: Annotated[Literal["html", "markdown"] | None, Field(
                description="Tables as HTML, or Markdown pipe tables where no cell is merged "
                            "(default: the settings').")] = None,
            formats: FormatsArg = None,
            method: Annotated[Literal["auto", "txt", "ocr"], Field(
                description="Text per page: auto (a trustworthy text layer, else OCR), txt, "
                            "ocr.")] = "auto",
            layout: Annotated[Literal["doclaynet", "cdla", "none"] | None, Field(
                description="Layout model (default: the settings').")] = None,
            dpi: Annotated[int, Field(description="Render resolution, 50 to 600.")] = 200,
    ) -> dict[str, Any]:
        """Convert a PDF or image to Markdown, as `paperlens-cli convert` does with the same
        options. Returns the Markdown, the result id (for get_result), the status of every
        page and the files written. Reports each page read as progress; cancelling the request
        stops the conversion and writes nothing."""
        request = ConversionRequest(pages=pages, keep_furniture=keep_furniture,
                                    table_format=table_format, formats=formats, method=method,
                                    layout=layout, dpi=dpi)
        cancel = threading.Event()
        stopped = threading.Event()

        def report(done: int, total: int, message: str) -> None:
            if cancel.is_set():
                return
            try:
                anyio.from_thread.run(ctx.report_progress, done, total, message)
            except Exception:  # the request ended meanwhile; the conversion's own check stops it
                pass

        def work() -> dict[str, Any]:
            try:
                return conversions.run(request, path, content_base64, filename, report, cancel)
            finally:
                stopped.set()

        async with busy:
            try:
                return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                cancel.set()
                with anyio.CancelScope(shield=True):  # the engine stops within its page
                    while not stopped.is_set():
                        await anyio.sleep(0.05)
                raise
            except Cancelled as exc:
                raise ToolError(exc.message) from None
            except (Refused, PaperlensError) as exc:
                raise ToolError(str(getattr(exc, "message", exc))) from None

    @server.tool()
    def get_result(
            result_id: Annotated[str, Field(description="An id from convert_document or "
                                                        "list_results.")],
            part: Annotated[Literal["markdown", "json", "page"], Field(
                description="markdown, json (the whole document's JSON) or page (one page's "
                            "blocks).")] = "markdown",
            page: Annotated[int | None, Field(description="1-based page number, for part "
                                                          "page.")] = None,
    ) -> dict[str, Any]:
        """A kept conversion's Markdown, its JSON, or one page's blocks with their boxes."""
        try:
            if part == "markdown":
                return {"id": result_id, "markdown": conversions.results.markdown(result_id)}
            if part == "json":
                return {"id": result_id, "document": conversions.results.document(result_id)}
            if page is None:
                raise ToolError("part page needs page, a 1-based page number.")
            return {"id": result_id, "page": conversions.results.page(result_id, page)}
        except ResultNotFound as exc:
            raise ToolError(str(exc)) from None

    @server.tool()
    def list_results() -> dict[str, Any]:
        """Every kept conversion, newest first: id, source, status, pages and files."""
        return {"results_dir": str(conversions.results.root),
                "results": conversions.results.entries()}

    @server.tool()
    def device_status() -> dict[str, Any]:
        """The compute device: configured and effective, and why (as `paperlens-cli device
        status` shows it)."""
        from engine.api import device_status_lines

        status = conversions.engine.device_status()
        return {"status": status.to_json(), "text": "\n".join(device_status_lines(status))}

    return server

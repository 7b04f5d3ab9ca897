"""paperlens-mcp as a client meets it: a real server process over stdio, driven by the MCP SDK's
own ClientSession, converting scans made here with the real models."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp", reason="the mcp extra is not installed: pip install -e '.[mcp]'")
anyio = pytest.importorskip("anyio")

from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
CALL_TIMEOUT_S = 300.0


def write_scan(path: Path, pages: list[list[str]]) -> Path:
    """An image-only PDF of small printed pages: no text layer, so OCR reads every page."""
    import cv2
    import numpy as np
    import pymupdf

    doc = pymupdf.open()
    for lines in pages:
        pixels = np.full((320, 420, 3), 255, dtype=np.uint8)
        for row, text in enumerate(lines):
            cv2.putText(pixels, text, (14, 50 + 48 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                        (25, 25, 25), 2, cv2.LINE_AA)
        ok, png = cv2.imencode(".png", pixels)
        assert ok
        page = doc.new_page(width=420 * 72 / 150, height=320 * 72 / 150)
        page.insert_image(page.rect, stream=png.tobytes())
    doc.save(str(path))
    doc.close()
    return path


def server_env(folder: Path) -> dict[str, str]:
    """The test's own settings file (defaults); models from the user cache."""
    env = dict(os.environ)
    env.pop("PAPERLENS_MCP_TOKEN", None)
    env.update({"PAPERLENS_CONFIG": str(folder / "settings.json"), "PYTHONPATH": str(REPO_ROOT)})
    return env


def server_params(folder: Path, *args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "paperlens_mcp", "--results-dir",
                                       str(folder / "results"), *args],
                                 env=server_env(folder), cwd=str(REPO_ROOT))


def run_session(params: StdioServerParameters, scenario, log: Path):
    """`scenario(session)` against a freshly started server; the server's stderr goes to log."""
    async def main():
        with open(log, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await scenario(session)

    return anyio.run(main)


def structured(result) -> dict:
    assert not result.is_error, result.content[0].text
    return result.structured_content


@pytest.fixture
def allowed(tmp_path: Path) -> Path:
    folder = tmp_path / "allowed"
    folder.mkdir()
    return folder


@pytest.mark.slow
def test_tools_are_listed_and_paths_outside_the_allowed_folders_are_refused(tmp_path, allowed):
    outside = write_scan(tmp_path / "outside.pdf", [["Not yours to read"]])
    link = allowed / "link.pdf"
    link.symlink_to(outside)

    async def scenario(session):
        tools = {tool.name for tool in (await session.list_tools()).tools}
        refused = await session.call_tool("convert_document", {"path": str(outside)})
        through_link = await session.call_tool("convert_document", {"path": str(link)})
        relative = await session.call_tool("convert_document", {"path": "outside.pdf"})
        both = await session.call_tool("convert_document", {"path": str(link),
                                                            "content_base64": "AAAA"})
        bad_pages = await session.call_tool("convert_document", {
            "content_base64": base64.b64encode(outside.read_bytes()).decode(), "pages": "3-1"})
        unknown = await session.call_tool("get_result", {"result_id": "../../etc"})
        return tools, refused, through_link, relative, both, bad_pages, unknown

    tools, refused, through_link, relative, both, bad_pages, unknown = run_session(
        server_params(tmp_path, "--allow-dir", str(allowed)), scenario, tmp_path / "server.log")
    assert tools == {"convert_document", "get_result", "list_results", "device_status"}
    for result in (refused, through_link):
        assert result.is_error
        assert "outside the folders this server may read" in result.content[0].text
    assert relative.is_error and "not an absolute path" in relative.content[0].text
    assert both.is_error and "not both" in both.content[0].text
    assert bad_pages.is_error and "runs backwards" in bad_pages.content[0].text
    assert unknown.is_error and "is not a result id" in unknown.content[0].text


@pytest.mark.model
@pytest.mark.slow
def test_a_scan_converts_as_the_cli_converts_it_and_is_kept(tmp_path, allowed, default_models):
    scan = write_scan(allowed / "letter.pdf", [["Dear Reader,", "The river rose at noon."],
                                               ["Second page", "Harvest begins in May."]])
    env = server_env(tmp_path)
    cli = subprocess.run([sys.executable, "-m", "engine.cli.main", "convert", str(scan), "-o",
                          str(tmp_path / "cli"), "--pages", "2", "--tables", "markdown"],
                         env=env, capture_output=True, text=True, timeout=600, cwd=REPO_ROOT)
    assert cli.returncode == 0, cli.stderr
    expected = (tmp_path / "cli" / "letter.md").read_text(encoding="utf-8")
    progress: list[tuple[float, float | None, str | None]] = []

    async def heard(done, total, message):
        progress.append((done, total, message))

    async def scenario(session):
        converted = structured(await session.call_tool(
            "convert_document", {"path": str(scan)}, read_timeout_seconds=CALL_TIMEOUT_S,
            progress_callback=heard))
        one_page = structured(await session.call_tool(
            "convert_document", {"content_base64": base64.b64encode(scan.read_bytes()).decode(),
                                 "filename": "letter.pdf", "pages": "2",
                                 "table_format": "markdown"},
            read_timeout_seconds=CALL_TIMEOUT_S))
        rid = converted["id"]
        fetched = structured(await session.call_tool("get_result", {"result_id": rid}))
        document = structured(await session.call_tool("get_result", {"result_id": rid,
                                                                     "part": "json"}))
        page = structured(await session.call_tool("get_result", {"result_id": rid,
                                                                 "part": "page", "page": 2}))
        listed = structured(await session.call_tool("list_results", {}))
        device = structured(await session.call_tool("device_status", {}))
        return converted, one_page, fetched, document, page, listed, device

    converted, one_page, fetched, document, page, listed, device = run_session(
        server_params(tmp_path, "--allow-dir", str(allowed)), scenario, tmp_path / "server.log")

    assert converted["status"] == "ok"
    assert "River rose at noon" in converted["markdown"].replace("river", "River")
    assert "Harvest begins in May" in converted["markdown"]
    assert [p["text_source"] for p in converted["pages"]] == ["ocr", "ocr"]
    assert sorted(converted["files"]) == ["files/letter.json", "files/letter.md",
                                          "files/letter_content_list.json"]
    # Page 2 with Markdown tables, sent as bytes: the same Markdown as paperlens-cli's.
    assert one_page["markdown"] == expected
    assert one_page["source"] == "letter.pdf"
    # Two pages reported, one notification each, and where they started.
    assert [(done, total) for done, total, _ in progress] == [(0, 2), (1, 2), (2, 2)]
    assert fetched["markdown"] == converted["markdown"]
    cli_json = json.loads((tmp_path / "results" / converted["id"] / "files" / "letter.json")
                          .read_text(encoding="utf-8"))
    # The written JSON is made before its files are placed: it names none of them.
    assert cli_json.pop("outputs") == []
    folder = tmp_path / "results" / converted["id"]
    assert sorted(document["document"].pop("outputs")) == [str(folder / f)
                                                           for f in converted["files"]]
    assert document["document"] == cli_json
    assert page["page"]["page_number"] == 2
    assert any("Harvest" in block["text"] for block in page["page"]["blocks"])
    assert [entry["id"] for entry in listed["results"]] == [one_page["id"], converted["id"]]
    assert listed["results"][1]["status"] == "ok"
    assert device["status"]["configured"] in ("cpu", "gpu", "auto")
    assert device["text"].startswith("Configured:")


@pytest.mark.model
@pytest.mark.slow
def test_a_cancelled_conversion_stops_within_a_page_and_writes_nothing(tmp_path, allowed,
                                                                       default_models):
    scan = write_scan(allowed / "long.pdf", [[f"Chapter {n}", "The river rose at noon."]
                                             for n in range(1, 9)])
    seen: list[float] = []

    async def scenario(session):
        first_page = anyio.Event()

        async def heard(done, total, message):
            seen.append(done)
            if done >= 1:
                first_page.set()

        async def convert():
            await session.call_tool("convert_document", {"path": str(scan)},
                                    read_timeout_seconds=CALL_TIMEOUT_S, progress_callback=heard)

        async with anyio.create_task_group() as group:
            group.start_soon(convert)
            with anyio.fail_after(CALL_TIMEOUT_S):
                await first_page.wait()
            group.cancel_scope.cancel()  # the SDK sends notifications/cancelled
        with anyio.fail_after(120):
            while True:
                listed = structured(await session.call_tool("list_results", {}))
                if listed["results"]:  # a conversion is listed once it has ended
                    return listed["results"][0], max(seen)
                await anyio.sleep(0.2)

    record, read_when_cancelled = run_session(
        server_params(tmp_path, "--allow-dir", str(allowed)), scenario, tmp_path / "server.log")
    assert record["status"] == "cancelled", record
    assert record["page_count"] == 8
    # Stopped within the page being read when the cancel came.
    assert read_when_cancelled <= record["pages_read"] <= read_when_cancelled + 1
    assert not (tmp_path / "results" / record["id"] / "files").exists() or not any(
        (tmp_path / "results" / record["id"] / "files").iterdir())

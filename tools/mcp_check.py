"""paperlens-mcp against paperlens-cli on real dev documents: the SDK's own MCP client starts a
real `paperlens-mcp` process over stdio, converts each document by path, and the Markdown it
returns is compared with what `paperlens-cli convert` writes for the same file.

    python -m tools.mcp_check [--out docs/results/mcp.json] [ITEM_ID ...]

The default items are two dev scans (a scanned PDF and a photographed PNG) and a digital PDF.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEV = REPO.parent / "shared" / "eval" / "dev"
DEFAULT_ITEMS = ("docling-ocr_test", "tesseract-phototest", "docling-2305.03393v1-pg9")
CALL_TIMEOUT_S = 900.0


def item_input(item_id: str) -> Path:
    folder = DEV / "items" / item_id
    (found,) = sorted(folder.glob("input.*"))
    return found


def cli_markdown(source: Path, folder: Path, env: dict[str, str]) -> tuple[str, float]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "engine.cli.main", "convert", str(source), "-o",
                           str(folder)], env=env, capture_output=True, text=True,
                          timeout=CALL_TIMEOUT_S, cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"paperlens-cli failed on {source}: {done.stderr.strip()[-400:]}")
    return (folder / f"{source.stem}.md").read_text(encoding="utf-8"), \
        time.perf_counter() - started


def mcp_markdowns(sources: list[Path], allowed: Path, results: Path, env: dict[str, str]
                  ) -> tuple[list[str], list[str], float]:
    """Markdown for each source from one real server process, and the tool names it lists."""
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "paperlens_mcp", "--allow-dir", str(allowed),
                                         "--results-dir", str(results)], env=env, cwd=str(REPO))

    async def main():
        with open(results.parent / "server.log", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    tools = sorted(t.name for t in (await session.list_tools()).tools)
                    texts = []
                    for source in sources:
                        result = await session.call_tool(
                            "convert_document", {"path": str(source)},
                            read_timeout_seconds=CALL_TIMEOUT_S)
                        if result.is_error:
                            raise SystemExit(f"paperlens-mcp failed on {source}: "
                                             f"{result.content[0].text}")
                        texts.append(result.structured_content["markdown"])
                    return tools, texts

    started = time.perf_counter()
    tools, texts = anyio.run(main)
    return tools, texts, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.mcp_check", description=__doc__)
    parser.add_argument("items", nargs="*", default=list(DEFAULT_ITEMS))
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "results" / "mcp.json")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="paperlens-mcp-check-"))
    allowed = work / "allowed"
    allowed.mkdir()
    env = {**os.environ, "PAPERLENS_CONFIG": str(work / "settings.json"),
           "PYTHONPATH": str(REPO)}
    env.pop("PAPERLENS_MCP_TOKEN", None)
    sources = []
    for item_id in args.items:
        source = item_input(item_id)
        copy = allowed / f"{item_id}{source.suffix}"
        copy.write_bytes(source.read_bytes())
        sources.append(copy)
    rows = []
    cli_texts = []
    for source in sources:
        text, seconds = cli_markdown(source, work / "cli", env)
        cli_texts.append((text, seconds))
    tools, mcp_texts, mcp_seconds = mcp_markdowns(sources, allowed, work / "results", env)
    for item_id, (cli_text, cli_seconds), mcp_text in zip(args.items, cli_texts, mcp_texts):
        rows.append({"id": item_id, "same_markdown": cli_text == mcp_text,
                     "markdown_chars": len(cli_text), "cli_seconds": round(cli_seconds, 1)})
        print(f"{item_id}: {'same' if cli_text == mcp_text else 'DIFFERENT'} Markdown "
              f"({len(cli_text)} characters)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"tools_listed": tools, "items": rows,
                                    "mcp_seconds_all": round(mcp_seconds, 1)}, indent=1) + "\n",
                        encoding="utf-8")
    return 0 if all(row["same_markdown"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

"""The mechanism of the README's generated tables: a marked block and its rewriting from a
results file. Which blocks there are is tools/readme_tables.py's; a run that measured one set
rewrites only its own blocks through `rewrite` (tools.photos, tools.uishots)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_README = REPO_ROOT / "README.md"
DEFAULT_RESULTS = REPO_ROOT / "docs" / "results"

Blocks = Mapping[str, tuple[str, Callable[[Mapping], str]]]
"""Block name -> (results file in docs/results, the function that writes the block from it)."""

MARKED_BLOCK = re.compile(r"(<!-- results: (?P<name>[\w-]+) -->\n)(?P<body>.*?)"
                    r"(<!-- /results: (?P=name) -->)", re.S)


class BlockError(ValueError):
    """A marked block names no known results file, or its file cannot be read."""


def block_text(name: str, results_dir: Path,
               blocks: Blocks) -> str:
    """A block's generated Markdown, from its results file."""
    if name not in blocks:
        raise BlockError(f"unknown results block {name!r}; known: {', '.join(blocks)}")
    filename, write = blocks[name]
    path = results_dir / filename
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise BlockError(f"block {name!r}: cannot read {path}: {error}") from error
    return write(results).rstrip("\n") + "\n"


def regenerate(text: str, results_dir: Path, blocks: Blocks, others_kept: bool = False
               ) -> tuple[str, list[str]]:
    """`text` with every marked block rewritten (`others_kept`: only those of `blocks`, the
    others as they are), and the names of the blocks that changed."""
    changed: list[str] = []

    def rewrite(match: re.Match) -> str:
        if others_kept and match["name"] not in blocks:
            return match.group(0)
        body = block_text(match["name"], results_dir, blocks)
        if body != match["body"]:
            changed.append(match["name"])
        return match.group(1) + body + match.group(4)

    return MARKED_BLOCK.sub(rewrite, text), changed


def rewrite(blocks: Blocks, readme: Path = DEFAULT_README, results: Path = DEFAULT_RESULTS) -> int:
    """Rewrites the README's `blocks` from their results files, the other blocks kept; 0, or 2
    when a results file cannot be read."""
    text = readme.read_text(encoding="utf-8")
    try:
        updated, changed = regenerate(text, results, blocks, others_kept=True)
    except BlockError as error:
        print(f"readme_tables: {error}", file=sys.stderr)
        return 2
    if changed:
        readme.write_text(updated, encoding="utf-8")
    print(f"{readme}: {', '.join(changed) or 'no block'} rewritten")
    return 0

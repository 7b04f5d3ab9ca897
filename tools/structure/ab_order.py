"""A/B of reading-order functions on stored page blocks, without running any model again.

`python -m tools.structure.ab_order collect` converts the set once and keeps each page's blocks
before ordering and what page assembly received (lines, layout regions; build/structure/
blocks.pkl); `score` re-orders the blocks with each candidate and scores the Markdown against
the truth, in seconds; `reassemble` runs the whole of page assembly again (paragraphs, vertical
writing, figures holding text, order, furniture) with the engine as it is now, for rules that
act before ordering. `--set module.NAME=value` changes a threshold for one run."""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from tools.structure.generate import DEFAULT_OUT


def collect(folder: Path, variants: tuple[str, ...]) -> Path:
    """Every page converted once; the unordered blocks of each (and whether the page was read
    as vertical writing) kept beside the set."""
    import json

    from engine.api import Engine
    from engine.options import ConvertOptions
    from engine.structure import stage
    from engine.structure.page_blocks import blocks_after, steps_before
    from settings import SettingsStore

    captured: list[tuple[list, bool]] = []
    inputs: list[tuple] = []
    original_assemble = stage.assemble_page

    def capture_inputs(lines, regions, page_area=None):
        inputs.append((list(lines), None if regions is None else list(regions), page_area))
        # The blocks as the reading order receives them: the steps before it.
        before = blocks_after(lines, regions, page_area, steps_before("reading_order"))
        captured.append((list(before.blocks), before.vertical))
        return original_assemble(lines, regions, page_area)

    stage.assemble_page = capture_inputs
    engine = Engine(SettingsStore().load())
    pages = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["pages"]
    stored = []
    try:
        for page in pages:
            for variant in variants:
                path = folder / (f"{page['id']}.pdf" if variant == "digital"
                                 else f"{page['id']}.scan.jpg")
                captured.clear()
                inputs.clear()
                result = engine.convert(path, ConvertOptions())
                unordered, vertical = captured[-1] if captured else ([], False)
                stored.append({"id": page["id"], "family": page["family"], "variant": variant,
                               "unordered": unordered, "vertical": vertical,
                               "inputs": inputs[-1] if inputs else None,
                               "page": result.pages[0]})
    finally:
        stage.assemble_page = original_assemble
    out = folder / "blocks.pkl"
    out.write_bytes(pickle.dumps(stored))
    return out


def score(folder: Path, candidates: dict) -> dict[str, dict[str, float]]:
    from dataclasses import replace

    from engine.output.markdown import render_markdown
    from engine.structure.assembly import footnotes_last, label_captions, place_captions
    from tools.eval.scoring import text_similarity

    stored = pickle.loads((folder / "blocks.pkl").read_bytes())
    table: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for item in stored:
        truth = (folder / f"{item['id']}.md").read_text(encoding="utf-8")
        for name, order in candidates.items():
            ordered = order(item["unordered"], vertical=item.get("vertical", False))
            blocks = footnotes_last(place_captions(label_captions(ordered)))
            page = replace(item["page"], blocks=tuple(blocks))
            sim = text_similarity(render_markdown([page]), truth)
            table[name][f"{item['family']}/{item['variant']}"].append(sim)
    return {name: {key: round(statistics.fmean(v), 4) for key, v in sorted(rows.items())}
            for name, rows in table.items()}


def reassemble(folder: Path) -> dict[str, dict[str, float]]:
    """Each stored page assembled again from its lines and regions, furniture marked, scored."""
    from dataclasses import replace

    from engine.output.markdown import render_markdown
    from engine.structure.page_blocks import assemble_page
    from engine.structure.furniture import mark_furniture
    from tools.eval.scoring import text_similarity

    stored = pickle.loads((folder / "blocks.pkl").read_bytes())
    table: dict[str, list[float]] = defaultdict(list)
    for item in stored:
        if item.get("inputs") is None:
            continue
        truth = (folder / f"{item['id']}.md").read_text(encoding="utf-8")
        page = replace(item["page"], blocks=tuple(assemble_page(*item["inputs"])))
        table[f"{item['family']}/{item['variant']}"].append(
            text_similarity(render_markdown(mark_furniture([page])), truth))
    return {"reassembled": {key: round(statistics.fmean(v), 4)
                            for key, v in sorted(table.items())}}


def set_threshold(assignment: str) -> None:
    """`module.NAME=value`: a module constant changed for this run."""
    import importlib

    name, _, value = assignment.partition("=")
    module, _, constant = name.rpartition(".")
    target = importlib.import_module(module)
    if not hasattr(target, constant):
        raise SystemExit(f"{module} has no {constant}")
    setattr(target, constant, type(getattr(target, constant))(float(value)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.structure.ab_order")
    parser.add_argument("command", choices=("collect", "score", "reassemble"))
    parser.add_argument("--folder", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--variants", default="digital,scanned")
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                        help="change a threshold for this run (score, reassemble)")
    args = parser.parse_args(argv)
    if args.command == "collect":
        print(collect(args.folder, tuple(args.variants.split(","))))
        return 0
    for assignment in args.set:
        set_threshold(assignment)
    if args.command == "reassemble":
        results = reassemble(args.folder)
    else:
        from engine.structure.reading_order import order_blocks

        results = score(args.folder, {"current": order_blocks})
    for name, rows in results.items():
        for key, value in rows.items():
            print(f"{name:10} {key:24} {value:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

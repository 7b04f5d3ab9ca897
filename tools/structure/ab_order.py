"""A/B of reading-order functions on stored page blocks, without running any model again.

`python -m tools.structure.ab_order collect` converts the set once and keeps each page's blocks
before ordering and what page assembly received (lines, layout regions; build/structure/
blocks.pkl); `score` re-orders the blocks with each candidate and scores the Markdown against
the truth, in seconds; `reassemble` runs the whole of page assembly again (paragraphs, vertical
writing, figures holding text, order, furniture) with the engine as it is now, for rules that
act before ordering. `--set SET.NAME=value` runs `score` or `reassemble` with a variant of a
rule set, built with `dataclasses.replace` and passed to the code: `reading_order`
(engine/structure/reading_order_rules.py) or, for `reassemble`, `vertical`, `rows`,
`paragraphs`, `furniture`, `forms` and `assembly` (engine/structure/vertical_rules.py,
row_rules.py, paragraph_rules.py, furniture_rules.py, form_rules.py, assembly_rules.py)."""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from engine.structure.assembly_rules import ASSEMBLY, AssemblyRules
from engine.structure.form_rules import FORMS, FormRules
from engine.structure.furniture_rules import FURNITURE, FurnitureRules
from engine.structure.paragraph_rules import PARAGRAPHS, ParagraphRules
from engine.structure.reading_order_rules import READING_ORDER, ReadingOrderRules
from engine.structure.row_rules import ROWS, RowRules
from engine.structure.vertical_rules import VERTICAL, VerticalRules
from tools.rule_variants import with_changes

from tools.structure.generate import DEFAULT_OUT


def collect(folder: Path, variants: tuple[str, ...]) -> Path:
    """Every page converted once; what page assembly received (its lines and layout regions,
    heard as the `figures` stage's progress) and the page's blocks before ordering (and whether
    it was read as vertical writing) kept beside the set."""
    import json

    from engine.api import Engine
    from engine.events import PageProgress
    from engine.options import ConvertOptions
    from engine.structure.page_blocks import blocks_after, steps_before
    from settings import SettingsStore

    heard: list[tuple] = []

    def listen(event) -> None:
        # The stage before `blocks`: its lines and regions are what assemble_page receives.
        if isinstance(event, PageProgress) and event.stage == "figures":
            height, width = event.image.shape[:2]
            heard.append((list(event.lines), None if event.regions is None
                          else list(event.regions), float(height * width)))

    engine = Engine(SettingsStore().load())
    pages = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["pages"]
    stored = []
    for page in pages:
        for variant in variants:
            path = folder / (f"{page['id']}.pdf" if variant == "digital"
                             else f"{page['id']}.scan.jpg")
            heard.clear()
            result = engine.convert(path, ConvertOptions(), on_event=listen)
            inputs = heard[-1] if heard else None
            blocks = (blocks_after(*inputs, steps_before("reading_order")) if inputs
                      else None)
            stored.append({"id": page["id"], "family": page["family"], "variant": variant,
                           "unordered": blocks.blocks if blocks else [],
                           "vertical": blocks.vertical if blocks else False,
                           "inputs": inputs, "page": result.pages[0]})
    out = folder / "blocks.pkl"
    out.write_bytes(pickle.dumps(stored))
    return out


def score(folder: Path, candidates: dict, rules: ReadingOrderRules = READING_ORDER
          ) -> dict[str, dict[str, float]]:
    """Each stored page's blocks ordered by each candidate under `rules`, scored."""

    from engine.output.markdown import render_markdown
    from engine.structure.assembly import footnotes_last, label_captions, place_captions
    from tools.eval.scoring import text_similarity

    stored = pickle.loads((folder / "blocks.pkl").read_bytes())
    table: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for item in stored:
        truth = (folder / f"{item['id']}.md").read_text(encoding="utf-8")
        for name, order in candidates.items():
            ordered = order(item["unordered"], vertical=item.get("vertical", False),
                            rules=rules)
            blocks = footnotes_last(place_captions(label_captions(ordered)))
            page = replace(item["page"], blocks=tuple(blocks))
            sim = text_similarity(render_markdown([page]), truth)
            table[name][f"{item['family']}/{item['variant']}"].append(sim)
    return {name: {key: round(statistics.fmean(v), 4) for key, v in sorted(rows.items())}
            for name, rows in table.items()}


def reassemble(folder: Path, rules: ReadingOrderRules = READING_ORDER,
               vertical: VerticalRules = VERTICAL, *, rows: RowRules = ROWS,
               paragraphs: ParagraphRules = PARAGRAPHS, furniture: FurnitureRules = FURNITURE,
               forms: FormRules = FORMS, assembly: AssemblyRules = ASSEMBLY
               ) -> dict[str, dict[str, float]]:
    """Each stored page assembled again from its lines and regions under `rules`,
    `vertical`, `rows`, `paragraphs`, `furniture`, `forms` and `assembly`, furniture marked,
    scored."""

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
        blocks = assemble_page(*item["inputs"], reading_order=rules, vertical=vertical,
                               rows=rows, paragraphs=paragraphs, furniture=furniture,
                               forms=forms, assembly=assembly)
        page = replace(item["page"], blocks=tuple(blocks))
        table[f"{item['family']}/{item['variant']}"].append(text_similarity(
            render_markdown(mark_furniture([page], vertical, furniture)), truth))
    return {"reassembled": {key: round(statistics.fmean(v), 4)
                            for key, v in sorted(table.items())}}


RULE_SETS = {"reading_order": READING_ORDER, "vertical": VERTICAL, "rows": ROWS,
             "paragraphs": PARAGRAPHS, "furniture": FURNITURE, "forms": FORMS,
             "assembly": ASSEMBLY}
"""The rule sets `--set` can vary, by name, at their defaults."""


def variant(assignments: list[str]) -> dict[str, object]:
    """`SET.NAME=value` pairs: each of RULE_SETS with those fields changed, new sets to pass
    to the code; nothing in the engine is changed."""
    by_set: dict[str, list[str]] = {name: [] for name in RULE_SETS}
    for assignment in assignments:
        kind, _, change = assignment.partition(".")
        if kind not in by_set:
            raise SystemExit(f"no rule set {kind!r}: {', '.join(RULE_SETS)}")
        by_set[kind].append(change)
    return {kind: with_changes(RULE_SETS[kind], changes) for kind, changes in by_set.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.structure.ab_order")
    parser.add_argument("command", choices=("collect", "score", "reassemble"))
    parser.add_argument("--folder", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--variants", default="digital,scanned")
    parser.add_argument("--set", action="append", default=[], metavar="SET.NAME=VALUE",
                        help="a rule changed for this run: reading_order.NAME (score, "
                             "reassemble) or vertical, rows, paragraphs, furniture, "
                             "forms, assembly.NAME (reassemble)")
    args = parser.parse_args(argv)
    if args.command == "collect":
        print(collect(args.folder, tuple(args.variants.split(","))))
        return 0
    sets = variant(args.set)
    if args.command == "reassemble":
        results = reassemble(args.folder, sets["reading_order"], sets["vertical"],
                             rows=sets["rows"], paragraphs=sets["paragraphs"],
                             furniture=sets["furniture"], forms=sets["forms"],
                             assembly=sets["assembly"])
    else:
        from engine.structure.reading_order import order_blocks

        results = score(args.folder, {"current": order_blocks}, sets["reading_order"])
    for name, rows in results.items():
        for key, value in rows.items():
            print(f"{name:10} {key:24} {value:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`python -m tools.handwriting evaluate`: the handwriting detector scored on one seed of the
generated set, on the structure set's scans (all print) and on the real dev set (only the
Lincoln letter is handwriting).

Pages are read by the engine's own first stages (render, text layer, OCR: engine/recipe.py's
PAGE_STAGES up to "ocr"); OCR lines are kept in build/handwriting/ocr-cache, so measuring again
after a change to engine/ocr/handwriting.py takes seconds. Prints precision and recall per
group and the cost of the measurement per page."""

from __future__ import annotations

import hashlib
import json
import pickle
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from engine.ocr.handwriting import looks_handwritten, page_evidence
from engine.imaging import turn_image

DEV_HANDWRITING = {"olmocr-lincoln_letter"}
"""Dev items that are handwriting (the rest is print, digital or scanned)."""


@dataclass(frozen=True)
class Item:
    group: str
    id: str
    path: Path
    handwriting: bool
    kind: str


def generated_items(folder: Path, group: str) -> list[Item]:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return [Item(group, p["id"], folder / f"{p['id']}.jpg", p["handwriting"], p["kind"])
            for p in manifest["pages"]]


def structure_items(folder: Path, per_family: int) -> list[Item]:
    """The first `per_family` scanned pages of each layout family."""
    items: list[Item] = []
    for path in sorted(folder.glob("*.scan.jpg")):
        family = path.name.split("-")[0]
        if sum(i.kind == family for i in items) < per_family:
            items.append(Item("structure", path.name, path, False, family))
    return items


def dev_items(folder: Path) -> list[Item]:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return [Item("dev", m["id"], folder / m["input"], m["id"] in DEV_HANDWRITING, m["category"])
            for m in manifest]


class PageCache:
    """Each page's OCR lines, read once by the engine's stages and kept by file content."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self._models = None

    def models(self):
        if self._models is None:
            from engine.api import Engine
            from settings import SettingsStore

            self._models = Engine(SettingsStore().load()).models
        return self._models

    def pages(self, path: Path):
        """(page number, image as OCR saw it, lines, text source) for every page of `path`."""
        from engine.input.document import open_document
        from engine.options import ConvertOptions
        from engine.page import PageState
        from engine.recipe import PAGE_STAGES

        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:20]
        names = [name for name, _ in PAGE_STAGES]
        before_ocr = PAGE_STAGES[:names.index("ocr")]
        ocr = PAGE_STAGES[names.index("ocr")][1]
        with open_document(path, None) as document:
            for number in range(1, document.page_count + 1):
                page = PageState(document=document, page_number=number,
                                 options=ConvertOptions(), image_prefix="p")
                for _, stage in before_ocr:
                    page = stage(page, None)
                cached = self.folder / f"{digest}-p{number}.pkl"
                if cached.exists():
                    lines, rotation = pickle.loads(cached.read_bytes())
                    image = turn_image(page.image, rotation)
                else:
                    page = ocr(page, self.models())
                    lines, rotation, image = page.lines, page.rotation, page.image
                    partial = cached.with_suffix(".part")
                    partial.write_bytes(pickle.dumps((lines, rotation)))
                    partial.replace(cached)
                yield number, image, lines, page.text_source.value


def measure(items: list[Item], cache: PageCache) -> list[dict]:
    rows = []
    for item in items:
        for number, image, lines, source in cache.pages(item.path):
            # CPU time of this process, not wall time: on a shared machine the wall clock
            # counts other people's work too.
            start = time.process_time()
            evidence = page_evidence(image, lines) if source == "ocr" else None
            flagged = looks_handwritten(evidence)
            spent_ms = (time.process_time() - start) * 1000
            rows.append({"group": item.group, "id": item.id, "page": number, "kind": item.kind,
                         "handwriting": item.handwriting, "flagged": flagged, "source": source,
                         "ms": round(spent_ms, 2), "ocr_lines": len(lines),
                         "evidence": evidence.as_dict() if evidence else None})
    return rows


def scores(rows: list[dict]) -> dict:
    tp = sum(r["flagged"] and r["handwriting"] for r in rows)
    fp = sum(r["flagged"] and not r["handwriting"] for r in rows)
    fn = sum(not r["flagged"] and r["handwriting"] for r in rows)
    return {"pages": len(rows), "handwriting": tp + fn, "flagged": tp + fp,
            "precision": tp / (tp + fp) if tp + fp else None,
            "recall": tp / (tp + fn) if tp + fn else None, "false_flags": fp, "missed": fn}


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.3f}"


def collect(args) -> list[dict]:
    """Every page's measures: the seed's generated pages, the structure scans, the dev set."""
    root: Path = args.root
    items = generated_items(root / f"seed-{args.seed}", f"seed-{args.seed}")
    structure = args.structure or Path("build/structure" if args.seed == 1
                                       else f"build/structure-seed{args.seed}")
    if structure.exists():
        items += structure_items(structure, args.structure_per_family)
    else:
        print(f"(no structure set at {structure}: `python -m tools.structure generate` makes it)")
    if not args.no_dev and (args.dev / "manifest.json").exists():
        items += dev_items(args.dev)
    return measure(items, PageCache(root / "ocr-cache"))


def evaluate(args) -> int:
    rows = collect(args)
    groups = sorted({r["group"] for r in rows})
    print(f"{'group':<12} {'pages':>5} {'hw':>4} {'flagged':>7} {'precision':>9} {'recall':>7}")
    for group in groups + ["all"]:
        part = [r for r in rows if group in ("all", r["group"])]
        s = scores(part)
        print(f"{group:<12} {s['pages']:>5} {s['handwriting']:>4} {s['flagged']:>7} "
              f"{_fmt(s['precision']):>9} {_fmt(s['recall']):>7}")
    for kind in sorted({r["kind"] for r in rows if r["group"].startswith("seed")}):
        part = [r for r in rows if r["kind"] == kind and r["group"].startswith("seed")]
        print(f"  {kind:<11} flagged {sum(r['flagged'] for r in part)} of {len(part)}")
    wrong = [r for r in rows if r["flagged"] != r["handwriting"]]
    for r in wrong:
        print(f"  wrong: {r['group']} {r['id']} p{r['page']} flagged={r['flagged']} "
              f"{r['evidence']}")
    measured = [r["ms"] for r in rows if r["evidence"] is not None]
    if measured:
        print(f"measurement per OCR page (CPU time): median {statistics.median(measured):.1f} "
              f"ms, max {max(measured):.1f} ms ({len(measured)} pages)")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0

"""The per-category comparison: each tool's mean score and s/page, and the ours/peer ratios."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean

from tools.gfm import gfm_table

ALL_CATEGORIES = "all"
MISSING = "—"


@dataclass(frozen=True)
class ItemResult:
    """One tool on one item: its primary score and the median seconds of its timed runs."""

    tool: str
    item_id: str
    category: str
    score: float
    seconds: float | None
    """None when the tool failed on the item (its score is then 0)."""
    pages: int
    error: str = ""

    @property
    def timed(self) -> bool:
        return self.seconds is not None and self.pages > 0


@dataclass(frozen=True)
class Figures:
    """Mean primary score and seconds per page over a set of items."""

    items: int
    score: float
    page_s: float | None
    """Total median seconds over total pages of the timed items; None without any."""
    errors: int


@dataclass(frozen=True)
class PeerCell:
    """A peer in one category, and Paperlens on exactly the items that peer read."""

    peer: Figures
    ours: Figures
    score_ratio: float | None
    """Paperlens score / peer score: above 1 favours Paperlens."""
    time_ratio: float | None
    """Paperlens s/page / peer s/page over the items both timed: below 1 favours Paperlens."""


@dataclass(frozen=True)
class CategoryRow:
    category: str
    ours: Figures
    peers: dict[str, PeerCell] = field(default_factory=dict)
    """Only the peers that read at least one item of the category."""


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or denominator is None or denominator <= 0:
        return None
    return numerator / denominator


def figures(results: Sequence[ItemResult]) -> Figures:
    if not results:
        raise ValueError("figures of no items")
    timed = [result for result in results if result.timed]
    pages = sum(result.pages for result in timed)
    return Figures(items=len(results), score=fmean(result.score for result in results),
                   page_s=sum(result.seconds for result in timed) / pages if pages else None,
                   errors=sum(1 for result in results if result.error))


def _peer_cell(ours: Mapping[str, ItemResult], peer: Sequence[ItemResult]) -> PeerCell:
    shared = [result for result in peer if result.item_id in ours]
    ours_shared = [ours[result.item_id] for result in shared]
    # Seconds compare over the items both tools timed; scores over every shared item.
    both_timed = [result for result in shared if result.timed and ours[result.item_id].timed]
    peer_time = figures(both_timed).page_s if both_timed else None
    ours_time = figures([ours[r.item_id] for r in both_timed]).page_s if both_timed else None
    peer_figures, ours_figures = figures(shared), figures(ours_shared)
    peer_figures = Figures(peer_figures.items, peer_figures.score, peer_time, peer_figures.errors)
    ours_figures = Figures(ours_figures.items, ours_figures.score, ours_time, ours_figures.errors)
    return PeerCell(peer=peer_figures, ours=ours_figures,
                    score_ratio=ratio(ours_figures.score, peer_figures.score),
                    time_ratio=ratio(ours_time, peer_time))


def compare(results: Sequence[ItemResult], reference: str,
            peers: Sequence[str]) -> list[CategoryRow]:
    """One row per category the reference tool read (sorted), then the "all" row."""
    ours_all = [r for r in results if r.tool == reference]
    categories = sorted({r.category for r in ours_all})
    rows = []
    for category in [*categories, ALL_CATEGORIES]:
        ours = {r.item_id: r for r in ours_all
                if category == ALL_CATEGORIES or r.category == category}
        if not ours:
            continue
        cells = {}
        for peer in peers:
            peer_results = [r for r in results if r.tool == peer and r.item_id in ours]
            if peer_results:
                cells[peer] = _peer_cell(ours, peer_results)
        rows.append(CategoryRow(category, figures(list(ours.values())), cells))
    return rows


def format_seconds(value: float | None) -> str:
    return MISSING if value is None else f"{value:.3g}"


def format_ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _peer_cells(row: CategoryRow, peer: str) -> list[str]:
    cell = row.peers.get(peer)
    if cell is None:
        return [MISSING, MISSING]
    score = f"{cell.peer.score:.3f} ({format_ratio(cell.score_ratio)})"
    if cell.peer.items != row.ours.items:
        score += f" n={cell.peer.items}"
    if cell.peer.errors:
        score += f" {cell.peer.errors} failed"
    seconds = f"{format_seconds(cell.peer.page_s)} ({format_ratio(cell.time_ratio)})"
    return [score, seconds]


def markdown_table(rows: Sequence[CategoryRow], peers: Sequence[str],
                   labels: Mapping[str, str], reference_label: str) -> str:
    """A GitHub Markdown table: per category, Paperlens's score and s/page, then each peer's
    score and s/page with ours/peer in brackets."""
    headers = ["category", "items", f"{reference_label} score", f"{reference_label} s/page"]
    for peer in peers:
        headers += [f"{labels[peer]} score (ours/peer)", f"{labels[peer]} s/page (ours/peer)"]
    body = []
    for row in rows:
        name = f"**{row.category}**" if row.category == ALL_CATEGORIES else row.category
        cells = [name, str(row.ours.items), f"{row.ours.score:.3f}",
                 format_seconds(row.ours.page_s)]
        for peer in peers:
            cells += _peer_cells(row, peer)
        body.append(cells)
    return gfm_table(headers, body)


def rows_json(rows: Sequence[CategoryRow]) -> list[dict]:
    def plain(f: Figures) -> dict:
        return {"items": f.items, "score": f.score, "page_s": f.page_s, "errors": f.errors}

    return [{"category": row.category, "ours": plain(row.ours),
             "peers": {peer: {"peer": plain(cell.peer), "ours_same_items": plain(cell.ours),
                              "score_ratio": cell.score_ratio, "time_ratio": cell.time_ratio}
                       for peer, cell in row.peers.items()}}
            for row in rows]


def rows_from_json(data: Sequence[Mapping]) -> list[CategoryRow]:
    """rows_json's inverse: the rows of a results file, for tables made from it later."""
    def plain(f: Mapping) -> Figures:
        return Figures(items=f["items"], score=f["score"], page_s=f["page_s"], errors=f["errors"])

    return [CategoryRow(row["category"], plain(row["ours"]),
                        {peer: PeerCell(peer=plain(cell["peer"]),
                                        ours=plain(cell["ours_same_items"]),
                                        score_ratio=cell["score_ratio"],
                                        time_ratio=cell["time_ratio"])
                         for peer, cell in row["peers"].items()})
            for row in data]

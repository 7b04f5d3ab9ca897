"""The README's structure table, from docs/results/structure.json (`python -m tools.structure
eval`): order-sensitive text similarity per layout family, born-digital and scanned, beside the
PDF's own text order and Tesseract's, and the scans' paragraphs found whole."""

from __future__ import annotations

from collections.abc import Mapping

from tools.gfm import gfm_table

COLUMNS = (("digital", "paperlens", "Paperlens, born-digital"),
           ("digital", "text_layer", "PDF text order"),
           ("scanned", "paperlens", "Paperlens, scanned"),
           ("scanned", "tesseract", "Tesseract, scanned"))
PARAGRAPH_COLUMNS = (("scanned", "paperlens", "paragraphs, Paperlens, scanned"),
                     ("scanned", "tesseract", "paragraphs, Tesseract, scanned"))


def readme_markdown(results: Mapping) -> str:
    summary = results["summary"]
    families = sorted({key.split("/")[0] for key in summary})
    rows = []
    for family in families:
        cells = []
        for variant, tool, _ in COLUMNS:
            row = summary.get(f"{family}/{variant}/{tool}")
            cells.append("-" if row is None else
                         f"{row['similarity']:.3f} (min {row['min_similarity']:.2f})")
        for variant, tool, _ in PARAGRAPH_COLUMNS:
            row = summary.get(f"{family}/{variant}/{tool}")
            cells.append("-" if row is None or "paragraph_f1" not in row
                         else f"{row['paragraph_f1']:.3f}")
        pages = max(summary[k]["pages"] for k in summary if k.startswith(f"{family}/"))
        rows.append([family, str(pages), *cells])
    table = gfm_table(["family", "pages", *(title for _, _, title in COLUMNS),
                       *(title for _, _, title in PARAGRAPH_COLUMNS)], rows)
    meta = results["set"]
    return (f"{table}\n\nOrder-sensitive text similarity (mean, and the worst page), "
            f"{meta['count']} generated pages per family (seed {meta['seed']}); paragraphs: the "
            "F1 of the truth's paragraphs found whole (tools/structure/evaluate.paragraph_f1).\n")


def published_markdown(results: Mapping) -> str:
    """The real-page check (`python -m tools.structure published`): the same scores on pages
    typeset by TeX Live's journal classes, whose truth is the PDF's own order."""
    summary = results["summary"]
    columns = (("digital", "paperlens", "Paperlens, born-digital"),
               ("scanned", "paperlens", "Paperlens, scanned"),
               ("scanned", "tesseract", "Tesseract, scanned"))
    rows = []
    for metric, title in (("similarity", "order-sensitive similarity"),
                          ("min_similarity", "worst page"), ("word_f1", "bag-of-words F1")):
        cells = []
        for variant, tool, _ in columns:
            row = summary.get(f"published/{variant}/{tool}")
            cells.append("-" if row is None else f"{row[metric]:.3f}")
        rows.append([title, *cells])
    table = gfm_table(["", *(heading for _, _, heading in columns)], rows)
    return (f"{table}\n\n{results['set']['count']} real two-column pages (seed "
            f"{results['set']['seed']}), truth in the PDF's own order.\n")

"""`python -m tools.uishots eval`: Paperlens and Tesseract on every screenshot of the set.

Scores: order-sensitive text similarity (tools/eval/scoring.py, as `make eval`); on code shots
whether the output's code block equals the listing line for line, indentation included (for
Tesseract: whether its text does; it marks no code), whether its rows, blank rows and
indentation do (the structure, apart from misread characters), and whether Paperlens's
language hint is the expected one; on the user-interface shots (chat, settings) the headings a tool invented."""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
from collections import defaultdict
from pathlib import Path

from tools.eval.scoring import text_similarity

_FENCE = re.compile(r"^(`{3,})([\w+-]*)\n(.*?)\n\1$", re.S | re.M)
_HEADING = re.compile(r"^#{1,6} ", re.M)


def code_blocks(markdown: str) -> list[tuple[str, str]]:
    """(info string, body) of each fenced code block."""
    return [(m.group(2), m.group(3)) for m in _FENCE.finditer(markdown)]


def code_exact(markdown: str, code: str, fenced: bool = True) -> bool:
    """Whether one fenced block (or, `fenced` False, the whole text) is the listing exactly."""
    if not fenced:
        return markdown.strip("\n").rstrip() == code
    return any(body == code for _, body in code_blocks(markdown))


def rows_exact(markdown: str, code: str) -> bool:
    """Whether one fenced block has the listing's rows, blank rows and indentation exactly,
    whatever the recogniser made of the characters."""
    def shape(text: str) -> list[int]:
        return [len(row) - len(row.lstrip(" ")) if row.strip() else -1
                for row in text.split("\n")]

    return any(shape(body) == shape(code) for _, body in code_blocks(markdown))


def headings(markdown: str) -> int:
    outside = _FENCE.sub("", markdown)
    return len(_HEADING.findall(outside))


def tesseract(image: Path) -> str | None:
    """Tesseract's text (default page segmentation, spaces between words kept as found)."""
    if shutil.which("tesseract") is None:
        return None
    done = subprocess.run(["tesseract", str(image), "-", "-l", "eng", "-c",
                           "preserve_interword_spaces=1"], capture_output=True, text=True,
                          timeout=300)
    return done.stdout if done.returncode == 0 else None


def evaluate(folder: Path, tools: tuple[str, ...] = ("paperlens", "tesseract"),
             limit: int | None = None) -> dict:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    engine = None
    if "paperlens" in tools:
        from engine.api import Engine
        from settings import SettingsStore

        engine = Engine(SettingsStore().load())
    rows = []
    for shot in manifest["shots"][:limit] if limit else manifest["shots"]:
        truth = (folder / f"{shot['truth']}.md").read_text(encoding="utf-8")
        code_path = folder / f"{shot['truth']}.code"
        code = code_path.read_text(encoding="utf-8") if code_path.exists() else None
        image = folder / f"{shot['id']}.png"
        outputs: dict[str, str | None] = {}
        if engine is not None:
            from engine.options import ConvertOptions

            outputs["paperlens"] = engine.convert(image, ConvertOptions()).markdown
        if "tesseract" in tools:
            outputs["tesseract"] = tesseract(image)
        for tool, text in outputs.items():
            if text is None:
                continue
            row = {"id": shot["id"], "family": shot["family"], "scale": shot["scale"],
                   "tool": tool, "similarity": round(text_similarity(text, truth), 4),
                   "headings": headings(text)}
            if code is not None:
                row["code_exact"] = code_exact(text, code, fenced=tool == "paperlens")
                if tool == "paperlens":
                    row["rows_exact"] = rows_exact(text, code)
                    hints = [info for info, _ in code_blocks(text)]
                    row["hint_ok"] = hints == [shot["language"]]
            rows.append(row)
    return {"set": {"count": manifest["count"], "seed": manifest["seed"]},
            "summary": summarise(rows), "shots": rows}


def summarise(rows: list[dict]) -> dict:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["family"], row["scale"], row["tool"])].append(row)
    summary = {}
    for (family, scale, tool), found in sorted(groups.items()):
        entry = {"shots": len(found),
                 "similarity": round(statistics.fmean(r["similarity"] for r in found), 4),
                 "min_similarity": round(min(r["similarity"] for r in found), 4),
                 "headings": sum(r["headings"] for r in found)}
        if "code_exact" in found[0]:
            entry["code_exact"] = sum(r["code_exact"] for r in found)
        if "rows_exact" in found[0]:
            entry["rows_exact"] = sum(r["rows_exact"] for r in found)
        if "hint_ok" in found[0]:
            entry["hint_ok"] = sum(r["hint_ok"] for r in found)
        summary[f"{family}/{scale}x/{tool}"] = entry
    return summary

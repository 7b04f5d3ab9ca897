"""The searchable PDF against OCRmyPDF's on the same scans: the text each PDF gives back
(PyMuPDF and pdftotext), scored against the truth per category, and the spaces each puts between
CJK characters. Three makers: Paperlens's own export, OCRmyPDF with Tesseract (installed on
demand into build/ocrmypdf-venv, never into .venv, with Tesseract and Ghostscript from apt when
run as root), and OCRmyPDF with Paperlens as its OCR engine (`--plugin paperlens_ocrmypdf`, the
`ocrmypdf` extra's OCRmyPDF 17 in .venv).

    python -m tools.export_bench [--out docs/results/export.json] [--screenshot]

--screenshot also writes docs/screenshots/export-docx.png: the first page of the Word export
of a dev academic page, as LibreOffice (headless) prints it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

from tools.chinese_scan import chinese_text, write_chinese_scan
from tools.eval.manifest import ManifestItem, load_manifest
from tools.eval.scoring import score_output
from tools.peers.install import InstallError, dpkg_installed, ensure_peers_venv, venv_python

REPO = Path(__file__).resolve().parents[1]
DEV = REPO.parent / "shared" / "eval" / "dev"
VENV = REPO / "build" / "ocrmypdf-venv"
WORK = REPO / "build" / "export-bench"
OUTPUTS = WORK / "outputs"
# The OCRmyPDF release compared with; its own venv is rebuilt when this changes.
OCRMYPDF = "ocrmypdf==16.13.0"
APT_PACKAGES = ("tesseract-ocr", "tesseract-ocr-eng", "tesseract-ocr-chi-sim", "ghostscript")
CATEGORIES = ("scanned_image", "chinese")
# OCRmyPDF is told each scan's language (Tesseract needs it); Paperlens needs none.
LANGUAGES = {"chinese": "chi_sim+eng", "generated_chinese": "chi_sim+eng"}
OCRMYPDF_TIMEOUT_S = 900
# Each maker's PDF is build/export-bench/outputs/<id><suffix>.
MAKERS = {"paperlens": ".searchable.pdf", "ocrmypdf": ".ocrmypdf.pdf",
          "ocrmypdf_plugin": ".plugin.pdf"}
_CJK_GAP = re.compile(r"(?<=[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]) +"
                      r"(?=[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef])")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def ensure_ocrmypdf() -> Path:
    """OCRmyPDF's command, installing what is missing (apt needs root)."""
    missing = [p for p in APT_PACKAGES if not dpkg_installed(p)]
    if missing:
        if os.geteuid() != 0:
            raise InstallError(f"OCRmyPDF needs {' '.join(missing)}: sudo apt-get install -y "
                               f"{' '.join(missing)}")
        log(f"installing {' '.join(missing)} with apt-get")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        done = subprocess.run(["apt-get", "install", "-y", "-qq", *missing], env=env,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise InstallError(f"apt-get install {' '.join(missing)} failed: "
                               f"{done.stderr.strip()[-300:]}")
    ensure_peers_venv(VENV, [OCRMYPDF], log)
    return venv_python(VENV).parent / "ocrmypdf"


def bench_items() -> list[ManifestItem]:
    """The dev set's scans and Chinese items, and the generated multi-page Chinese scan."""
    items = [i for i in load_manifest(DEV / "manifest.json") if i.category in CATEGORIES]
    WORK.mkdir(parents=True, exist_ok=True)
    generated = WORK / "generated-chinese-scan.pdf"
    write_chinese_scan(generated)
    truth = WORK / "generated-chinese-scan.txt"
    truth.write_text(chinese_text(), encoding="utf-8")
    items.append(ManifestItem("generated-chinese-scan", "generated_chinese", generated, truth,
                              "text", chinese_text()))
    return items


def pdf_text(path: Path) -> str:
    with pymupdf.open(path) as document:
        return "\n".join(page.get_text() for page in document)


def poppler_text(path: Path) -> str:
    """pdftotext's reading of a PDF (poppler-utils), in its own reading order."""
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True,
                          text=True, check=True)
    return done.stdout


def cjk_gaps(text: str) -> int:
    """Spaces between two CJK characters on one line."""
    return sum(len(_CJK_GAP.findall(line)) for line in text.splitlines())


def run_paperlens(engine, item: ManifestItem, folder: Path) -> tuple[Path, float]:
    from engine.formats import OutputFormat
    from engine.options import ConvertOptions

    started = time.perf_counter()
    engine.convert(item.input_path, ConvertOptions(
        output_dir=str(folder), output_name=item.id, write_json=False, write_content_list=False,
        exports=(OutputFormat.PDF,)))
    return folder / f"{item.id}.searchable.pdf", time.perf_counter() - started


def _ocrmypdf(argv: list[str], item: ManifestItem, target: Path,
              env: dict[str, str] | None) -> subprocess.CompletedProcess:
    return subprocess.run([*argv, str(item.input_path), str(target)], capture_output=True,
                          text=True, timeout=OCRMYPDF_TIMEOUT_S, env=env)


def run_ocrmypdf(command: list[str], item: ManifestItem, target: Path,
                 env: dict[str, str] | None = None) -> tuple[Path | None, float, str, str]:
    """OCRmyPDF's PDF, its run time, why it failed ("" if it did not) and the mode it ran in:
    its default, or for a document that has text already (which the default refuses)
    --redo-ocr, which keeps that text and reads the rest as Paperlens's own export does, then
    --skip-text and --force-ocr where the one before fails (OCRmyPDF 16 with Debian 12's
    Ghostscript 10.0 refuses the first two)."""
    argv = [*command, "--output-type", "pdf", "-l", LANGUAGES.get(item.category, "eng")]
    if item.input_path.suffix.lower() != ".pdf":
        argv += ["--image-dpi", "200"]  # our dev images carry no resolution of their own
    started = time.perf_counter()
    mode, done = "default", _ocrmypdf(argv, item, target, env)
    if done.returncode == 6:  # PriorOcrFoundError: the document has text already
        for mode in ("redo-ocr", "skip-text", "force-ocr"):
            done = _ocrmypdf([*argv, f"--{mode}"], item, target, env)
            if done.returncode == 0:
                break
    seconds = time.perf_counter() - started
    if done.returncode != 0 or not target.is_file():
        reason = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return None, seconds, reason, mode
    return target, seconds, "", mode


def plugin_command() -> list[str]:
    """OCRmyPDF 17 from .venv with Paperlens as its engine (the `ocrmypdf` extra)."""
    ocrmypdf = Path(sys.executable).parent / "ocrmypdf"
    if not ocrmypdf.is_file():
        raise InstallError("the ocrmypdf extra is not installed: "
                           ".venv/bin/python -m pip install -e '.[ocrmypdf]'")
    return [str(ocrmypdf), "--plugin", "paperlens_ocrmypdf"]


def measure(items: list[ManifestItem], command: Path) -> list[dict]:
    """The three makers on every item: their PDFs in build/export-bench/outputs, run times,
    sizes. The plugin reads with default settings (its own settings file)."""
    from engine.api import Engine
    from settings import SettingsStore

    OUTPUTS.mkdir(parents=True, exist_ok=True)
    settings_file = Path(tempfile.mkdtemp()) / "settings.json"
    engine = Engine(SettingsStore(path=settings_file).load())
    plugin = plugin_command()
    # OCRmyPDF imports the plugin by its module name: from this checkout, as the tests do.
    plugin_env = {**os.environ, "PAPERLENS_CONFIG": str(settings_file), "PYTHONPATH": str(REPO)}
    rows = []
    for item in items:
        log(f"{item.id}: Paperlens")
        ours, our_s = run_paperlens(engine, item, OUTPUTS)
        size = item.input_path.stat().st_size
        row = {"id": item.id, "category": item.category,
               "paperlens": {"seconds": round(our_s, 1),
                             "size_ratio": round(ours.stat().st_size / size, 3)}}
        for maker, argv, env in (("ocrmypdf", [str(command)], None),
                                 ("ocrmypdf_plugin", plugin, plugin_env)):
            log(f"{item.id}: {maker}")
            target = OUTPUTS / f"{item.id}{MAKERS[maker]}"
            theirs, their_s, problem, mode = run_ocrmypdf(argv, item, target, env)
            row[maker] = {"mode": mode, "seconds": round(their_s, 1)}
            if theirs is None:
                row[maker]["failed"] = problem
            else:
                row[maker]["size_ratio"] = round(theirs.stat().st_size / size, 3)
        rows.append(row)
    return rows


def score(rows: list[dict], items: list[ManifestItem]) -> list[dict]:
    """Each PDF's text, as PyMuPDF and as pdftotext read it, against the truth: the mean of
    the two similarities, and the spaces either reader finds between CJK characters."""
    by_id = {item.id: item for item in items}
    for row in rows:
        item = by_id[row["id"]]
        row["truth_cjk_gaps"] = cjk_gaps(item.truth)
        for tool, suffix in MAKERS.items():
            if tool not in row or "failed" in row[tool]:
                continue
            pdf = OUTPUTS / f"{item.id}{suffix}"
            texts = {"pymupdf": pdf_text(pdf), "pdftotext": poppler_text(pdf)}
            scores = {name: score_output(text, item.truth, item.truth_format).primary
                      for name, text in texts.items()}
            row[tool].update({f"similarity_{name}": round(v, 4) for name, v in scores.items()})
            row[tool]["similarity"] = round(sum(scores.values()) / len(scores), 4)
            row[tool]["cjk_gaps"] = max(cjk_gaps(text) for text in texts.values())
    return rows


def by_category(rows: list[dict]) -> list[dict]:
    """Mean similarity per category for each maker (a failed OCRmyPDF run scores 0), and
    the means over the items OCRmyPDF accepted at all (it refuses images with an alpha
    channel, whatever its engine)."""
    summary = []
    for category in dict.fromkeys(r["category"] for r in rows):
        mine = [r for r in rows if r["category"] == category]
        accepted = [r for r in mine
                    if "ocrmypdf_plugin" in r and "failed" not in r["ocrmypdf_plugin"]]
        entry = {"category": category, "items": len(mine), "accepted_by_ocrmypdf": len(accepted)}
        for tool in MAKERS:
            scores = [r.get(tool, {}).get("similarity", 0.0) for r in mine]
            entry[tool] = round(sum(scores) / len(scores), 4)
            if accepted:
                entry[f"{tool}_accepted"] = round(
                    sum(r.get(tool, {}).get("similarity", 0.0) for r in accepted)
                    / len(accepted), 4)
            entry[f"{tool}_cjk_gaps"] = sum(r.get(tool, {}).get("cjk_gaps", 0) for r in mine)
        entry["truth_cjk_gaps"] = sum(r["truth_cjk_gaps"] for r in mine)
        summary.append(entry)
    return summary


def docx_screenshot(target: Path) -> None:
    """Page 1 of the Word export of olmocr-mathfuncs, as LibreOffice prints it."""
    from engine.api import Engine
    from engine.formats import OutputFormat
    from engine.options import ConvertOptions
    from settings import SettingsStore

    soffice = shutil.which("soffice")
    if soffice is None:
        raise SystemExit("LibreOffice is not installed (tools/system_deps.sh)")
    folder = WORK / "docx"
    folder.mkdir(parents=True, exist_ok=True)
    engine = Engine(SettingsStore(path=Path(tempfile.mkdtemp()) / "settings.json").load())
    engine.convert(DEV / "items" / "olmocr-mathfuncs" / "input.pdf", ConvertOptions(
        output_dir=str(folder), output_name="mathfuncs", exports=(OutputFormat.DOCX,)))
    profile = Path(tempfile.mkdtemp())
    subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless",
                    "--convert-to", "pdf", "--outdir", str(folder), str(folder / "mathfuncs.docx")],
                   check=True, capture_output=True, timeout=300)
    with pymupdf.open(folder / "mathfuncs.pdf") as pdf:
        pdf[0].get_pixmap(dpi=100).save(str(target))
    log(f"wrote {target}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.export_bench", description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "results" / "export.json")
    parser.add_argument("--screenshot", action="store_true",
                        help="also write docs/screenshots/export-docx.png")
    parser.add_argument("--score-only", action="store_true",
                        help="score the PDFs of the last run again, converting nothing")
    args = parser.parse_args(argv)
    if args.screenshot:
        docx_screenshot(REPO / "docs" / "screenshots" / "export-docx.png")
    items = bench_items()
    if args.score_only:
        rows = json.loads(args.out.read_text(encoding="utf-8"))["items"]
    else:
        try:
            command = ensure_ocrmypdf()
        except InstallError as error:
            log(f"OCRmyPDF is not available: {error}")
            return 1
        try:
            rows = measure(items, command)
        except InstallError as error:
            log(str(error))
            return 1
    rows = score(rows, items)
    summary = by_category(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"ocrmypdf": OCRMYPDF, "metric": "the eval's primary score "
                                    "of the PDF's text against the truth, mean of PyMuPDF's and "
                                    "pdftotext's text; cjk_gaps: spaces between two CJK "
                                    "characters on a line (the more of either reader)",
                                    "categories": summary, "items": rows},
                                   ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("| category | items | Paperlens | OCRmyPDF + Tesseract | OCRmyPDF + Paperlens | "
          "items OCRmyPDF accepts: Paperlens / + Tesseract / + Paperlens | spaces between CJK "
          "characters (Paperlens / + Tesseract / + Paperlens / truth) |")
    print("|---|---|---|---|---|---|---|")
    for entry in summary:
        accepted = " / ".join(f"{entry.get(f'{tool}_accepted', 0.0):.3f}" for tool in MAKERS)
        gaps = " / ".join(str(entry[f"{tool}_cjk_gaps"]) for tool in MAKERS)
        print(f"| {entry['category']} | {entry['items']} | {entry['paperlens']:.3f} | "
              f"{entry['ocrmypdf']:.3f} | {entry['ocrmypdf_plugin']:.3f} | "
              f"{entry['accepted_by_ocrmypdf']}: {accepted} | {gaps} / "
              f"{entry['truth_cjk_gaps']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which peer reads which item, page-image scale, timing passes and install decisions (no peers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.eval.manifest import ManifestItem
from tools.peers.install import (TESSERACT_PACKAGES, InstallError, apt_command,
                                 bench_requirements, ensure_tesseract)
from tools.peers.page_images import render_scale
from tools.peers.plan import Tool, items_for, language, languages, reads
from tools.peers.timing import ItemTiming, time_item

REPO_ROOT = Path(__file__).resolve().parents[2]


def item(name: str, tags: tuple[str, ...]) -> ManifestItem:
    return ManifestItem(id=Path(name).stem, category="c", input_path=Path("/items") / name,
                        truth_path=Path("/items/truth.txt"), truth_format="text", truth="x",
                        tags=tags)


DIGITAL = item("digital.pdf", ("a", "e"))
SCANNED_PDF = item("scan.pdf", ("b",))
IMAGE = item("crop.png", ("e",))
CHINESE = item("line.jpg", ("f",))


def test_who_reads_what() -> None:
    everything = [DIGITAL, SCANNED_PDF, IMAGE, CHINESE]
    assert items_for(Tool.PAPERLENS, everything) == everything
    assert items_for(Tool.RAPIDOCR, everything) == everything
    assert items_for(Tool.TESSERACT, everything) == [SCANNED_PDF, IMAGE, CHINESE]
    assert items_for(Tool.PYMUPDF4LLM, everything) == [DIGITAL]
    assert not reads(Tool.PYMUPDF4LLM, item("UPPER.PDF", ("b",)))
    assert reads(Tool.PYMUPDF4LLM, item("UPPER.PDF", ("c",)))


def test_tesseract_language_follows_the_chinese_tag() -> None:
    assert language(CHINESE) == "chi_sim"
    assert language(IMAGE) == "eng"
    assert languages([CHINESE, IMAGE, CHINESE]) == ["eng", "chi_sim"]
    assert languages([CHINESE]) == ["chi_sim"]
    assert languages([]) == ["eng"]


def test_render_scale_keeps_200_dpi_and_caps_the_long_side() -> None:
    assert render_scale(595, 842) == pytest.approx(200 / 72)  # A4
    poster = render_scale(1837, 2267)  # the 65 x 80 cm letter
    assert poster * 2267 == pytest.approx(4000)
    assert render_scale(100, 100, dpi=300, max_side_px=10_000) == pytest.approx(300 / 72)


def test_time_item_runs_warmup_then_timed_passes_and_joins_pages() -> None:
    calls = []

    def convert(path: Path) -> tuple[str, int]:
        calls.append(path.name)
        return f" text of {path.name} ", 1

    timing = time_item(convert, [Path("p1.png"), Path("p2.png")], runs=3, warmup=2)
    assert calls == ["p1.png", "p2.png"] * 5
    assert timing.markdown == "text of p1.png\n\ntext of p2.png"
    assert timing.pages == 2 and len(timing.run_s) == 3 and not timing.error
    assert timing.median_s is not None and timing.median_s >= 0
    assert ItemTiming.from_json(timing.to_json()) == timing


def test_time_item_turns_a_failure_into_the_item_result() -> None:
    def convert(path: Path) -> tuple[str, int]:
        raise RuntimeError("no text box found\nsecond line")

    timing = time_item(convert, [Path("p.png")], runs=1, warmup=1)
    assert timing.error == "RuntimeError: no text box found"
    assert timing.median_s is None and timing.markdown == "" and timing.pages == 0
    with pytest.raises(ValueError):
        time_item(convert, [Path("p.png")], runs=0, warmup=0)


def test_bench_requirements_come_from_the_extra(tmp_path: Path) -> None:
    assert any(r.startswith("rapidocr") for r in bench_requirements(REPO_ROOT / "pyproject.toml"))
    other = tmp_path / "pyproject.toml"
    other.write_text('[project]\nname = "x"\n', encoding="utf-8")
    with pytest.raises(InstallError):
        bench_requirements(other)


def test_tesseract_install_decision() -> None:
    logged: list[str] = []
    assert ensure_tesseract(logged.append, True, False, installed=lambda p: True) is None
    reason = ensure_tesseract(logged.append, True, False,
                              installed=lambda p: p != "tesseract-ocr-chi-sim")
    assert reason is not None and apt_command(["tesseract-ocr-chi-sim"]) in reason
    reason = ensure_tesseract(logged.append, False, True, installed=lambda p: False)
    assert reason is not None and apt_command(list(TESSERACT_PACKAGES)) in reason
    assert logged == []


def test_time_item_stops_timed_runs_once_the_budget_is_spent() -> None:
    calls = []

    def convert(path: Path) -> tuple[str, int]:
        calls.append(path.name)
        return "text", 1

    timing = time_item(convert, [Path("p.png")], runs=3, warmup=1, budget_s=0.0)
    assert len(timing.run_s) == 1 and len(calls) == 2
    timing = time_item(convert, [Path("p.png")], runs=3, warmup=0, budget_s=60.0)
    assert len(timing.run_s) == 3

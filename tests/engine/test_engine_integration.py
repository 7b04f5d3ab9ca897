"""The engine end to end on real documents from the evaluation set, with the real models."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.api import Engine
from engine.options import ConvertOptions, TextMethod
from engine.runtime.steps import chain_end

from engine_samples import folder_files

REPO_ROOT = Path(__file__).resolve().parents[2]


def item(eval_dev_dir: Path, name: str, file: str) -> Path:
    path = eval_dev_dir / "items" / name / file
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    return path


def words(text: str) -> str:
    """Lower-case words separated by single spaces, punctuation dropped: for tolerant matching."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def test_import_does_not_pull_in_qt():
    code = ("import sys, engine.api, engine.cli.main\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'gui'))\n"
            "print(bad)\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_engine_is_cheap_until_convert(settings):
    engine = Engine(settings)
    assert engine._models is None


@pytest.mark.model
def test_scanned_image(engine, eval_dev_dir, tmp_path):
    path = item(eval_dev_dir, "tesseract-phototest", "input.png")
    result = engine.convert(path, ConvertOptions(output_dir=str(tmp_path)))
    text = words(result.markdown)
    assert "quick brown dog" in text
    assert "lazy fox" in text
    assert "12 point text" in text
    assert text.count("quick brown dog jumped over the lazy fox") >= 3
    assert result.kind == "png"
    assert [p.text_source.value for p in result.pages] == ["ocr"]
    assert (tmp_path / "input.md").read_text(encoding="utf-8") == result.markdown
    # Where the page's time went inside its stages, each second counted once: the steps
    # fit in the stages that ran them, and a model's step holds its pure inference time.
    timings = result.pages[0].timings_s
    steps = {k: v for k, v in timings.items() if k.startswith("step_")}
    assert {"step_det", "step_rec", "step_layout", "step_script_reading.rec"} <= steps.keys()
    assert sum(steps.values()) <= sum(v for k, v in timings.items()
                                      if not k.startswith(("step_", "onnx_")))
    for role in ("det", "rec", "layout"):  # `step_rec` and `step_script_reading.rec`
        assert sum(seconds for key, seconds in steps.items()
                   if chain_end(key.removeprefix("step_")) == role) >= timings[f"onnx_{role}"]
    assert "step_" not in (tmp_path / "input.json").read_text(encoding="utf-8")


@pytest.mark.model
def test_digital_pdf_auto_uses_the_text_layer(engine, eval_dev_dir, tmp_path):
    path = item(eval_dev_dir, "docling-2305.03393v1-pg9", "input.pdf")
    result = engine.convert(path, ConvertOptions(output_dir=str(tmp_path), method=TextMethod.AUTO))
    assert [p.text_source.value for p in result.pages] == ["txt"]
    assert "hyper parameter optimization" in words(result.markdown)
    ran = {k for k in result.pages[0].timings_s if k.startswith("onnx_")}
    assert not ran & {"onnx_det", "onnx_cls", "onnx_rec"}  # the text layer needs no OCR model


@pytest.mark.model
def test_digital_pdf_forced_ocr_and_json_output(engine, eval_dev_dir, tmp_path):
    path = item(eval_dev_dir, "docling-2305.03393v1-pg9", "input.pdf")
    result = engine.convert(path, ConvertOptions(output_dir=str(tmp_path), method=TextMethod.OCR))
    assert [p.text_source.value for p in result.pages] == ["ocr"]
    text = words(result.markdown)
    assert "hyper parameter optimization" in text
    assert "pubtabnet" in text
    assert folder_files(tmp_path) == ["input.json", "input.md", "input_content_list.json"]

    data = json.loads((tmp_path / "input.json").read_text(encoding="utf-8"))
    (page,) = data["pages"]
    assert page["text_source"] == "ocr" and page["page_number"] == 1
    assert page["width"] > 0 and page["height"] > 0
    assert page["blocks"], "the page has blocks"
    for block in page["blocks"]:
        x0, y0, x1, y1 = block["box"]
        assert 0 <= x0 <= x1 <= page["width"] and 0 <= y0 <= y1 <= page["height"]
        assert block["lines"]
        for line in block["lines"]:
            assert len(line["box"]) == 4 and isinstance(line["text"], str)
            assert 0.0 <= line["score"] <= 1.0
    assert "timings_s" not in page and "timings_s" not in data  # same input, same bytes
    assert any(k.startswith("onnx_") for k in result.pages[0].timings_s)


@pytest.mark.model
def test_upside_down_page_is_read_in_order(dev_scans_converted):
    # One of the dev set's scans, which the session converts once.
    found = [r for source, r, _pdf in dev_scans_converted[1]
             if source.parent.name == "docling-ocr_test_rotated_180"]
    if not found:
        pytest.skip("docling-ocr_test_rotated_180 is missing from the dev set")
    [result] = found
    assert "docling bundles pdf document conversion" in words(result.markdown)
    assert result.pages[0].rotation == 180
    assert result.pages[0].text_source.value == "ocr"


def test_engine_creates_models_on_first_convert(settings, eval_dev_dir, tmp_path):
    path = item(eval_dev_dir, "docling-2305.03393v1-pg9", "input.pdf")
    engine = Engine(settings)
    assert engine._models is None
    engine.convert(path, ConvertOptions(pages=(1,), method=TextMethod.TXT))
    assert engine._models is not None

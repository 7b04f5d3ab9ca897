"""A model that cannot be loaded is a typed error for the run, with the fix in words, and
nothing is written: never a page skipped with a warning and an empty result called success."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from engine.cli.main import main as cli_main
from engine.errors import ModelIntegrityError
from engine.models.integrity import forget_hashes
from engine.runtime.sessions import SessionFactory

from engine_samples import encoded_image, folder_files

CLS_FILE = "ch_ppocr_mobile_v2.0_cls_mobile.onnx"


def flip_first_byte_keeping_mtime(path: Path) -> None:
    stat = path.stat()
    data = bytearray(path.read_bytes())
    data[0] ^= 0xFF
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_a_model_onnx_runtime_cannot_load_is_an_integrity_error_naming_file_and_fix(tmp_path):
    broken = tmp_path / CLS_FILE
    broken.write_bytes(b"\x00 not a model at all " * 64)
    with pytest.raises(ModelIntegrityError) as raised:
        SessionFactory(threads=1).session("cls", broken)
    message = raised.value.message
    assert str(broken) in message and "cls model" in message
    assert "paperlens-cli models fetch" in message and "reinstall" in message


@pytest.fixture
def copied_models(tmp_path: Path, settings) -> Path:
    """A copy of the user's model folder (records and all) with the cls model's first byte
    flipped and its mtime kept; the other models are links to the real files."""
    real = Path(settings.model.base_dir)
    if not (real / CLS_FILE).is_file():
        pytest.skip(f"{CLS_FILE} is not in {real}")
    copy = tmp_path / "models"
    copy.mkdir()
    for item in real.iterdir():
        if item.is_file() and item.suffix == ".onnx" and item.name != CLS_FILE:
            (copy / item.name).symlink_to(item)
        elif item.is_file():
            shutil.copy2(item, copy / item.name)  # the records, and the cls model itself
    flip_first_byte_keeping_mtime(copy / CLS_FILE)
    forget_hashes()  # as a new process starts
    return copy


@pytest.mark.model
def test_a_corrupt_model_with_its_mtime_kept_stops_the_run_with_the_fix(
        tmp_path, copied_models, monkeypatch, capsys):
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    monkeypatch.setenv("PAPERLENS_MODEL_DIR", str(copied_models))
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # offline: no replacement
    scan = tmp_path / "scan.png"
    scan.write_bytes(encoded_image(".png", height=64, width=96))
    out = tmp_path / "out"

    code = cli_main(["convert", str(scan), "-o", str(out), "--layout", "none"])

    err = capsys.readouterr().err
    assert code == 1, err
    assert not out.exists() or folder_files(out) == [], "nothing may be written"
    assert "0 of 1 document(s) converted" in err
    assert "ppocr-mobile-cls" in err and "damaged" in err
    assert "To fix" in err and "Traceback" not in err



def test_a_model_that_cannot_be_loaded_stops_the_whole_run(tmp_path, monkeypatch, capsys):
    """Every input would fail alike: the run stops at the first, with the fix said once."""
    from engine.cli.main import main as cli_main
    from engine.errors import ModelIntegrityError
    from engine.model_set import ModelSet

    from engine_samples import write_text_pdf

    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))

    def broken(self, *args, **kwargs):
        raise ModelIntegrityError("The layout model at /m/layout.onnx cannot be loaded; run "
                                  "`paperlens-cli models fetch` to replace it.")

    monkeypatch.setattr(ModelSet, "layout_detector", broken)
    inputs = [write_text_pdf(tmp_path / f"{n}.pdf", [[f"Document {n}"]]) for n in ("a", "b", "c")]
    assert cli_main(["convert", *map(str, inputs), "-o", str(tmp_path / "out")]) == 1
    said = capsys.readouterr().err
    assert said.count("cannot be loaded") == 1
    assert "0 of 3 document(s) converted" in said

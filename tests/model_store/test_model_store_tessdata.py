"""Tesseract's language data in the model store: the manifest's pinned entries, fetched from an
address (here a local server standing in for the pinned tessdata_fast tag) and hash-checked, when
no Debian package has put the file on the machine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.errors import ModelUnavailable
from engine.models.manifest import SourceSpec, load_manifest
from engine.models.store import ModelStore
from engine.ocr.scripts import OSD_MODEL_ID, SCRIPT_MODELS

DEBIAN_TESSDATA = Path("/usr/share/tesseract-ocr/5/tessdata")


def test_every_script_and_the_detection_have_a_pinned_entry_with_a_tag_address():
    specs = load_manifest()
    for model_id in [m.model_id for m in SCRIPT_MODELS.values()] + [OSD_MODEL_ID]:
        spec = specs[model_id]
        assert spec.sha256 and spec.size and not spec.default
        [url] = [s.url for s in spec.sources if s.kind == "url"]
        assert url.startswith("https://github.com/tesseract-ocr/tessdata_fast/raw/4.1.0/")
        assert url.endswith(spec.file)


def test_greek_data_is_fetched_from_its_address_and_checked(fake_index, tmp_path):
    spec = load_manifest()["tesseract-greek"]
    local = DEBIAN_TESSDATA / spec.file
    if not local.is_file():
        pytest.skip("tesseract-ocr-script-grek is not installed to serve its file")
    fake_index.files[spec.file] = local.read_bytes()
    empty = tmp_path / "no-debian-package"
    empty.mkdir()
    served = replace(spec, sources=(SourceSpec("file", path=str(empty)),
                                    SourceSpec("url", url=f"{fake_index.base_url}/files/{spec.file}")))
    store = ModelStore(tmp_path / "models", manifest={spec.id: served})

    path = store.ensure(spec.id)

    assert path == tmp_path / "models" / spec.file and store.verify(spec.id)
    assert fake_index.downloads_of(spec.file)
    # A file that is not the pinned one is refused, never handed to Tesseract.
    path.unlink()
    fake_index.files[spec.file] = b"not the Greek data" * 1000
    with pytest.raises(ModelUnavailable):
        ModelStore(tmp_path / "other", manifest={spec.id: served}).ensure(spec.id)

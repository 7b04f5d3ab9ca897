"""Typed outcomes: a stage that raises fails its page alone; the JSON, the content list and the
CLI's exit code say so. Faults are injected into each stage in turn on a text-layer PDF read
without layout, so no model is needed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import recipe
from engine.api import Engine
from engine.cli.main import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, main as cli_main
from engine.errors import DocumentFailed
from engine.options import ConvertOptions, TextMethod
from engine.types import Status, document_status

from engine_samples import folder_files, write_text_pdf

STAGE_NAMES = [name for name, _ in recipe.PAGE_STAGES]


def inject_fault(monkeypatch, stage_name: str, pages: set[int], document: str = "report.pdf"
                 ) -> None:
    """The named stage raises on the given pages of `document` and runs as usual elsewhere."""
    def faulty(original):
        def stage(page, models):
            if page.page_number in pages and Path(page.document.path).name == document:
                raise RuntimeError(f"injected fault in {stage_name}")
            return original(page, models)
        return stage

    monkeypatch.setattr(recipe, "PAGE_STAGES", tuple(
        (name, faulty(fn) if name == stage_name else fn) for name, fn in recipe.PAGE_STAGES))


def three_pages(folder: Path, name: str = "report.pdf") -> Path:
    return write_text_pdf(folder / name, [[f"Page {p} of the harvest report"] for p in (1, 2, 3)])


def convert(folder: Path, *inputs: Path) -> int:
    return cli_main(["convert", *map(str, inputs), "-o", str(folder), "--method", "txt",
                     "--layout", "none"])


@pytest.fixture
def isolated(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PAPERLENS_CONFIG", str(tmp_path / "settings.json"))
    return tmp_path


@pytest.mark.parametrize("stage", STAGE_NAMES)
def test_a_fault_in_any_stage_fails_that_page_alone(isolated, monkeypatch, capsys, stage):
    inject_fault(monkeypatch, stage, pages={2})
    out = isolated / "out"

    assert convert(out, three_pages(isolated)) == EXIT_PARTIAL

    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["status"] == "partial"
    assert [p["status"] for p in data["pages"]] == ["ok", "failed", "ok"]
    [error] = data["pages"][1]["errors"]
    assert error == {"stage": stage, "kind": "RuntimeError",
                     "message": f"injected fault in {stage}"}
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "Page 1 of the harvest" in markdown and "Page 3 of the harvest" in markdown
    assert "Page 2" not in markdown
    items = json.loads((out / "report_content_list.json").read_text(encoding="utf-8"))
    [flag] = [i for i in items if i["type"] == "page_error"]
    assert (flag["page_idx"], flag["stage"], flag["status"]) == (1, stage, "failed")
    said = capsys.readouterr().err
    assert f"page 2, {stage}: RuntimeError: injected fault in {stage}" in said


def test_a_document_whose_pages_all_fail_writes_nothing_and_exits_non_zero(isolated,
                                                                           monkeypatch, capsys):
    inject_fault(monkeypatch, "blocks", pages={1, 2, 3})
    out = isolated / "out"
    good = write_text_pdf(isolated / "good.pdf", [["A page that reads"]])

    code = convert(out, three_pages(isolated), good)

    assert code == EXIT_FAILED
    assert folder_files(out) == ["good.json", "good.md", "good_content_list.json"]
    said = capsys.readouterr().err
    assert "No page of report.pdf could be read (page 1, blocks: injected fault in blocks)" in said


def test_every_page_ok_exits_zero(isolated):
    assert convert(isolated / "out", three_pages(isolated)) == EXIT_OK


def test_the_engine_raises_document_failed_with_each_pages_reason(settings, tmp_path,
                                                                  monkeypatch):
    inject_fault(monkeypatch, "text_layer", pages={1, 2, 3})
    options = ConvertOptions(output_dir=str(tmp_path / "out"), method=TextMethod.TXT,
                             layout_model=None)
    with pytest.raises(DocumentFailed) as caught:
        Engine(settings).convert(three_pages(tmp_path), options)
    result = caught.value.result
    assert result.status is Status.FAILED
    assert [(p.status, p.errors[0].stage) for p in result.pages] == [
        (Status.FAILED, "text_layer")] * 3
    assert folder_files(tmp_path / "out") == []


def test_document_status_from_page_statuses():
    class P:
        def __init__(self, status):
            self.status = status

    assert document_status([P(Status.OK), P(Status.OK)]) is Status.OK
    assert document_status([P(Status.OK), P(Status.PARTIAL)]) is Status.PARTIAL
    assert document_status([P(Status.OK), P(Status.FAILED)]) is Status.PARTIAL
    assert document_status([P(Status.FAILED), P(Status.FAILED)]) is Status.FAILED


def test_the_page_image_is_announced_before_the_next_stage_runs(isolated, monkeypatch):
    """A live view gets the rendered page before any model stage has finished."""
    from engine import events

    seen: list[tuple[str, object]] = []

    def slow_text_layer(original):
        def stage(page, models):
            if page.page_number == 1:
                seen.append(("text_layer started", None))
            return original(page, models)
        return stage

    monkeypatch.setattr(recipe, "PAGE_STAGES", tuple(
        (name, slow_text_layer(fn) if name == "text_layer" else fn)
        for name, fn in recipe.PAGE_STAGES))
    options = ConvertOptions(method=TextMethod.TXT, layout_model=None)

    def listen(event):
        if isinstance(event, events.PageProgress) and event.page_number == 1:
            seen.append((event.stage, event.image))

    from settings import SettingsStore
    Engine(SettingsStore().load()).convert(three_pages(isolated), options, on_event=listen)
    assert seen[0][0] == "render" and seen[0][1] is not None and seen[0][1].ndim == 3
    assert seen[1] == ("text_layer started", None)
    assert [stage for stage, _ in seen[2:]] == [n for n in STAGE_NAMES if n != "render"]

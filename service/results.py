"""A finished job's results as HTTP answers: one file (md, json, content_list, pdf, docx,
xlsx, alto, hocr) of one document, or everything (every document's files with their images, and the job's
status) as a zip."""

from __future__ import annotations

import base64
import json
import os
import zipfile
from typing import Any

from fastapi.responses import FileResponse

from engine.api import EXPORT_SUFFIXES, OutputFormat
from service.errors import ServiceError
from service.jobs import JobStore
from service.storage import DataFolder

FORMATS = {"md": (".md", "text/markdown; charset=utf-8"),
           "json": (".json", "application/json"),
           "content_list": ("_content_list.json", "application/json"),
           "pdf": (EXPORT_SUFFIXES[OutputFormat.PDF], "application/pdf"),
           "docx": (EXPORT_SUFFIXES[OutputFormat.DOCX], "application/vnd.openxmlformats-"
                    "officedocument.wordprocessingml.document"),
           "xlsx": (EXPORT_SUFFIXES[OutputFormat.XLSX], "application/vnd.openxmlformats-"
                    "officedocument.spreadsheetml.sheet"),
           "alto": (EXPORT_SUFFIXES[OutputFormat.ALTO], "application/xml"),
           "hocr": (EXPORT_SUFFIXES[OutputFormat.HOCR], "application/xhtml+xml")}
ZIP_NAME = "result.zip"


def finished_view(store: JobStore, job_id: str) -> dict[str, Any]:
    view = store.view(job_id)
    if view is None:
        raise ServiceError(404, "unknown_job", f"There is no job {job_id} (it never existed, or "
                           "its results expired).")
    state = view["state"]
    if state in ("queued", "running"):
        raise ServiceError(409, "not_finished", f"The job is {state}: {view['pages_done']} of "
                           f"{view['pages_total']} pages read. Ask again when its state is done "
                           "or partial (GET /v1/jobs/{id}/events tells you).")
    if state == "cancelled":
        raise ServiceError(409, "cancelled", "The job was cancelled; it has no results.")
    if state == "failed":
        reasons = [view["error"]] if view["error"] else [
            f"{d['name']}: {d['error']}" for d in view["documents"] if d["error"]]
        raise ServiceError(409, "failed", "The job failed; nothing was written. "
                           + " ".join(reasons))
    return view


def result_file(view: dict[str, Any], folder: DataFolder, fmt: str,
                document: str | None) -> FileResponse:
    suffix, media = FORMATS[fmt]
    if fmt not in view["options"]["formats"]:
        raise ServiceError(404, "format_not_written", f"This job was submitted with formats="
                           f"{','.join(view['options']['formats'])}; it has no {fmt}.")
    doc = pick_document(view, document)
    name = doc["output_name"] + suffix
    path = folder.output_dir(view["id"]) / name
    if not path.is_file():  # an export this document could not give (no table for a workbook)
        raise ServiceError(404, "format_not_written", f"{doc['name']} has no {fmt}: that export "
                           "could not be made from it (a workbook needs a table, a Word file "
                           "some text; the warnings in its JSON say which). Its other formats "
                           "were written.")
    return FileResponse(path, media_type=media, filename=name)


def pick_document(view: dict[str, Any], wanted: str | None) -> dict[str, Any]:
    documents = view["documents"]
    if wanted is None:
        if len(documents) > 1:
            names = ", ".join(d["name"] for d in documents)
            raise ServiceError(422, "which_document", f"The job holds {len(documents)} documents "
                               f"({names}); name one with ?document=NAME, or ask for "
                               "format=zip.")
        doc = documents[0]
    else:
        found = [d for d in documents if wanted in (d["name"], d["output_name"], str(d["index"]))]
        if not found:
            raise ServiceError(404, "unknown_document", f"The job holds no document {wanted!r}.")
        doc = found[0]
    if doc["state"] != "done":
        raise ServiceError(409, "document_failed", f"{doc['name']} could not be converted: "
                           f"{doc['error']}")
    return doc


def result_zip(view: dict[str, Any], folder: DataFolder, store: JobStore) -> FileResponse:
    """Made once per job (written whole, then renamed, counted in the quota), then served as
    a file."""
    job_dir = folder.job(view["id"])
    target = job_dir / ZIP_NAME
    if not target.exists():
        output = folder.output_dir(view["id"])
        partial = job_dir / (ZIP_NAME + ".partial")
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for doc in view["documents"]:
                for name in doc["outputs"]:
                    archive.write(output / name, name)
            archive.writestr("status.json", json.dumps(view, ensure_ascii=False, indent=1))
        os.replace(partial, target)
        store.add_bytes(view["id"], target.stat().st_size)
    return FileResponse(target, media_type="application/zip",
                        filename=f"paperlens-{view['id']}.zip")


def quick_answer(view: dict[str, Any], folder: DataFolder, elapsed_ms: float) -> dict[str, Any]:
    """What POST /v1/ocr returns: the Markdown, the JSON export, the content list and the
    images the Markdown links to (base64), all in one answer."""
    doc = view["documents"][0]
    output = folder.output_dir(view["id"])
    stem = doc["output_name"]

    def read_json(name: str) -> Any:
        return json.loads((output / name).read_text(encoding="utf-8"))

    images = {name: base64.b64encode((output / name).read_bytes()).decode("ascii")
              for name in doc["outputs"] if name.startswith("images/")}
    return {"name": doc["name"], "kind": doc["kind"], "status": doc["status"],
            "pages": [{"page": p["page"], "status": p["status"], "errors": p["errors"]}
                      for p in doc["pages"]],
            "markdown": (output / f"{stem}.md").read_text(encoding="utf-8"),
            "document": read_json(f"{stem}.json"),
            "content_list": read_json(f"{stem}_content_list.json"),
            "images": images, "elapsed_ms": round(elapsed_ms, 1)}


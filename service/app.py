"""The HTTP API: routes only. Each one validates at the edge and hands over to the job table
(service/jobs.py), the intake (service/uploads.py) or the results (service/results.py)."""

from __future__ import annotations

import asyncio
import shutil
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from engine.api import InvalidOptions
from service import schemas
from service.config import ServiceConfig
from service.converter import model_report
from service.docs_pages import install_docs
from service.errors import ServiceError, from_engine, install_handlers
from service.jobs import JobStore, NotCancellable
from service.options import FILE_FIELDS, OPTION_FIELDS, JobOptions, parse_options
from service.progress import job_events
from service.results import finished_view, quick_answer, result_file, result_zip
from service.security import BodyCaps, RequestGuard
from service.storage import DataFolder
from service.uploads import Intake, Received

SYNC_POLL_S = 0.05


@dataclass
class Service:
    config: ServiceConfig
    folder: DataFolder
    store: JobStore
    settings: Any


def version() -> str:
    try:
        return metadata.version("paperlens")
    except metadata.PackageNotFoundError:
        return "dev"


def create_app(service: Service) -> FastAPI:
    config, store, folder = service.config, service.store, service.folder
    intake = Intake(config, folder, store)
    app = FastAPI(title="Paperlens", version=version(),
                  description="PDFs and images to Markdown, on this machine. Jobs survive a "
                              "restart of the service; see the README's Service section.",
                  docs_url=None, redoc_url=None)  # served from here instead: docs_pages.py
    install_handlers(app)
    install_docs(app)

    async def admission(path: str, declared: int) -> None:
        await run_in_threadpool(intake.admit, path, declared)

    app.add_middleware(RequestGuard, token=config.token,
                       caps=BodyCaps(config.max_upload_bytes, config.sync_max_bytes),
                       admission=admission)

    @app.get("/health", response_model=schemas.Health, tags=["service"])
    def health() -> dict[str, Any]:
        """Version, models on disk and verified, the device each worker uses and why, and how
        full the queue and the disk are."""
        workers = store.workers()
        ready = [w for w in workers if w["state"] == "ready"]
        status = "ok" if ready else "starting" if any(
            w["state"] == "warming" for w in workers) or not workers else "degraded"
        return {"status": status, "version": version(),
                "device": ready[0]["device"] if ready else None,
                "models": ready[0]["models"] if ready else _models(service.settings),
                "workers": workers,
                "queue": store.queue(),
                "disk": {"used_bytes": store.usage_bytes(), "quota_bytes": config.quota_bytes,
                         "free_bytes": folder.free_bytes()},
                "limits": config.limits_json()}

    @app.post("/v1/ocr", response_model=schemas.QuickResult, responses=schemas.ERRORS,
              tags=["quick"])
    async def quick_ocr(request: Request,
                        file: UploadFile = File(description="an image, or a PDF of a few pages"),
                        pages: str | None = Form(None, description="page ranges, e.g. 1-2"),
                        method: Literal["auto", "txt", "ocr"] | None = Form(None),
                        layout: Literal["doclaynet", "cdla", "none"] | None = Form(None),
                        tables: Literal["html", "markdown"] | None = Form(None),
                        dpi: int | None = Form(None),
                        keep_furniture: bool | None = Form(None),
                        tables_across_pages: Literal["join", "keep"] | None = Form(
                            None, description="a table going on over a page break: one table "
                            "(join, the default) or one per page (keep)")) -> dict[str, Any]:
        """One small input, answered when it is read: Markdown, the JSON export, the content
        list and the images, in one answer. Larger inputs go to /v1/jobs."""
        started = time.perf_counter()
        fields = await _fields(request, allowed=set(OPTION_FIELDS) - {"formats"} | {"file"})
        options = _options(fields, service.settings, formats="md,json,content_list")
        area = intake.new_area()
        try:
            item, _size = await run_in_threadpool(intake.receive, area, 0, file.filename,
                                                  file.file, config.sync_max_bytes, 0)
            job_id = await run_in_threadpool(intake.queue, area, [item], options, True)
        finally:
            shutil.rmtree(area, ignore_errors=True)
        try:
            view = await _wait(job_id, request)
            doc = view["documents"][0]
            if view["state"] not in ("done", "partial") or doc["state"] != "done":
                raise ServiceError(422, "document_failed", view["error"] or doc["error"]
                                   or "The document could not be converted.")
            return await run_in_threadpool(quick_answer, view, folder,
                                           (time.perf_counter() - started) * 1000)
        finally:
            await run_in_threadpool(_remove, job_id)

    async def _wait(job_id: str, request: Request) -> dict[str, Any]:
        deadline = time.monotonic() + config.sync_timeout_s
        while True:
            state = await run_in_threadpool(store.state, job_id)
            if state not in ("queued", "running"):
                return await run_in_threadpool(store.view, job_id)
            if await request.is_disconnected():
                await run_in_threadpool(_cancel_quietly, job_id)
                raise ServiceError(400, "client_gone", "The client left; the request was "
                                   "cancelled.")
            if time.monotonic() > deadline:
                await run_in_threadpool(_cancel_quietly, job_id)
                raise ServiceError(504, "timeout", f"The document was not read within "
                                   f"{config.sync_timeout_s:.0f} s; send it to /v1/jobs "
                                   "instead, which has no time limit.")
            await asyncio.sleep(SYNC_POLL_S)

    def _cancel_quietly(job_id: str) -> None:
        try:
            store.cancel(job_id)
        except NotCancellable:
            pass

    def _remove(job_id: str) -> None:
        store.delete(job_id)
        folder.remove_job(job_id)

    @app.post("/v1/jobs", status_code=202, response_model=schemas.JobCreated,
              responses=schemas.ERRORS, tags=["jobs"])
    async def submit_job(request: Request,
                         files: list[UploadFile] = File(default=[], description="documents"),
                         paths: list[str] = Form(default=[], description=(
                             "absolute paths of files inside an --allow-dir folder")),
                         pages: str | None = Form(None, description="page ranges, e.g. 1-3,7"),
                         method: Literal["auto", "txt", "ocr"] | None = Form(None),
                         layout: Literal["doclaynet", "cdla", "none"] | None = Form(None),
                         tables: Literal["html", "markdown"] | None = Form(None),
                         formats: str | None = Form(None, description=(
                             "comma-separated: md, json, content_list, pdf (searchable), docx, "
                             "xlsx, alto (ALTO 4 XML), hocr (md is always written)")),
                         dpi: int | None = Form(None),
                         keep_furniture: bool | None = Form(None),
                         tables_across_pages: Literal["join", "keep"] | None = Form(
                             None, description="a table going on over a page break: one table "
                             "(join, the default) or one per page (keep)")) -> dict[str, Any]:
        """Queue one or more documents; answered at once with the job's id (202). Follow it
        with GET /v1/jobs/{id} or its events; fetch GET /v1/jobs/{id}/result when done."""
        fields = await _fields(request, allowed=set(OPTION_FIELDS) | set(FILE_FIELDS))
        options = _options(fields, service.settings)
        area = intake.new_area()
        received: list[Received] = []
        total = 0
        try:
            for index, upload in enumerate(files):
                item, size = await run_in_threadpool(intake.receive, area, index,
                                                     upload.filename, upload.file,
                                                     config.max_upload_bytes, total)
                received.append(item)
                total += size
            for index, raw in enumerate(paths, start=len(received)):
                item, size = await run_in_threadpool(intake.copy_allowed, area, index, raw,
                                                     config.max_upload_bytes, total)
                received.append(item)
                total += size
            job_id = await run_in_threadpool(intake.queue, area, received, options, False)
        finally:
            shutil.rmtree(area, ignore_errors=True)
        summary = store.summary(job_id)
        base = f"/v1/jobs/{job_id}"
        return {"id": job_id, "state": summary["state"], "pages_total": summary["pages_total"],
                "links": {"self": base, "events": f"{base}/events", "result": f"{base}/result"}}

    @app.get("/v1/jobs", response_model=schemas.JobList, tags=["jobs"])
    def list_jobs(state: schemas.JobState | None = None,
                  limit: int = Query(50, ge=1, le=500),
                  offset: int = Query(0, ge=0)) -> dict[str, Any]:
        """Jobs, newest first (quick /v1/ocr requests are not listed)."""
        return {"jobs": store.list(state, limit, offset)}

    @app.get("/v1/jobs/{job_id}", response_model=schemas.JobView, responses=schemas.ERRORS,
             tags=["jobs"])
    def get_job(job_id: str) -> dict[str, Any]:
        """State, pages read of all, and each page's status and errors."""
        return _known(job_id)

    @app.delete("/v1/jobs/{job_id}", response_model=schemas.JobView, responses=schemas.ERRORS,
                tags=["jobs"])
    def cancel_job(job_id: str) -> dict[str, Any]:
        """Cancel a queued or running job; a page being read stops at its next stage."""
        _known(job_id)
        try:
            store.cancel(job_id)
        except NotCancellable as exc:
            raise ServiceError(409, "already_finished", str(exc)) from None
        return _known(job_id)

    @app.get("/v1/jobs/{job_id}/events", responses=schemas.ERRORS, tags=["jobs"],
             response_class=StreamingResponse)
    def job_progress(job_id: str, request: Request) -> StreamingResponse:
        """Server-sent events: state, stage, page and a final end event."""
        _known(job_id, with_pages=False)
        return StreamingResponse(job_events(store, job_id, request.is_disconnected),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache",
                                          "X-Accel-Buffering": "no"})

    @app.get("/v1/jobs/{job_id}/result", responses=schemas.ERRORS, tags=["jobs"])
    def job_result(job_id: str,
                   format: Literal["md", "json", "content_list", "pdf", "docx", "xlsx", "alto",
                                   "hocr", "zip"] = "md",
                   document: str | None = Query(None, description=(
                       "which document of a job of several (name, output name or index)"))):
        """One file of a finished job, or the zip of every document with its images."""
        _known(job_id, with_pages=False)
        view = finished_view(store, job_id)
        if format == "zip":
            return result_zip(view, folder, store)
        return result_file(view, folder, format, document)

    def _known(job_id: str, with_pages: bool = True) -> dict[str, Any]:
        view = store.view(job_id, with_pages) if _looks_like_id(job_id) else None
        if view is None:
            raise ServiceError(404, "unknown_job", f"There is no job {job_id[:64]} (it never "
                               "existed, or its results expired).")
        return view

    return app


async def _fields(request: Request, allowed: set[str]) -> dict[str, Any]:
    form = await request.form()
    unknown = sorted(set(form.keys()) - allowed)
    if unknown:
        raise ServiceError(422, "unknown_option", f"Unknown field(s) {', '.join(unknown)}; "
                           f"this endpoint takes {', '.join(sorted(allowed))}.",)
    return {key: form.get(key) for key in form.keys()}


def _options(fields: dict[str, Any], settings, formats: str | None = None) -> JobOptions:
    values = {k: v for k, v in fields.items() if k in OPTION_FIELDS}
    if formats is not None:
        values["formats"] = formats
    try:
        return parse_options(values, settings)
    except InvalidOptions as exc:
        raise from_engine(exc) from None


def _looks_like_id(job_id: str) -> bool:
    return len(job_id) == 32 and all(c in "0123456789abcdef" for c in job_id)


def _models(settings) -> list[dict[str, Any]]:
    """The cheap check (size, time and the record beside each file); a worker that warmed up
    reports the full hash it took before loading each model."""
    from engine.api import ModelStore, default_model_dir

    base = settings.model.base_dir
    store = ModelStore(Path(base) if base else default_model_dir(), settings.model.index_url)
    return model_report(store, str(settings.model.layout))

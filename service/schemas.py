"""The shapes of the service's answers, for the OpenAPI document at /docs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

JobState = Literal["queued", "running", "done", "partial", "failed", "cancelled"]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


class PageView(BaseModel):
    page: int
    state: Literal["pending", "running", "done"]
    status: Literal["ok", "partial", "failed"] | None
    stage: str | None
    errors: list[dict[str, str]]
    seconds: float | None
    attempts: int


class DocumentView(BaseModel):
    index: int
    name: str
    output_name: str
    kind: str
    page_count: int
    state: Literal["reading", "assembling", "done", "failed"]
    status: Literal["ok", "partial", "failed"] | None
    error: str | None
    outputs: list[str]
    pages_done: int
    pages_total: int
    pages: list[PageView]


class JobView(BaseModel):
    id: str
    state: JobState
    error: str | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    options: dict[str, Any]
    pages_done: int
    pages_total: int
    documents: list[DocumentView]


class JobSummary(BaseModel):
    id: str
    state: JobState
    created_at: float
    finished_at: float | None
    pages_done: int
    pages_total: int
    documents: list[str]


class JobList(BaseModel):
    jobs: list[JobSummary]


class JobCreated(BaseModel):
    id: str
    state: JobState
    pages_total: int
    links: dict[str, str]


class QuickPage(BaseModel):
    page: int
    status: str | None
    errors: list[dict[str, str]]


class QuickResult(BaseModel):
    name: str
    kind: str
    status: str | None
    pages: list[QuickPage]
    markdown: str
    document: dict[str, Any] = Field(description=(
        "The document JSON paperlens-cli writes, beginning with its schema_version; its JSON "
        "Schema is engine/output/schema/document.schema.json (docs/api.md)."))
    content_list: list[dict[str, Any]] = Field(description=(
        "The content list (MinerU's shape; engine/output/schema/content_list.schema.json), of "
        "the document JSON's schema_version."))
    images: dict[str, str]
    """Images the Markdown links to: path -> PNG bytes in base64."""
    elapsed_ms: float


class Health(BaseModel):
    status: Literal["ok", "starting", "degraded"]
    version: str
    device: dict[str, Any] | None
    models: list[dict[str, Any]]
    workers: list[dict[str, Any]]
    queue: dict[str, int]
    disk: dict[str, int]
    limits: dict[str, Any]


ERRORS = {status: {"model": ErrorBody} for status in (401, 403, 404, 409, 413, 415, 422, 429,
                                                      504, 507)}

"""Every refusal the service gives: an HTTP status, a stable code and one sentence a person can
act on, as `{"error": {"code": ..., "message": ...}}`."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from engine.api import (CorruptDocument, InvalidOptions, PaperlensError, PasswordRequired,
                        UnsupportedInput)

_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
          405: "method_not_allowed", 409: "conflict", 413: "too_large",
          415: "unsupported_input", 422: "invalid_request", 429: "queue_full",
          500: "internal_error", 503: "unavailable", 504: "timeout",
          507: "insufficient_storage"}


class ServiceError(HTTPException):
    def __init__(self, status: int, code: str, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(status, {"code": code, "message": message}, headers)


def from_engine(exc: PaperlensError) -> ServiceError:
    """The engine's typed errors about an input or the options, as HTTP answers."""
    if isinstance(exc, UnsupportedInput):
        return ServiceError(415, "unsupported_input", exc.message)
    if isinstance(exc, PasswordRequired):
        return ServiceError(422, "password_required",
                            f"{exc.message} The service does not take passwords: remove the "
                            "protection, or convert it with paperlens-cli.")
    if isinstance(exc, CorruptDocument):
        return ServiceError(422, "corrupt_document", exc.message)
    if isinstance(exc, InvalidOptions):
        return ServiceError(422, "invalid_option", exc.message)
    return ServiceError(422, "unreadable_input", exc.message)


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        detail = exc.detail
        if not isinstance(detail, dict):
            detail = {"code": _CODES.get(exc.status_code, "error"), "message": str(detail)}
        return JSONResponse({"error": detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [_describe(error) for error in exc.errors()]
        return JSONResponse({"error": {"code": "invalid_request", "message": " ".join(problems),
                                       "fields": [e.get("loc", [])[-1] for e in exc.errors()]}},
                            status_code=422)


def _describe(error: dict) -> str:
    location = [str(part) for part in error.get("loc", ()) if part not in ("body", "query")]
    name = ".".join(location) or "request"
    kind = error.get("type", "")
    if kind == "missing":
        return f"{name}: required, but not given."
    if kind in ("int_parsing", "int_type"):
        return f"{name}: expected a whole number, got {str(error.get('input'))[:40]!r}."
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        return f"{name}: got {str(error.get('input'))[:40]!r}; use {expected}."
    return f"{name}: {error.get('msg', 'not valid')}."

"""Who may talk to the service, and how much they may send, checked before a request reaches
an endpoint.

- Only loopback addresses without a token: binding any other address needs a token, and
  then every /v1 request carries `Authorization: Bearer <token>` (compared in constant time).
- Without a token, a request must be addressed to a loopback name (Host), so a web page cannot
  reach the service through a name of its own (DNS rebinding); with or without a token, a
  browser request from a page that is not on this machine (Origin) is refused.
- A body larger than the endpoint's cap is refused from its Content-Length before any of it is
  read, and a body without one is counted as it arrives and cut off at the cap."""

from __future__ import annotations

import hmac
import ipaddress
import json
from dataclasses import dataclass
from typing import Awaitable, Callable
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException

MIN_TOKEN_CHARS = 16
LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")
OPEN_PATHS = ("/health", "/docs", "/docs/oauth2-redirect", "/openapi.json", "/redoc")
OPEN_PREFIXES = ("/docs/assets/",)
"""The scripts and styles of the pages above."""
# Endpoints that take no body of their own get this much at most.
SMALL_BODY_BYTES = 64 * 1024


class ExposureError(Exception):
    """The service would be reachable from other machines without a token."""


def is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, token: str | None) -> None:
    if token is not None and len(token) < MIN_TOKEN_CHARS:
        raise ExposureError(f"The token is {len(token)} characters long; use at least "
                            f"{MIN_TOKEN_CHARS} (e.g. `python -c 'import secrets; "
                            "print(secrets.token_urlsafe(32))'`).")
    if not is_loopback(host) and token is None:
        raise ExposureError(
            f"Refusing to listen on {host}: other machines could reach it, and no token is set. "
            "Set PAPERLENS_SERVICE_TOKEN or --token-file (clients then send "
            "`Authorization: Bearer <token>`), or listen on 127.0.0.1.")


def token_matches(expected: str, header: str | None) -> bool:
    """`Bearer <token>`, the scheme in any case (RFC 7235: schemes are case-insensitive)."""
    scheme, _space, token = (header or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    return hmac.compare_digest(token.strip().encode(), expected.encode())


@dataclass(frozen=True)
class BodyCaps:
    upload_bytes: int
    """POST /v1/jobs."""
    sync_bytes: int
    """POST /v1/ocr."""

    def for_path(self, method: str, path: str) -> int:
        if method == "POST" and path.rstrip("/") == "/v1/jobs":
            return self.upload_bytes
        if method == "POST" and path.rstrip("/") == "/v1/ocr":
            return self.sync_bytes
        return SMALL_BODY_BYTES


class BodyTooLarge(HTTPException):
    def __init__(self, cap: int) -> None:
        super().__init__(413, f"The request is larger than this endpoint takes "
                              f"({_size(cap)}); send a smaller file.")


Admission = Callable[[str, int], Awaitable[None]]
"""(path, declared body bytes) -> None, or raises an HTTPException (queue full, disk quota):
asked before an upload is read, so a refused upload is not received first."""


class RequestGuard:
    """Pure ASGI middleware (it must see the body as it streams, before any parser)."""

    def __init__(self, app, token: str | None, caps: BodyCaps,
                 admission: Admission | None = None) -> None:
        self.app = app
        self.token = token
        self.caps = caps
        self.admission = admission

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _send_error(send, *refusal)
            return
        cap = self.caps.for_path(scope["method"], scope["path"])
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.isdigit():
                await _send_error(send, 400, "bad_request", "Content-Length is not a number.")
                return
            if int(declared) > cap:
                await _send_error(send, 413, "too_large", BodyTooLarge(cap).detail)
                return
            if self.admission is not None and scope["method"] == "POST":
                try:
                    await self.admission(scope["path"], int(declared))
                except HTTPException as exc:
                    body = exc.detail if isinstance(exc.detail, dict) else {
                        "code": "refused", "message": str(exc.detail)}
                    await _send_error(send, exc.status_code, body["code"], body["message"],
                                      exc.headers)
                    return
        received = 0

        async def counted() -> dict:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    raise BodyTooLarge(cap)
            return message

        await self.app(scope, counted, send)

    def _refusal(self, scope, headers: dict[str, str]) -> tuple[int, str, str, dict] | None:
        origin = headers.get("origin")
        # "null" is what sandboxed frames and local files send: a web page all the same.
        if origin and not is_loopback(urlsplit(origin).hostname or ""):
            return (403, "forbidden_origin", f"Requests from web pages of {origin} are refused; "
                    "this service answers programs on this machine.", {})
        if self.token is None:
            host = urlsplit("//" + headers.get("host", "")).hostname or ""
            if not is_loopback(host):
                return (403, "forbidden_host", f"This service answers only requests addressed to "
                        f"localhost, not to {host or 'an empty Host'}.", {})
            return None
        path = scope["path"].rstrip("/") or "/"
        if path in OPEN_PATHS or path.startswith(OPEN_PREFIXES):
            return None
        if not token_matches(self.token, headers.get("authorization")):
            return (401, "unauthorized", "This service needs `Authorization: Bearer <token>`; "
                    "the token is missing or wrong.", {"WWW-Authenticate": "Bearer"})
        return None


async def _send_error(send, status: int, code: str, message: str,
                      headers: dict[str, str] | None = None) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    extra = [(k.lower().encode("latin-1"), v.encode("latin-1"))
             for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *extra]})
    await send({"type": "http.response.body", "body": body})


def _size(count: int) -> str:
    return f"{count / 2**20:.1f} MiB" if count >= 2**20 else f"{count / 1024:.0f} KiB"

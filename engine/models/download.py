"""HTTP for the model store: the package index's simple API (PEP 691, PEP 503 fallback) and resumable downloads."""

from __future__ import annotations

import base64
import http.client
import json
import logging
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from engine.models.sources import ByteProgress, ProgressThrottle, SourceFailure, sha256_file

log = logging.getLogger(__name__)

PUBLIC_INDEX_URL = "https://pypi.org/simple"
_JSON_SIMPLE = "application/vnd.pypi.simple.v1+json"
# JSON first (PEP 691); HTML only as a fallback for mirrors that do not speak JSON yet.
_ACCEPT = f"{_JSON_SIMPLE}, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"
_CHUNK_BYTES = 1 << 16
_USER_AGENT = "paperlens-model-store"


@dataclass(frozen=True)
class IndexedWheel:
    """A wheel file as the index lists it."""

    filename: str
    url: str
    sha256: str
    size: int | None


def resolve_index_url(index_url: str | None) -> str:
    """The index to ask: the given setting, else pip's PIP_INDEX_URL, else the public index."""
    for candidate in (index_url, os.environ.get("PIP_INDEX_URL")):
        if candidate and candidate.strip():
            return candidate.strip().rstrip("/")
    return PUBLIC_INDEX_URL


def normalize_project(name: str) -> str:
    """PEP 503 name normalisation, as used in simple-index URLs."""
    return re.sub(r"[-_.]+", "-", name).lower()


def redact_url(url: str) -> str:
    """The URL without a password, fit for messages and logs."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None and parts.username is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ""
    return urllib.parse.urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))


class HttpClient:
    """urllib with a timeout, a user agent, and the index's credentials sent only to the index's
    origin (scheme, host and port): a redirect to another origin goes without them, and a
    redirect from https to http is refused."""

    def __init__(self, index_url: str, timeout_s: float = 30.0) -> None:
        parts = urllib.parse.urlsplit(index_url)
        self._auth_header: str | None = None
        self._auth_origin: tuple[str, str, int | None] | None = None
        if parts.username is not None:
            # urllib ignores user:password in a URL; pip accepts it in PIP_INDEX_URL, so honour it.
            user = urllib.parse.unquote(parts.username)
            password = urllib.parse.unquote(parts.password or "")
            token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            self._auth_header = f"Basic {token}"
            self._auth_origin = origin(index_url)
            host = parts.hostname or ""
            if parts.port:
                host = f"{host}:{parts.port}"
            index_url = urllib.parse.urlunsplit((parts.scheme, host, parts.path, parts.query, ""))
        self.index_url = index_url.rstrip("/")
        self.timeout_s = timeout_s
        self._opener = urllib.request.build_opener(_OriginRedirects(self))

    def open(self, url: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
        request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT, **(headers or {})})
        self.authorize(request)
        return self._opener.open(request, timeout=self.timeout_s)

    def authorize(self, request: urllib.request.Request) -> None:
        """Add the index's credentials when the request goes to exactly the index's origin.

        Added as an unredirected header: urllib copies ordinary headers onto a redirect, so a
        redirect is authorised again (or not) by its own origin, in `_OriginRedirects`."""
        if self._auth_header and origin(request.full_url) == self._auth_origin:
            request.add_unredirected_header("Authorization", self._auth_header)

    def find_wheel(self, project: str, version: str) -> IndexedWheel:
        """Look up the pure-Python wheel of exactly `project==version` on the index."""
        page_url = f"{self.index_url}/{normalize_project(project)}/"
        where = redact_url(page_url)
        try:
            with self.open(page_url, {"Accept": _ACCEPT}) as response:
                content_type = response.headers.get("Content-Type", "")
                final_url = response.geturl()
                body = response.read()
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                raise SourceFailure(f"the index has no project '{project}' ({where})") from exc
            raise SourceFailure(f"the index answered HTTP {exc.code} for {where}") from exc
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            raise SourceFailure(f"cannot reach the index at {where} ({_reason(exc)})") from exc

        try:
            if "json" in content_type:
                files = _files_from_json(body)
            else:
                files = _files_from_html(body.decode("utf-8", "replace"))
        except ValueError as exc:
            raise SourceFailure(f"the index page {where} is not a valid simple-API page ({exc})") from exc

        for entry in files:
            if not _is_wheel_of(entry["filename"], project, version):
                continue
            sha256 = (entry.get("hashes") or {}).get("sha256")
            if not sha256:
                raise SourceFailure(
                    f"the index gives no SHA-256 for {entry['filename']}; refusing an unchecked download"
                )
            url = urllib.parse.urljoin(final_url, entry["url"])
            url = urllib.parse.urldefrag(url)[0]
            size = entry.get("size") if isinstance(entry.get("size"), int) else None
            return IndexedWheel(entry["filename"], url, sha256.lower(), size)
        raise SourceFailure(f"the index lists no pure-Python wheel of {project}=={version} ({where})")


def download_resumable(
    client: HttpClient,
    url: str,
    part: Path,
    *,
    expected_size: int | None,
    expected_sha256: str,
    on_bytes: ProgressThrottle,
    max_attempts: int = 6,
) -> Path:
    """Download `url` into `part`, resuming what is already there with a Range request.

    Returns `part` once it is complete and matches `expected_sha256`. A part that fails the
    check is deleted (its bytes cannot be trusted for a later resume); a part cut short by the
    network is kept, so the next call resumes it.
    """
    part.parent.mkdir(parents=True, exist_ok=True)
    where = redact_url(url)
    complete = False
    failures_without_progress = 0
    last_error = "no attempt made"
    for _attempt in range(max_attempts):
        have = part.stat().st_size if part.exists() else 0
        if expected_size is not None and have > expected_size:
            part.unlink()
            have = 0
        if expected_size is not None and have == expected_size:
            complete = True
            break
        headers = {"Range": f"bytes={have}-"} if have else {}
        received = 0
        try:
            with client.open(url, headers) as response:
                received = _write_body(response, part, have, on_bytes)
            if expected_size is None or part.stat().st_size >= expected_size:
                complete = True
                break
            last_error = "the server closed the connection early"
        except _RangeRejected:
            part.unlink(missing_ok=True)
            last_error = "the server rejected the resume request"
            continue
        except urllib.error.HTTPError as exc:
            last_error = f"HTTP {exc.code}"
            if exc.code == 416 and have:
                # The part no longer fits the file on the server: start from the first byte.
                part.unlink(missing_ok=True)
                continue
            if exc.code not in (408, 429) and exc.code < 500:
                raise SourceFailure(f"download of {where} failed: HTTP {exc.code}") from exc
        except _PartialBody as exc:
            received = exc.received
            last_error = _reason(exc.__cause__ or exc)
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            last_error = _reason(exc)
        if received:
            failures_without_progress = 0
        else:
            failures_without_progress += 1
            if failures_without_progress >= 3:
                break
            # Short back-off: a flaky link gets a second chance without stalling an offline user.
            time.sleep(0.5 * failures_without_progress)
        log.info("download of %s interrupted (%s); resuming", where, last_error)

    done = part.stat().st_size if part.exists() else 0
    if not complete:
        # The part stays: the next attempt, in this run or a later one, resumes it.
        total = f"{done} of {expected_size}" if expected_size is not None else str(done)
        raise SourceFailure(f"download of {where} did not complete ({total} bytes; {last_error})")
    if expected_size is not None and done != expected_size:
        part.unlink()
        raise SourceFailure(f"{where} is larger than the index says ({done} > {expected_size} bytes)", integrity=True)
    actual = sha256_file(part)
    if actual != expected_sha256:
        part.unlink()
        raise SourceFailure(
            f"{where} has SHA-256 {actual}, expected {expected_sha256}; the file was discarded", integrity=True
        )
    on_bytes(done, done, final=True)
    return part


class _RangeRejected(Exception):
    """HTTP 416 or a Content-Range that does not start where the part file ends."""


class _PartialBody(Exception):
    """The body stopped early; `received` bytes of it were saved."""

    def __init__(self, received: int) -> None:
        super().__init__(f"{received} bytes received")
        self.received = received


def _write_body(response: http.client.HTTPResponse, part: Path, have: int, on_bytes: ByteProgress) -> int:
    status = getattr(response, "status", 200)
    if have and status == 206:
        start, total = _content_range(response.headers.get("Content-Range", ""))
        if start != have:
            raise _RangeRejected()
        mode = "ab"
    else:
        # A 200 answer to a Range request is the whole file: start over rather than append.
        have, total, mode = 0, None, "wb"
    if total is None:
        length = response.headers.get("Content-Length")
        total = have + int(length) if length and length.isdigit() else None
    received = 0
    with open(part, mode) as handle:
        try:
            while chunk := response.read(_CHUNK_BYTES):
                handle.write(chunk)
                received += len(chunk)
                on_bytes(have + received, total)
        except (OSError, http.client.HTTPException) as exc:
            raise _PartialBody(received) from exc
    return received


def _content_range(value: str) -> tuple[int | None, int | None]:
    match = re.match(r"bytes (\d+)-\d+/(\d+|\*)", value.strip())
    if not match:
        return None, None
    total = int(match.group(2)) if match.group(2).isdigit() else None
    return int(match.group(1)), total


_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of a URL, the port filled in for http and https."""
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or _DEFAULT_PORTS.get(scheme)


class _OriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects; the credentials follow only to the index's origin, never to http."""

    def __init__(self, client: HttpClient) -> None:
        self._client = client

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        newurl = urllib.parse.urljoin(req.full_url, newurl)
        if origin(req.full_url)[0] == "https" and origin(newurl)[0] != "https":
            raise SourceFailure(
                f"refused a redirect from {redact_url(req.full_url)} to {redact_url(newurl)}: it "
                "leaves https for an unencrypted connection")
        redirected = super().redirect_request(req, fp, code, msg, headers, newurl)
        if redirected is not None:
            redirected.remove_header("Authorization")
            self._client.authorize(redirected)
        return redirected


def _reason(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.URLError) and not isinstance(exc, urllib.error.HTTPError):
        return str(exc.reason)
    text = str(exc) or type(exc).__name__
    return text


def _is_wheel_of(filename: str, project: str, version: str) -> bool:
    if not filename.endswith(".whl"):
        return False
    parts = filename[: -len(".whl")].split("-")
    if len(parts) not in (5, 6):
        return False
    name, file_version = parts[0], parts[1]
    python_tag, abi_tag, platform_tag = parts[-3:]
    return (
        normalize_project(name) == normalize_project(project)
        and file_version == version
        and "py3" in python_tag.split(".")
        and abi_tag == "none"
        and platform_tag == "any"
    )


def _files_from_json(body: bytes) -> list[dict]:
    document = json.loads(body)
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, list):
        raise ValueError("no 'files' list")
    return [
        f for f in files
        if isinstance(f, dict) and isinstance(f.get("filename"), str) and isinstance(f.get("url"), str)
    ]


class _AnchorParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.files: list[dict] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href")
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag != "a" or self._href is None:
            return
        href, self._href = self._href, None
        url, fragment = urllib.parse.urldefrag(href)
        name = "".join(self._text).strip() or urllib.parse.unquote(url.rsplit("/", 1)[-1])
        hashes = {}
        if "=" in fragment:
            algorithm, value = fragment.split("=", 1)
            hashes[algorithm] = value
        self.files.append({"filename": name, "url": url, "hashes": hashes})


def _files_from_html(text: str) -> list[dict]:
    parser = _AnchorParser()
    parser.feed(text)
    return parser.files

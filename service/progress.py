"""GET /v1/jobs/{id}/events: a job's progress as server-sent events, read from the job table.

    event: state   {"id", "state", "pages_done", "pages_total", "error"}   on every change
    event: stage   {"document", "page", "stage"}                           a page stage finished
    event: page    {"document", "page", "status", "errors", "seconds", ...} a page is done
    event: end     {"id", "state", ...}                                    last; the stream ends

The first events describe the job as it is (pages already done included), so a client that
connects late, or again after a drop, misses nothing it needs."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, AsyncIterator, Callable, Awaitable

from starlette.concurrency import run_in_threadpool

from service.database import TERMINAL
from service.jobs import JobStore

POLL_S = 0.25
HEARTBEAT_S = 15.0


def sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def job_events(store: JobStore, job_id: str,
                     disconnected: Callable[[], Awaitable[bool]]) -> AsyncIterator[str]:
    last_summary: dict[str, Any] | None = None
    seen: dict[tuple[int, int], tuple[str | None, str]] = {}
    quiet_since = time.monotonic()
    while True:
        summary = await run_in_threadpool(store.summary, job_id)
        if summary is None:  # removed while watched (expired)
            yield sse("end", {"id": job_id, "state": "removed"})
            return
        marks = await run_in_threadpool(store.page_marks, job_id)
        sent = False
        for mark in marks:
            key = (mark["document"], mark["page"])
            now = (mark["stage"], mark["state"])
            if seen.get(key) == now:
                continue
            seen[key] = now
            if mark["state"] == "done":
                yield sse("page", mark)
                sent = True
            elif mark["stage"] is not None:
                yield sse("stage", {"document": mark["document"], "page": mark["page"],
                                    "stage": mark["stage"]})
                sent = True
        if summary != last_summary:
            last_summary = summary
            yield sse("state", summary)
            sent = True
        if summary["state"] in TERMINAL:
            yield sse("end", summary)
            return
        if sent:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > HEARTBEAT_S:
            yield ": still working\n\n"  # a comment keeps proxies from closing the stream
            quiet_since = time.monotonic()
        if await disconnected():
            return
        await asyncio.sleep(POLL_S)

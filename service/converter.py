"""Who reads a page for a worker: the seam between the job runner and the engine.

A worker claims a page, asks its PageConverter for the page's outcome, and stores it; what
happens in between is the converter's business. LocalPageConverter is the engine's own host of
this process (engine.api.LocalConverter: one Engine, models loaded once, at warm-up), with the
models it verified added to its warm-up report. The cluster worker (service/cluster_worker.py)
reads pages on Ray through the same protocol's error codec instead."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from engine.api import ConvertOptions, LocalConverter, PageOutcome, parse_layout

StageCallback = Callable[[str], None]


@dataclass(frozen=True)
class WarmUp:
    device: dict[str, Any]
    """The device decision and its reason, in the words of `paperlens-cli device status`."""
    models: list[dict[str, Any]]
    seconds: float


class PageConverter(Protocol):
    def warm_up(self) -> WarmUp:
        """Load what reading needs and read one small page, so the first request is not the
        slow one."""

    def read_page(self, source: Path, number: int, options: ConvertOptions, stem: str,
                  on_stage: StageCallback, cancel: threading.Event) -> PageOutcome:
        """Page `number` of `source` through every page stage. Raises Cancelled when `cancel`
        is set (checked before every stage), and the engine's typed errors that stop a
        document."""


class LocalPageConverter(LocalConverter):
    """One Engine in this process; the last opened document stays open for its next page."""

    def __init__(self, settings, engine: Any = None) -> None:
        """`engine`: what reads the pages (engine.api.Engine(settings) when not given)."""
        if engine is None:
            from engine.api import Engine  # the models' modules: only where pages are read

            engine = Engine(settings)
        super().__init__(engine)
        self.settings = settings

    def warm_up(self) -> WarmUp:  # type: ignore[override]
        layout = str(self.settings.model.layout)
        warm = super().warm_up(parse_layout(layout))
        return WarmUp(warm.device, model_report(self.engine.models.store, layout), warm.seconds)


DEFAULT_ROLES = ("det", "cls", "rec", "orientation", "table", "formula")


def model_report(store, layout_setting: str) -> list[dict[str, Any]]:
    """The default models and the configured layout model: on disk, and matching their
    pinned hashes (in a process that loaded them: hashed in full before the load)."""
    ids = [store.default_for_role(role).id for role in DEFAULT_ROLES
           if any(spec.role == role for spec in store.specs.values())]
    layout = parse_layout(layout_setting)
    if layout:
        ids.append(layout)
    report = []
    for model_id in ids:
        status = store.status(model_id)
        report.append({"id": model_id, "role": status.role, "installed": status.installed,
                       "verified": status.verified})
    return report

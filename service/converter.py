"""Who reads a page for a worker: the seam between the job runner and the engine.

A worker claims a page, asks its host of the engine (an engine.api.Converter) for the page's
outcome, and stores it; what happens in between is the host's business. `open_converter` is
the one place the service chooses its host: LocalPageConverter, the engine's own host of this
process (engine.api.LocalConverter: one Engine, models loaded once, at warm-up) with the
models it verified added to its warm-up report, or with `--ray` engine.api.ClusterConverter,
the page workers of a Ray cluster, which the cluster worker (service/cluster_worker.py) keeps
busy a page each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from engine.api import Converter, LocalConverter, parse_layout

if TYPE_CHECKING:
    from engine.api import ClusterConverter


@dataclass(frozen=True)
class WarmUp:
    device: dict[str, Any]
    """The device decision and its reason, in the words of `paperlens-cli device status`."""
    models: list[dict[str, Any]]
    seconds: float


@overload
def open_converter(settings, ray_address: None = None,
                   cluster_workers: None = None) -> LocalPageConverter: ...


@overload
def open_converter(settings, ray_address: str,
                   cluster_workers: int | None = None) -> ClusterConverter: ...


def open_converter(settings, ray_address: str | None = None,
                   cluster_workers: int | None = None) -> Converter:
    """The host that reads the service's pages: the engine in this process, or with
    `ray_address` its page workers on that Ray cluster (one per CPU there, or
    `cluster_workers`), models loaded once each. Raises ClusterUnavailable when the cluster
    cannot be used."""
    if ray_address is None:
        return LocalPageConverter(settings)
    from engine.api import ClusterConverter  # the cluster's modules: only with --ray

    return ClusterConverter(ray_address, settings, workers=cluster_workers)


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

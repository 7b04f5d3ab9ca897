"""Plain event dataclasses the engine delivers through the `on_event` callback."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Union, TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from engine.types import Line, PageResult, Region


@dataclass(frozen=True)
class DocumentStarted:
    path: str
    page_count: int
    """Pages that will be processed (after the page range is applied)."""


@dataclass(frozen=True)
class PageDone:
    path: str
    page_number: int
    """1-based page number in the source document."""
    index: int
    """0-based position among the pages being processed."""
    total: int
    result: "PageResult"
    timings_s: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class PageProgress:
    """A page stage finished: what is known of the page so far, for a live view of it.

    Sent after every stage of a page that did not fail, before the page's PageDone."""

    path: str
    page_number: int
    """1-based page number in the source document."""
    index: int
    """0-based position among the pages being processed."""
    total: int
    stage: str
    """The stage that just finished (a name in recipe.PAGE_STAGES)."""
    image: "np.ndarray | None"
    """The page's RGB pixels, as the boxes of `lines` and `regions` refer to them (after any
    turn); None before `render`. The same array while unchanged; receivers must not modify it."""
    rotation: int = 0
    lines: tuple["Line", ...] = ()
    regions: tuple["Region", ...] | None = None
    """Layout regions once `layout` ran; None before (or when layout is off)."""


@dataclass(frozen=True)
class Warning:
    path: str
    message: str
    page_number: int | None = None


@dataclass(frozen=True)
class ModelDownloadProgress:
    model_id: str
    bytes_done: int
    bytes_total: int | None
    source: str = ""


@dataclass(frozen=True)
class DeviceDecided:
    device: str
    backend: str
    reason: str


Event = Union[DocumentStarted, PageProgress, PageDone, Warning, ModelDownloadProgress,
              DeviceDecided]
EventCallback = Callable[[Event], None]


def ignore_event(_event: Event) -> None:
    """Default callback: drop events."""

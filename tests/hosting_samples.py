"""An engine that fails on purpose, for sending every typed error through each host of the
engine (tests/engine/test_hosting.py, tests/cluster/test_cluster_hosting.py).

It stands where engine.api.Engine stands in a host, made the way the host makes its engine
(`make_engine(settings, threads=...)`), and raises the error named by the file it is given:
`WrongPassword.png` raises WrongPassword. A host in another process (the desktop app's child,
a Ray worker) imports this module by name, so it lives at tests/ level and imports only the
engine."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from engine.device.status import DeviceStatus
from engine.hosting import Converter, HostError, cancel_check, error_types
from engine.types import DocumentResult

WARM_UP_STEM = "warm-up"
"""The sample page hosting.warm_up reads: converted without an error."""


def error_kinds() -> list[str]:
    """Every typed error a host carries back, by class name."""
    return sorted(error_types())


def make_error(kind: str) -> Exception:
    """One error of class `kind`, with what that class carries; `KeyError` stands for a bug."""
    if kind == "KeyError":
        return KeyError("x")
    made = error_types()[kind]
    if kind == "DocumentFailed":
        return made("Every page of failed.pdf failed; nothing was written.",
                    DocumentResult(path="failed.pdf", kind="pdf", page_count=0, pages=(),
                                   markdown=""))
    if kind == "OnnxRuntimeInstallConflict":
        return made(("onnxruntime", "onnxruntime-gpu"))
    if kind == "HostError":
        return HostError("KeyError: 'x'", "KeyError")
    if kind == "Cancelled":
        return made()
    return made(f"{kind} met while reading the document.")


def protocol_gaps(host: type) -> list[str]:
    """What `host` lacks of engine.hosting.Converter: a call it does not offer, or one whose
    parameters are not the protocol's (by name, in order). Empty for a whole Converter."""
    calls = [name for name, value in vars(Converter).items()
             if not name.startswith("_") and inspect.isfunction(value)]
    gaps = []
    for name in calls:
        offered = getattr(host, name, None)
        if not callable(offered):
            gaps.append(f"no {name}")
            continue
        wanted = list(inspect.signature(getattr(Converter, name)).parameters)
        given = list(inspect.signature(offered).parameters)
        if given != wanted:
            gaps.append(f"{name}{tuple(given)} is not {name}{tuple(wanted)}")
    return gaps


def same_error(got: BaseException, sent: BaseException) -> bool:
    """The same type, sentence, and what the type carries."""
    return (type(got) is type(sent) and str(got) == str(sent)
            and getattr(got, "kind", None) == getattr(sent, "kind", None)
            and getattr(got, "result", None) == getattr(sent, "result", None)
            and getattr(got, "distributions", None) == getattr(sent, "distributions", None))


class Models:
    """Loads nothing: a warm-up asks for each role."""

    def __getattr__(self, role: str) -> Any:
        return lambda *_args, **_kwargs: None


class FailingEngine:
    def __init__(self, settings: Any = None, threads: int | None = None) -> None:
        self.models = Models()

    def device_status(self) -> DeviceStatus:
        return DeviceStatus(configured="cpu", configured_origin="default", effective="cpu",
                            backend="cpu", decided_by="explicit")

    def convert(self, path: Any, options: Any = None, on_event: Any = None,
                cancel: Any = None) -> None:
        if Path(path).stem != WARM_UP_STEM:
            raise make_error(Path(path).stem)

    def read_pages(self, document: Any, numbers: list[int], options: Any, stem: str,
                   on_stage: Any = None, cancel: Any = None) -> Any:
        raise make_error(Path(document.path).stem)


class WaitingEngine(FailingEngine):
    """Reads a page's first stage, then waits for the page's cancel (at most a minute)."""

    def read_pages(self, document: Any, numbers: list[int], options: Any, stem: str,
                   on_stage: Any = None, cancel: Any = None) -> Any:
        on_stage(0, numbers[0], "render", None)
        cancel.wait(60)
        cancel_check(cancel)()
        raise HostError("the page was not cancelled", "NotCancelled")

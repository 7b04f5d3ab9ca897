"""A finished page kept between restarts: its PageResult as exact JSON, its crops as PNG files.

The document's JSON export rounds boxes and scores; a checkpoint must not, since furniture and
the Markdown are made from these values once every page is read, and the output of a resumed
job has to be the bytes a single run writes. Python's JSON writes floats exactly (repr), ints
stay ints, and the result's own type hints say how to build it back."""

from __future__ import annotations

import dataclasses
import json
import os
import types
import typing
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np

from engine.api import PageError, PageOutcome, PageResult, Status, TextSource


class CheckpointError(Exception):
    """A stored page cannot be read back (written by another version, or damaged)."""


def encode_result(result: PageResult) -> str:
    return json.dumps(_plain(result), ensure_ascii=False, separators=(",", ":"))


def decode_result(text: str) -> PageResult:
    try:
        return _build(PageResult, json.loads(text))
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"a stored page cannot be read back ({exc})") from None


def failed_result(page_number: int, stage: str, kind: str, message: str) -> PageResult:
    """A page no stage could finish (its worker process died on it): failed, with the reason."""
    return PageResult(page_number=page_number, width=0, height=0, dpi=0.0,
                      text_source=TextSource.OCR, text_source_reason="failed",
                      status=Status.FAILED, errors=(PageError(stage, kind, message),))


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    raise TypeError(f"{type(value).__name__} cannot be kept in a checkpoint")


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _build(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        real = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(real) != 1:
            raise TypeError(f"no rule to read back {hint}")
        return _build(real[0], value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        names = {f.name for f in dataclasses.fields(hint)}
        if set(value) != names:
            raise KeyError(f"{hint.__name__} fields differ: {sorted(set(value) ^ names)}")
        hints = _hints(hint)
        return hint(**{name: _build(hints[name], value[name]) for name in names})
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], v) for v in value)
        return tuple(_build(arg, v) for arg, v in zip(args, value, strict=True))
    if origin is dict:
        return dict(value)
    return value  # str, int, float, bool as JSON gave them (an int stays an int)


def save_crops(folder: Path, crops: tuple[tuple[str, np.ndarray], ...]) -> tuple[list[str], int]:
    """Each crop as a PNG under `folder` (written whole, then renamed, then synced); returns the
    relative paths and the bytes written."""
    names, written = [], 0
    for relative, image in crops:
        target = _inside(folder, relative)
        ok, data = cv2.imencode(".png", image[:, :, ::-1] if image.ndim == 3 else image)
        if not ok:
            raise CheckpointError(f"the crop {relative} cannot be encoded")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        with open(partial, "wb") as fh:
            fh.write(data.tobytes())
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(partial, target)
        names.append(relative)
        written += len(data)
    return names, written


def load_crops(folder: Path, names: list[str]) -> tuple[tuple[str, np.ndarray], ...]:
    """The crops as the page had them (RGB, or grey): PNG keeps every pixel."""
    crops = []
    for relative in names:
        data = np.fromfile(str(_inside(folder, relative)), dtype=np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if data.size else None
        if image is None:
            raise CheckpointError(f"the stored crop {relative} is missing or damaged")
        crops.append((relative, np.ascontiguousarray(image[:, :, ::-1]) if image.ndim == 3
                      else image))
    return tuple(crops)


def stored_outcomes(rows: list[tuple[str, str]], folder: Path) -> Iterator[PageOutcome]:
    """(result JSON, crop names JSON) per page, in page order -> outcomes, one page's crops in
    memory at a time."""
    for result_text, crops_text in rows:
        yield PageOutcome(decode_result(result_text), load_crops(folder, json.loads(crops_text)))


def _inside(folder: Path, relative: str) -> Path:
    target = (folder / relative).resolve()
    if not target.is_relative_to(folder.resolve()):
        raise CheckpointError(f"the crop path {relative!r} leaves its folder")
    return target

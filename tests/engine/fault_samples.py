"""Builders of hostile inputs for the fault-injection tests, generated at test time (images
whose later pages are huge, decompression bombs), and what running the CLI on them needs."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zipfile
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def _bilevel_strip(width: int, height: int) -> bytes:
    """`height` rows of `width` white 1-bit pixels (0 = white below), deflated."""
    row = bytes((width + 7) // 8)
    compressor = zlib.compressobj(1)
    parts = []
    done = 0
    while done < height:
        count = min(1000, height - done)
        parts.append(compressor.compress(row * count))
        done += count
    parts.append(compressor.flush())
    return b"".join(parts)


def multipage_tiff(sizes: list[tuple[int, int]]) -> bytes:
    """A little-endian TIFF with one deflated 1-bit page per (width, height).

    A 30000 x 30000 page takes ~0.5 MB here and 2.7 GB once decoded to RGB."""
    out = bytearray(b"II*\x00\x00\x00\x00\x00")
    link = 4  # where the offset of the next page's directory goes
    for width, height in sizes:
        strip = _bilevel_strip(width, height)
        strip_at = len(out)
        out += strip
        if len(out) % 2:
            out += b"\x00"
        entries = [(256, 4, width), (257, 4, height), (258, 3, 1), (259, 3, 8),
                   (262, 3, 0), (273, 4, strip_at), (277, 3, 1), (278, 4, height),
                   (279, 4, len(strip))]
        ifd_at = len(out)
        struct.pack_into("<I", out, link, ifd_at)
        out += struct.pack("<H", len(entries))
        for tag, kind, value in entries:
            packed = (struct.pack("<H", value) + b"\x00\x00" if kind == 3
                      else struct.pack("<I", value))
            out += struct.pack("<HHI", tag, kind, 1) + packed
        link = len(out)
        out += b"\x00\x00\x00\x00"
    return bytes(out)


def jpeg_with_late_frame_header(width: int, height: int, metadata_bytes: int) -> bytes:
    """A JPEG whose frame header says width x height and comes after `metadata_bytes` of
    APP segments (as large EXIF, ICC or XMP blocks put it)."""
    ok, data = cv2.imencode(".jpg", np.full((16, 16, 3), 255, np.uint8))
    assert ok
    raw = bytearray(data.tobytes())
    sof = next(i for i in range(2, len(raw) - 1)
               if raw[i] == 0xFF and raw[i + 1] in (0xC0, 0xC1, 0xC2))
    struct.pack_into(">HH", raw, sof + 5, height, width)
    segments = bytearray()
    while len(segments) < metadata_bytes:
        payload = b"\x00" * min(60000, metadata_bytes - len(segments))
        segments += b"\xff\xe2" + struct.pack(">H", len(payload) + 2) + payload
    return bytes(raw[:2] + segments + raw[2:])


def zip_with_bomb(path: Path, members: dict[str, bytes], bomb_name: str, bomb_bytes: int) -> Path:
    """A ZIP with `members` and one member of `bomb_bytes` zeros, which deflates to ~1/1000."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, data in members.items():
            archive.writestr(name, data, compress_type=zipfile.ZIP_STORED
                             if name == "mimetype" else zipfile.ZIP_DEFLATED)
        with archive.open(bomb_name, "w", force_zip64=True) as fh:
            chunk = bytes(1 << 20)
            for _ in range(bomb_bytes >> 20):
                fh.write(chunk)
    return path


def staging_folders(folder: Path) -> list[str]:
    """Names of the staging folders anywhere under `folder`."""
    return sorted(p.name for p in folder.rglob("*") if ".paperlens-" in p.name)


def cli_environ(tmp_path: Path) -> dict[str, str]:
    keep = ("PATH", "HOME", "USERPROFILE", "XDG_CACHE_HOME", "XDG_DATA_HOME", "PAPERLENS_MODEL_DIR")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    env["PAPERLENS_CONFIG"] = str(tmp_path / "settings.json")
    env["PYTHONPATH"] = str(REPO_ROOT)
    return env


def require_models(settings, *ids: str) -> None:
    from engine.models.store import ModelStore

    store = ModelStore(Path(settings.model.base_dir), settings.model.index_url)
    missing = [i for i in ids if not store.status(i).installed]
    if missing:
        pytest.skip(f"models not in {settings.model.base_dir}: {', '.join(missing)}")


def namespace_prefix() -> list[str]:
    """A private mount namespace to mount a tmpfs in, or a skip."""
    for prefix in (["unshare", "-Urm"], ["unshare", "-m"]):
        if shutil.which(prefix[0]) is None:
            break
        if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
            return prefix
    pytest.skip("no private mount namespace here (unshare is missing or not permitted)")

"""The portable .tar.gz of the frozen folder, byte-for-byte repeatable for one SOURCE_DATE_EPOCH."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def normalise(folder: Path, epoch: int) -> None:
    """0755 for folders and executables, 0644 for the rest, every time `epoch`: neither the build's
    umask nor its clock shows in the archives."""
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            executable = path.is_dir() or path.stat().st_mode & 0o111
            path.chmod(0o755 if executable else 0o644)
        os.utime(path, (epoch, epoch), follow_symlinks=False)


def reproducible_tar(parent: Path, name: str, out: Path, epoch: int) -> None:
    """`parent/name` as a gzipped tar: sorted, root-owned, every time `epoch`, no gzip stamp."""
    tar = ["tar", "--sort=name", "--format=gnu", "--owner=0", "--group=0", "--numeric-owner",
           f"--mtime=@{epoch}", "-C", str(parent), "-cf", "-", name]
    partial = out.with_name(f".{out.name}.partial")  # renamed into place only when complete
    with partial.open("wb") as sink:
        packer = subprocess.Popen(tar, stdout=subprocess.PIPE)
        subprocess.run(["gzip", "-9", "-n"], stdin=packer.stdout, stdout=sink, check=True)
        packer.stdout.close()  # type: ignore[union-attr]
        if packer.wait() != 0:
            raise subprocess.CalledProcessError(packer.returncode, tar)
    os.replace(partial, out)


def tarball_path(dist: Path, version: str) -> Path:
    return dist / f"paperlens-{version}-linux-x86_64.tar.gz"


def build_tarball(frozen: Path, dist: Path, version: str, epoch: int) -> Path:
    """dist/paperlens-VERSION-linux-x86_64.tar.gz, unpacking to one folder of the same name."""
    out = tarball_path(dist, version)
    name = out.name.removesuffix(".tar.gz")
    normalise(frozen, epoch)
    staging = frozen.parent / name  # the archive's top folder carries the version
    frozen.rename(staging)
    try:
        reproducible_tar(staging.parent, name, out, epoch)
    finally:
        staging.rename(frozen)
    print(f"wrote {out}")
    return out

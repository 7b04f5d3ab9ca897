"""The .deb: the frozen folder in /opt/paperlens, both commands on PATH, menu entry, icon, MIME types."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from portable_archive import normalise

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# The libraries Qt needs to open a window, the list `make run` installs (standard library only).
from gui.platform_libraries import packages  # noqa: E402

PACKAGE = "paperlens"
PREFIX = Path("opt") / PACKAGE
COMMANDS = ("paperlens", "paperlens-cli")
ICON = Path("_internal") / "resources" / "icons" / "paperlens.svg"


def deb_path(dist: Path, version: str) -> Path:
    return dist / f"{PACKAGE}_{version}_amd64.deb"


def elf_files(folder: Path) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def shlibs_depends(root: Path, staging: Path) -> str:
    """`Depends:` from dpkg-shlibdeps over every ELF file of the package.

    It names every Debian library that any file links to, those PyInstaller also copied from
    the build host included (the copies in the folder are the ones that load): a superset that
    any desktop already has, never a missing one."""
    binaries = elf_files(root / PREFIX)
    private = sorted({str(p.parent) for p in binaries})
    (staging / "debian" / "control").write_text(
        f"Source: {PACKAGE}\n\nPackage: {PACKAGE}\nArchitecture: amd64\n", encoding="utf-8")
    result = subprocess.run(["dpkg-shlibdeps", "-O", "--ignore-missing-info",
                             *[f"-l{d}" for d in private], *[f"-e{b}" for b in binaries]],
                            cwd=staging, capture_output=True, text=True)
    # Bundled libraries belong to no package; that warning is expected once per library.
    noise = ("no dependency information found", "could avoid a useless dependency",
             "similar warnings have been skipped", "it's probably a plugin")
    problems = [line for line in result.stderr.splitlines() if not any(n in line for n in noise)]
    if result.returncode != 0:
        raise SystemExit("dpkg-shlibdeps failed:\n" + "\n".join(problems[-20:]))
    for line in problems:
        print(line)
    match = re.search(r"^shlibs:Depends=(.*)$", result.stdout, re.MULTILINE)
    return match.group(1).strip() if match else "libc6"


def with_packages(field: str, extra: list[str]) -> str:
    """A Depends/Recommends value with the packages of `extra` it does not name yet added."""
    items = [item.strip() for item in field.split(",") if item.strip()]
    named = {alternative.split("(")[0].strip() for item in items for alternative in item.split("|")}
    return ", ".join(items + [package for package in extra if package not in named])


def with_field_packages(control: str, name: str, extra: list[str]) -> str:
    """The control text with `extra` added to its `name:` field."""
    lines = control.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if line.startswith(f"{name}:"):
            lines[index] = f"{name}: {with_packages(line[len(name) + 1:], extra)}\n"
    return "".join(lines)


def installed_size_kib(root: Path) -> int:
    """What dpkg-gencontrol counts: each file rounded up to a KiB, each folder and link one KiB."""
    total = 0
    for path in root.rglob("*"):
        if path.relative_to(root).parts[0] == "DEBIAN":
            continue
        if path.is_file() and not path.is_symlink():
            total += (path.stat().st_size + 1023) // 1024
        else:
            total += 1
    return total


def write_md5sums(root: Path) -> None:
    lines = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if relative.parts[0] == "DEBIAN" or path.is_symlink() or not path.is_file():
            continue
        lines.append(f"{hashlib.md5(path.read_bytes()).hexdigest()}  {relative.as_posix()}\n")
    (root / "DEBIAN" / "md5sums").write_text("".join(lines), encoding="utf-8")


def stage(frozen: Path, root: Path, templates: Path) -> None:
    shutil.copytree(frozen, root / PREFIX, symlinks=True)
    bin_dir = root / "usr" / "bin"
    bin_dir.mkdir(parents=True)
    for command in COMMANDS:
        # Absolute, as Debian policy asks for links between top-level folders; the frozen
        # executable finds _internal through /proc/self/exe, so running the link works.
        (bin_dir / command).symlink_to(Path("/") / PREFIX / command)
    share = root / "usr" / "share"
    (share / "applications").mkdir(parents=True)
    shutil.copyfile(templates / "paperlens.desktop", share / "applications" / "paperlens.desktop")
    icons = share / "icons" / "hicolor" / "scalable" / "apps"
    icons.mkdir(parents=True)
    shutil.copyfile(frozen / ICON, icons / "paperlens.svg")
    doc = share / "doc" / PACKAGE
    doc.mkdir(parents=True)
    shutil.copyfile(templates / "copyright", doc / "copyright")
    (root / "DEBIAN").mkdir()


def build_deb(frozen: Path, dist: Path, staging: Path, templates: Path, version: str, epoch: int) -> Path:
    """dist/paperlens_VERSION_amd64.deb, built by dpkg-deb from a staged tree.

    No maintainer scripts: desktop-file-utils, shared-mime-info and the icon cache update
    themselves through dpkg triggers on the folders the files land in."""
    shutil.rmtree(staging, ignore_errors=True)
    root = staging / "debian" / PACKAGE  # where dpkg-shlibdeps expects a package's files
    stage(frozen, root, templates)
    # The frozen Qt opens its window through the system's X11 libraries, and through Wayland's
    # when they are there; dpkg-shlibdeps misses those its bundled copies stand in for.
    depends = with_packages(shlibs_depends(root, staging), packages("gui", "xcb"))
    control = (templates / "control.in").read_text(encoding="utf-8").format(
        version=version, depends=depends, installed_size=installed_size_kib(root))
    control = with_field_packages(control, "Recommends", packages("wayland"))
    (root / "DEBIAN" / "control").write_text(control, encoding="utf-8")
    write_md5sums(root)
    normalise(root, epoch)
    out = deb_path(dist, version)
    partial = staging / out.name  # dist/ never holds a half-written package
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(epoch))  # and the ar and tar headers' times
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", str(root), str(partial)], env=env,
                   check=True)
    os.replace(partial, out)
    print(f"Depends: {depends}")
    return out

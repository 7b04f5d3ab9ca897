"""Installing the peers on demand: their own virtual environment, and Tesseract from apt.

The Python peers (the `bench` extra of pyproject.toml) never go into the app's .venv:
pymupdf4llm pins PyMuPDF to one exact version and refuses to import with any other, and its
pymupdf-layout requires the plain onnxruntime wheel, a second ONNX Runtime beside
onnxruntime-directml on Windows. Their environment is rebuilt when the extra changes.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

BENCH_EXTRA = "bench"
TESSERACT_PACKAGES = ("tesseract-ocr", "tesseract-ocr-eng", "tesseract-ocr-chi-sim")
STAMP_NAME = "paperlens-peers-requirements.txt"
INSTALL_TIMEOUT_S = 900

Log = Callable[[str], None]


class InstallError(RuntimeError):
    """A peer could not be installed; the message says what to run by hand."""


def bench_requirements(pyproject: Path) -> list[str]:
    """The requirement strings of the `bench` optional-dependency group."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    extras = data.get("project", {}).get("optional-dependencies", {})
    if BENCH_EXTRA not in extras:
        raise InstallError(f"{pyproject} has no [project.optional-dependencies] {BENCH_EXTRA}")
    return [str(requirement) for requirement in extras[BENCH_EXTRA]]


def venv_python(folder: Path) -> Path:
    if sys.platform == "win32":
        return folder / "Scripts" / "python.exe"
    return folder / "bin" / "python"


def _run(argv: Sequence[str], what: str, env: dict[str, str] | None = None) -> None:
    try:
        finished = subprocess.run(list(argv), capture_output=True, text=True, env=env,
                                  timeout=INSTALL_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise InstallError(f"{what} failed: {error}; run by hand: {shlex.join(argv)}") from error
    if finished.returncode != 0:
        tail = " | ".join((finished.stderr or finished.stdout).strip().splitlines()[-3:])
        raise InstallError(f"{what} failed ({tail}); run by hand: {shlex.join(argv)}")


def ensure_peers_venv(folder: Path, requirements: Sequence[str], log: Log) -> Path:
    """The peers' Python, creating or rebuilding their environment when `requirements` differ
    from what it was built with. The venv's base interpreter is this process's."""
    python = venv_python(folder)
    wanted = "\n".join(requirements) + "\n"
    stamp = folder / STAMP_NAME
    if python.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return python
    log(f"installing the peers into {folder}: {' '.join(requirements)}")
    _run([sys.executable, "-m", "venv", "--clear", str(folder)], "creating the peers' venv")
    _run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
          *requirements], "installing the peers")
    stamp.write_text(wanted, encoding="utf-8")
    return python


def dpkg_installed(package: str) -> bool:
    try:
        finished = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                                  capture_output=True, text=True, check=False)
    except OSError:
        return False
    return finished.stdout.strip() == "install ok installed"


def apt_command(packages: Sequence[str]) -> str:
    return f"sudo apt-get update && sudo apt-get install -y {' '.join(packages)}"


def ensure_tesseract(log: Log, allow_install: bool, is_root: bool,
                     installed: Callable[[str], bool] = dpkg_installed) -> str | None:
    """None when Tesseract and its languages are ready; otherwise why the peer is skipped.

    Installs the missing Debian packages when allowed and root; otherwise the reason carries
    the exact apt command.
    """
    if shutil.which("dpkg-query") is None and installed is dpkg_installed:
        return "not a Debian-based system: install Tesseract with English and Simplified " \
               "Chinese by hand"
    missing = [package for package in TESSERACT_PACKAGES if not installed(package)]
    if not missing:
        return None
    if not (allow_install and is_root):
        return f"Tesseract is not installed; install it with: {apt_command(missing)}"
    log(f"installing {' '.join(missing)} with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        _run(["apt-get", "update", "-qq"], "apt-get update", env)
        _run(["apt-get", "install", "-y", "-qq", *missing], "apt-get install", env)
    except InstallError as error:
        return str(error)
    return None

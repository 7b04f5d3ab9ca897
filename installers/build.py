"""Builds the Linux installers into dist/: the frozen folder with its models, a .deb and a .tar.gz."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from deb_package import build_deb, deb_path
from portable_archive import build_tarball, tarball_path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from engine.models.sources import sha256_file  # noqa: E402  (standard library only)

INSTALLERS = ROOT / "installers"
CONSTRAINTS = INSTALLERS / "constraints.txt"
SPEC = INSTALLERS / "linux" / "paperlens.spec"
VENV = ROOT / "build" / "installers-venv"
WORK = ROOT / "build" / "installers"
DIST = ROOT / "dist"
# What the wheel is built from: a fresh copy, so nothing stale from an earlier build gets in.
# The packages come from pyproject.toml (`source_parts`), so a new front end is never left out.
SOURCE_FILES = ("pyproject.toml", "README.md")
# In the venv but never in the frozen folder: the installer and Paperlens itself (built from here).
NOT_PINNED = {"pip", "paperlens"}
FROZEN_NAME = "paperlens"
# Debian packages of the build host. PyInstaller copies the system libraries that Qt's xcb and
# Wayland platform plugins link to from the host into the folder (so the .tar.gz runs on a bare
# desktop); a library missing here would leave a plugin that cannot load. binutils: PyInstaller
# reads ELF headers; dpkg-dev: dpkg-shlibdeps computes the .deb's Depends.
HOST_PACKAGES = (
    "binutils", "dpkg-dev", "libegl1", "libgl1", "libfontconfig1", "libglib2.0-0", "libdbus-1-3",
    "libxkbcommon0", "libxkbcommon-x11-0", "libx11-xcb1", "libxcb-cursor0", "libxcb-icccm4",
    "libxcb-image0", "libxcb-keysyms1", "libxcb-randr0", "libxcb-render-util0", "libxcb-shape0",
    "libxcb-xkb1", "libwayland-client0", "libwayland-cursor0", "libwayland-egl1",
)
# Qt's GTK 3 platform theme would pull the host's GTK stack (pango, cairo, atk...) into the
# folder, where it clashes with the user's own GLib; without it Qt uses its own style and the
# XDG desktop portal for file dialogs.
LEFT_OUT_QT_PLUGINS = ("platformthemes/libqgtk3.so",)
BUNDLED_MODELS = "models"  # engine.models.store.BUNDLED_MODELS_DIR, beside the executables


@dataclass(frozen=True)
class Build:
    """The facts every step shares."""

    version: str
    epoch: int  # SOURCE_DATE_EPOCH: every timestamp in the archives
    python: str  # the interpreter the venv is made from

    @property
    def env(self) -> dict[str, str]:
        # A fixed hash seed and timestamp make PyInstaller's output repeatable.
        return dict(os.environ, SOURCE_DATE_EPOCH=str(self.epoch), PYTHONHASHSEED="0")


def host_packages() -> None:
    """Install the missing HOST_PACKAGES as root; otherwise stop with the command to run."""
    missing = []
    for package in HOST_PACKAGES:
        status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
        if status.stdout.strip() != "install ok installed":
            missing.append(package)
    if not missing:
        return
    command = ["apt-get", "install", "-y", "--no-install-recommends", *missing]
    if os.geteuid() != 0:
        sys.exit("missing build packages; run: sudo " + " ".join(command))
    step("build-host packages")
    run(["apt-get", "update", "-qq"])
    run(command, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    print("+", " ".join(str(c) for c in command), flush=True)
    return subprocess.run([str(c) for c in command], check=True, **kwargs)


def step(title: str) -> None:
    print(f"\n== {title}", flush=True)


def source_date_epoch() -> int:
    """SOURCE_DATE_EPOCH when set, else the last commit's time (the archives then match the tree)."""
    if os.environ.get("SOURCE_DATE_EPOCH", "").strip():
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%ct"], check=True,
                             capture_output=True, text=True).stdout.strip()
        return int(out)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 0


def pinned(constraints: Path) -> dict[str, str]:
    """{normalised name: version} of the `name==version` lines."""
    pins = {}
    for line in constraints.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[normalised_name(name)] = version.strip()
    return pins


def normalised_name(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(".", "-")


# ----------------------------------------------------------------------------- venv


def prepare_venv(build: Build) -> Path:
    """The build venv, made anew whenever the constraints change; Paperlens reinstalled each time."""
    python = VENV / "bin" / "python"
    stamp = VENV / ".constraints.sha256"
    wanted = sha256_file(CONSTRAINTS)
    if not python.exists() or not stamp.exists() or stamp.read_text().strip() != wanted:
        step(f"build venv {VENV} from {CONSTRAINTS.name}")
        shutil.rmtree(VENV, ignore_errors=True)
        run([build.python, "-m", "venv", VENV])
        run([python, "-m", "pip", "install", "--quiet", "-c", CONSTRAINTS, "setuptools", "wheel"])
        requirements = [line.split("#")[0].strip() for line in CONSTRAINTS.read_text().splitlines()]
        run([python, "-m", "pip", "install", "--quiet", "-c", CONSTRAINTS, *filter(None, requirements)])
        stamp.write_text(wanted + "\n")
    step("Paperlens into the build venv")
    source = WORK / "source"
    shutil.rmtree(source, ignore_errors=True)
    for part in source_parts():
        origin = ROOT / part
        if origin.is_dir():
            shutil.copytree(origin, source / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, source / part)
    run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--force-reinstall",
         source], cwd=WORK)
    check_pins(python)
    site = Path(run([python, "-c", "import PySide6, os; print(os.path.dirname(PySide6.__file__))"],
                    capture_output=True, text=True).stdout.strip())
    for plugin in LEFT_OUT_QT_PLUGINS:
        (site / "Qt" / "plugins" / plugin).unlink(missing_ok=True)
    return python


def check_pins(python: Path) -> None:
    """Stop when the venv holds a distribution, or a version, that the constraints do not pin."""
    frozen = run([python, "-m", "pip", "list", "--format=json"], capture_output=True, text=True).stdout
    pins = pinned(CONSTRAINTS)
    wrong = []
    for dist in json.loads(frozen):
        name = normalised_name(dist["name"])
        if name not in NOT_PINNED and pins.get(name) != dist["version"]:
            wrong.append(f"{dist['name']}=={dist['version']} (pinned: {pins.get(name, 'nothing')})")
    if wrong:
        sys.exit("the build venv does not match installers/constraints.txt: " + "; ".join(wrong))


# ----------------------------------------------------------------------------- models


def fetch_models(python: Path) -> Path:
    """The default models, fetched and verified by the model store into the build's own cache."""
    step("default models (fetched and verified through the model store)")
    cache = WORK / "model-cache"
    with tempfile.TemporaryDirectory(prefix="paperlens-build-") as scratch:
        env = dict(os.environ, PAPERLENS_MODEL_DIR=str(cache),
                   PAPERLENS_CONFIG=str(Path(scratch) / "settings.json"))
        run([python, "-m", "engine.cli.main", "models", "fetch"], env=env, cwd=scratch)
        run([python, "-m", "engine.cli.main", "models", "verify"], env=env, cwd=scratch)
    return cache


def default_model_files(python: Path) -> list[str]:
    """The default models' files to bundle; shipped ones (resources/formula) come as package data."""
    code = ("import json; from engine.models.store import ModelStore; "
            "print(json.dumps([s.file for s in ModelStore('.').specs.values() "
            "if s.default and s.file and not s.shipped]))")
    out = run([python, "-c", code], capture_output=True, text=True, cwd=WORK).stdout
    return json.loads(out)


def add_models(frozen: Path, cache: Path, files: list[str]) -> None:
    target = frozen / BUNDLED_MODELS
    target.mkdir()
    for name in files:
        shutil.copyfile(cache / name, target / name)
        (target / name).chmod(0o644)


def isolated_env(home: Path) -> dict[str, str]:
    """An environment without the user's settings or model cache: only the bundle can serve."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLENS_", "XDG_"))}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), XDG_CONFIG_HOME=str(home / "config"),
               XDG_DATA_HOME=str(home / "data"), QT_QPA_PLATFORM="offscreen")
    return env


def self_check(frozen: Path, files: list[str]) -> None:
    """The frozen CLI, away from any user cache, finds every bundled model and verifies its hash,
    and every model shipped as package data (resources/formula) too; the frozen app shows its
    window and typesets a formula as its Rendered tab does."""
    step("frozen self-check")
    with tempfile.TemporaryDirectory(prefix="paperlens-check-") as home:
        env = isolated_env(Path(home))
        out = run([frozen / "paperlens-cli", "models", "verify", "--json"], env=env, capture_output=True,
                  text=True).stdout
        shown = run([frozen / "paperlens", "--quit-after-show", "--typeset-check"], env=env,
                    capture_output=True, text=True).stdout
    print(shown, end="")
    if "formula typeset" not in shown:
        sys.exit("the frozen app's Rendered tab cannot typeset a formula (ziamath's data?)")
    models = json.loads(out)["models"]
    broken = [f"{m['id']} ({m['state']})" for m in models if m.get("shipped") and m["state"] != "ok"]
    if broken:
        sys.exit(f"shipped models not intact in the frozen build: {', '.join(broken)} (package data?)")
    states = {Path(m["path"]).name: (m["state"], m["path"]) for m in models if m["path"]}
    bundle = (frozen / BUNDLED_MODELS).resolve()
    for name in files:
        state, path = states.get(name, ("missing", ""))
        if state != "ok" or Path(path).parent.resolve() != bundle:
            sys.exit(f"bundled model {name}: {state} at {path or '-'} (expected ok in {bundle})")
    print(f"{len(files)} bundled models verified by the frozen store")


# ----------------------------------------------------------------------------- freeze


def freeze(python: Path, build: Build) -> Path:
    step("PyInstaller one-folder build")
    out = WORK / "pyinstaller-dist"
    shutil.rmtree(out, ignore_errors=True)
    result = run([python, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                  "--distpath", out, "--workpath", WORK / "work", SPEC], env=build.env, cwd=WORK,
                 stderr=subprocess.PIPE, text=True)
    sys.stderr.write(result.stderr)
    unresolved = [line for line in result.stderr.splitlines() if "Library not found" in line]
    if unresolved:
        sys.exit("a bundled library needs one the build host lacks (see HOST_PACKAGES):\n" + "\n".join(unresolved))
    frozen = out / FROZEN_NAME
    for exe in ("paperlens", "paperlens-cli"):
        if not os.access(frozen / exe, os.X_OK):
            sys.exit(f"PyInstaller produced no {exe}")
    return frozen


def source_parts() -> tuple[str, ...]:
    """The files and top-level package folders the wheel is built from, as pyproject.toml
    lists its packages."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    return SOURCE_FILES + tuple(sorted({name.split(".")[0] for name in setup["packages"]}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--python", default=sys.executable, help="interpreter the build venv is made from")
    args = parser.parse_args(argv)
    if sys.platform != "linux" or os.uname().machine != "x86_64":
        sys.exit("these installers are built on Linux x86_64; Windows: see installers/windows/README.md")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    build = Build(version=project["version"], epoch=source_date_epoch(), python=args.python)
    print(f"Paperlens {build.version}, SOURCE_DATE_EPOCH={build.epoch}")
    # A failed build must not leave the previous artefacts looking like its own.
    for stale in (deb_path(DIST, build.version), tarball_path(DIST, build.version), DIST / "SHA256SUMS"):
        stale.unlink(missing_ok=True)
    WORK.mkdir(parents=True, exist_ok=True)
    host_packages()
    python = prepare_venv(build)
    cache = fetch_models(python)
    files = default_model_files(python)
    frozen = freeze(python, build)
    add_models(frozen, cache, files)
    self_check(frozen, files)
    DIST.mkdir(exist_ok=True)
    step("archives")
    artefacts = [build_tarball(frozen, DIST, build.version, build.epoch),
                 build_deb(frozen, DIST, WORK / "deb", INSTALLERS / "linux", build.version, build.epoch)]
    sums = "".join(f"{sha256_file(path)}  {path.name}\n" for path in artefacts)
    (DIST / "SHA256SUMS").write_text(sums, encoding="utf-8")
    for path in artefacts:
        print(f"{path.stat().st_size / 2**20:8.1f} MiB  {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

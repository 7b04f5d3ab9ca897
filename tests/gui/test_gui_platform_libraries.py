"""Opening a window on Linux: the libraries Qt's platform plugins need are installed by the
set-up step, the app names a missing one in one line, and the real app shows its window on an
X server (Xvfb, the xcb plugin, not offscreen)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from gui.platform_libraries import (GUI_LIBRARIES, PACKAGES, WAYLAND_LIBRARIES, XCB_LIBRARIES,
                                    not_found, packages, qt_plugins_dir, window_problem)

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
LINUX = sys.platform.startswith("linux")
DEBIAN = LINUX and shutil.which("dpkg-query") is not None
PLUGINS = qt_plugins_dir()
# The window-system plugins and what they load: the OpenGL and Wayland client integrations.
PLATFORM_FILES = ("platforms/libqxcb.so", "platforms/libqwayland.so",
                  "xcbglintegrations/libqxcb-glx-integration.so",
                  "xcbglintegrations/libqxcb-egl-integration.so",
                  "wayland-graphics-integration-client/libqt-plugin-wayland-egl.so",
                  "wayland-shell-integration/libxdg-shell.so")
# On every Debian system (priority required): never in the lists.
BASE_LIBRARIES = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libz.so.1",
                  "libzstd.so.1", "libdl.so.2", "libpthread.so.0", "librt.so.1"}
SET_UP = "tools/system_deps.sh (run by `make test` and `make run`) installs it"

LDD_TWO_MISSING = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f51)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f51)
\tlibxcb-icccm.so.4 => not found
"""
LDD_COMPLETE = "\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f51)\n"


def fake_ldd(reports: dict[str, str]):
    asked: list[str] = []

    def ldd(plugin: Path) -> str:
        asked.append(plugin.name)
        return reports[plugin.name]

    ldd.asked = asked
    return ldd


# -- the check, on reports of the loader ------------------------------------------------------

def test_one_missing_library_is_named_with_the_package_that_installs_it(monkeypatch):
    monkeypatch.setattr("gui.platform_libraries._is_root", lambda: False)
    ldd = fake_ldd({"libqxcb.so": "\tlibxcb-cursor.so.0 => not found\n" + LDD_COMPLETE})
    line = window_problem({"DISPLAY": ":0", "PATH": os.environ["PATH"]}, plugins_dir=Path("/qt"),
                          ldd=ldd, platform="linux")
    if shutil.which("apt-get"):
        assert line == ("Paperlens cannot open a window: libxcb-cursor.so.0 is missing; install "
                        "it with: sudo apt-get install libxcb-cursor0")
    else:
        assert line == ("Paperlens cannot open a window: libxcb-cursor.so.0 is missing; install "
                        "the package that provides it")
    assert ldd.asked == ["libqxcb.so"]


def test_every_missing_library_is_named_once_in_one_line(monkeypatch):
    monkeypatch.setattr("gui.platform_libraries._is_root", lambda: True)
    monkeypatch.setattr("gui.platform_libraries.shutil.which", lambda *_a, **_k: "/usr/bin/x")
    line = window_problem({"DISPLAY": ":0"}, plugins_dir=Path("/qt"),
                          ldd=fake_ldd({"libqxcb.so": LDD_TWO_MISSING}), platform="linux")
    assert line == ("Paperlens cannot open a window: libxcb-icccm.so.4 and libxcb-keysyms.so.1 "
                    "are missing; install them with: apt-get install libxcb-icccm4 "
                    "libxcb-keysyms1")
    assert "\n" not in line
    assert not_found(LDD_TWO_MISSING) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]


def test_a_working_platform_or_one_we_cannot_check_lets_qt_decide(tmp_path):
    complete = fake_ldd({"libqxcb.so": LDD_COMPLETE, "libqwayland.so": LDD_COMPLETE})
    broken_xcb = fake_ldd({"libqxcb.so": LDD_TWO_MISSING, "libqwayland.so": LDD_COMPLETE})
    qt = Path("/qt")
    assert window_problem({"DISPLAY": ":0"}, plugins_dir=qt, ldd=complete, platform="linux") is None
    # A Wayland session tries wayland first and falls back to xcb.
    wayland = {"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}
    assert window_problem(wayland, plugins_dir=qt, ldd=broken_xcb, platform="linux") is None
    assert window_problem({"WAYLAND_DISPLAY": "wayland-1"}, plugins_dir=qt, ldd=broken_xcb,
                          platform="linux") is None
    for chosen in ("offscreen", "xcb;offscreen", "eglfs"):
        assert window_problem({"DISPLAY": ":0", "QT_QPA_PLATFORM": chosen}, plugins_dir=qt,
                              ldd=broken_xcb, platform="linux") is None
    assert window_problem({"DISPLAY": ":0"}, argv=["-platform", "offscreen"], plugins_dir=qt,
                          ldd=broken_xcb, platform="linux") is None
    assert window_problem({}, plugins_dir=qt, ldd=broken_xcb, platform="win32") is None
    # No ldd to ask (or no plugin file): the check stands aside.
    assert window_problem({"DISPLAY": ":0"}, plugins_dir=qt, ldd=lambda _p: None,
                          platform="linux") is None


def test_both_platforms_broken_or_no_display_at_all(tmp_path):
    qt = Path("/qt")
    wayland_missing = "\tlibwayland-cursor.so.0 => not found\n"
    both = fake_ldd({"libqxcb.so": LDD_TWO_MISSING, "libqwayland.so": wayland_missing})
    session = {"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}
    line = window_problem(session, plugins_dir=qt, ldd=both, platform="linux")
    assert line.startswith("Paperlens cannot open a window: libwayland-cursor.so.0, "
                           "libxcb-icccm.so.4 and libxcb-keysyms.so.1 are missing")
    assert line.endswith("libwayland-cursor0 libxcb-icccm4 libxcb-keysyms1")
    line = window_problem({"XDG_RUNTIME_DIR": str(tmp_path)}, plugins_dir=qt, ldd=both,
                          platform="linux")
    assert line == ("Paperlens cannot open a window: no display to open it on (DISPLAY is not "
                    "set); start it from a desktop session")
    assert both.asked == ["libqwayland.so", "libqxcb.so"]  # nothing asked without a display


# -- the lists ----------------------------------------------------------------------------------

@pytest.mark.skipif(not DEBIAN, reason="dpkg is Debian's")
def test_each_listed_library_belongs_to_the_package_listed_for_it():
    wrong = {}
    for soname, package in PACKAGES.items():
        owner = subprocess.run(["dpkg", "-S", f"*/{soname}"], capture_output=True, text=True)
        owners = {line.split(":")[0] for line in owner.stdout.splitlines()}
        if owners and package not in owners:
            wrong[soname] = (package, sorted(owners))
    assert not wrong


@pytest.mark.skipif(not LINUX or PLUGINS is None, reason="Linux with PySide6's plugins")
def test_the_lists_cover_what_qt_links_to_directly():
    """Every system library that a Qt library or platform plugin asks for itself (not through
    another system library, whose package brings it) is listed, or is on every Debian."""
    loader = next(iter(Path("/").glob("lib64/ld-linux-*.so.*")), None)
    if loader is None:
        pytest.skip("no glibc loader at /lib64")
    qt_folder = str(PLUGINS.parent)
    asked = set()
    for name in PLATFORM_FILES:
        run = subprocess.run([str(loader), "--list", str(PLUGINS / name)], capture_output=True,
                             text=True, env={**os.environ, "LD_DEBUG": "files"})
        for soname, by in re.findall(r"file=(\S+) \[0\];\s+needed by (\S+)", run.stderr):
            if by.startswith(qt_folder) and not soname.startswith(("libQt6", "libicu")):
                asked.add(soname)
    assert asked, "the loader reported nothing"
    assert asked - BASE_LIBRARIES - set(PACKAGES) == set()


def test_set_up_and_package_take_the_lists_from_here(tmp_path):
    """`tools/system_deps.sh app` asks for the gui and xcb packages, and `make test`'s set-up
    for the Wayland ones and Xvfb too; the .deb depends on the same packages."""
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    (fake_bin / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")  # nothing is installed
    (fake_bin / "id").write_text("#!/bin/sh\necho 1000\n")  # not root: print, never install
    for tool in fake_bin.iterdir():
        tool.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake_bin}:{os.environ['PATH']}"}
    asked = {}
    for mode in ("app", "test"):
        run = subprocess.run(["bash", str(ROOT / "tools" / "system_deps.sh"), mode], env=env,
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 1, run.stdout + run.stderr
        line = next(x for x in run.stdout.splitlines() if "apt-get install -y lib" in x)
        asked[mode] = set(line.split("install -y ")[1].split())
    # The app also asks for Tesseract's data of the scripts PP-OCR cannot read, the packages
    # engine/ocr/scripts.py names in its install hint.
    from engine.ocr.scripts import OSD_DEBIAN_PACKAGE, SCRIPT_MODELS

    scripts = {m.debian_package for m in SCRIPT_MODELS.values()} | {OSD_DEBIAN_PACKAGE}
    assert asked["app"] == set(packages("gui", "xcb")) | set(packages("wayland")) | scripts
    assert asked["test"] >= set(packages("gui", "xcb", "wayland")) | {"xvfb", "xauth"} | scripts

    sys.path.insert(0, str(ROOT / "installers"))
    try:
        from deb_package import with_field_packages, with_packages
    finally:
        sys.path.remove(str(ROOT / "installers"))
    depends = with_packages("libc6 (>= 2.34), libxcb1 (>= 1.9.2) | libxcb-dummy",
                            packages("gui", "xcb"))
    names = [item.split("(")[0].split("|")[0].strip() for item in depends.split(",")]
    assert sorted(set(names)) == sorted(names)  # libxcb1 named once
    assert set(names) == {"libc6"} | set(packages("gui", "xcb"))
    control = with_field_packages("Package: p\nRecommends: libvulkan1\n", "Recommends",
                                  packages("wayland"))
    assert control == f"Package: p\nRecommends: libvulkan1, {', '.join(packages('wayland'))}\n"
    assert set(GUI_LIBRARIES) | set(XCB_LIBRARIES) | set(WAYLAND_LIBRARIES) == set(PACKAGES)


# -- the real plugins, libraries and app ------------------------------------------------------

@pytest.mark.skipif(not LINUX or PLUGINS is None, reason="Linux with PySide6's plugins")
@pytest.mark.parametrize("plugin", ["platforms/libqxcb.so", "platforms/libqwayland.so"])
def test_after_the_set_up_the_platform_plugins_find_every_library(plugin):
    run = subprocess.run(["ldd", str(PLUGINS / plugin)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    missing = not_found(run.stdout)
    assert not missing, f"{plugin} cannot load {', '.join(missing)}: {SET_UP}"
    assert window_problem({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}) is None


def xvfb_run() -> str:
    found = shutil.which("xvfb-run")
    if found is None:
        if DEBIAN:
            pytest.fail(f"xvfb-run is missing: {SET_UP}")
        pytest.skip("xvfb-run is not installed")
    return found


def app_env(home: Path) -> dict[str, str]:
    """A new user's environment on an X display: nothing of the developer's Paperlens."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PAPERLENS_", "XDG_", "QT_", "WAYLAND_", "MAKE", "MFLAGS"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
               XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"),
               QT_QPA_PLATFORM="xcb")
    env.pop("DISPLAY", None)
    return env


@pytest.mark.skipif(not LINUX, reason="X11 and Xvfb")
def test_make_run_opens_the_window_on_an_x_server(tmp_path, record_property):
    """`make run` under Xvfb with the xcb plugin: the window is mapped, and the screen read back
    from the X server shows it (the PNG stays in the test's folder)."""
    shot = tmp_path / "make-run-window.png"
    venv = Path(sys.executable).parents[1]
    stamp = venv / ".paperlens-installed"
    if not stamp.is_file() or shutil.which("make") is None:
        pytest.skip(f"no `make`, or {stamp} is missing: the checkout was not set up by `make`")
    run = subprocess.run([xvfb_run(), "-a", "-s", "-screen 0 1400x900x24 -nolisten tcp",
                          "make", "--no-print-directory", "-C", str(ROOT), f"VENV={venv}",
                          "-o", str(stamp), "run", f"ARGS=--screenshot={shot}"],
                         env=app_env(tmp_path), capture_output=True, text=True, timeout=60)
    print(run.stdout, run.stderr, f"screenshot: {shot}", sep="\n")
    record_property("screenshot", str(shot))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "paperlens: main window shown (Paperlens)" in run.stdout
    assert "(1400x900, xcb)" in run.stdout
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1400, 900)
    # Not a blank screen: the window's own colours, text and frames are there.
    colours = {image.pixel(x, y) for x in range(0, 1400, 7) for y in range(0, 900, 7)}
    assert len(colours) > 20, len(colours)


def hide_library_script(soname: str, command: list[str]) -> str:
    """Shell lines that hide one library from the loader in a private mount namespace (an
    overlay whose whiteout removes it from the library folder), then run `command`."""
    folder = "/usr/lib/x86_64-linux-gnu"
    quoted = " ".join(f"'{part}'" for part in command)
    return (f"set -e; work=$(mktemp -d); mount -t tmpfs none \"$work\"; "
            f"mkdir \"$work/up\" \"$work/work\"; mknod \"$work/up/{soname}\" c 0 0; "
            f"mount -t overlay overlay -o lowerdir={folder},upperdir=\"$work/up\","
            f"workdir=\"$work/work\" {folder}; "
            f"test ! -e {folder}/{soname}; set +e; {quoted}; echo \"exit=$?\"")


@pytest.mark.skipif(not LINUX, reason="Linux mount namespaces")
def test_with_one_library_removed_the_app_prints_the_fix_and_exits(tmp_path):
    """libxcb-icccm.so.4 hidden, as on a machine without libxcb-icccm4: the real app, on a real
    X server, says so in one line and exits non-zero, instead of Qt's abort."""
    soname = "libxcb-icccm.so.4"
    if not Path("/usr/lib/x86_64-linux-gnu", soname).exists():
        pytest.skip(f"{soname} is not in /usr/lib/x86_64-linux-gnu")
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            hide_library_script(soname, ["true"])],
                           capture_output=True, text=True, timeout=30)
    if "exit=0" not in probe.stdout:
        pytest.skip(f"cannot hide a library in a private mount namespace: {probe.stderr.strip()}")
    command = [xvfb_run(), "-a", sys.executable, "-m", "gui.app", f"--screenshot={tmp_path}/x.png"]
    run = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                          hide_library_script(soname, command)], cwd=ROOT,
                         env=app_env(tmp_path), capture_output=True, text=True, timeout=60)
    print(run.stdout, run.stderr, sep="\n")
    lines = run.stderr.strip().splitlines()
    assert lines == [f"Paperlens cannot open a window: {soname} is missing; install it with: "
                     f"{'' if os.geteuid() == 0 else 'sudo '}apt-get install libxcb-icccm4"]
    assert "exit=3" in run.stdout
    assert not (tmp_path / "x.png").exists()

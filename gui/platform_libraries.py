"""The system libraries Qt needs to open a window on Linux, and the check made before Qt tries.

When no platform plugin loads, Qt aborts with a paragraph that names neither the library nor
the package ("From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed..."). The app asks the
dynamic loader (`ldd` on the plugin) first and says in one line what is missing and how to
install it. Standard library only: the check runs before PySide6's GUI modules load (they need
some of these libraries themselves), and tools/system_deps.sh and the .deb take their package
lists from here (`python3 -m gui.platform_libraries gui xcb wayland`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib.util import find_spec
from pathlib import Path

# Debian/Ubuntu packages by soname: the libraries that Qt's own libraries and platform plugins
# (PySide6 6.12 wheels) link to directly; what those link to comes with their Depends. The C and
# C++ runtimes, zlib and zstd are on every Debian system and are left out.
GUI_LIBRARIES = {  # QtCore, QtGui and QtDBus, whichever the window system
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libX11.so.6": "libx11-6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libxkbcommon.so.0": "libxkbcommon0",
}
XCB_LIBRARIES = {  # the xcb (X11) plugin and its OpenGL integration
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
}
WAYLAND_LIBRARIES = {  # the wayland plugin, its shells, decorations and EGL client
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
}
LIBRARY_GROUPS = {"gui": GUI_LIBRARIES, "xcb": XCB_LIBRARIES, "wayland": WAYLAND_LIBRARIES}
PACKAGES = {soname: package for group in LIBRARY_GROUPS.values()
            for soname, package in group.items()}

# Qt's platform names that we can check, and the plugin file each loads.
PLATFORM_PLUGINS = {"xcb": "libqxcb.so", "wayland": "libqwayland.so"}
LDD_TIMEOUT_S = 15.0

Ldd = Callable[[Path], "str | None"]


def packages(*groups: str) -> list[str]:
    """The Debian packages of the named library groups ("gui", "xcb", "wayland"), sorted."""
    return sorted({LIBRARY_GROUPS[group][soname] for group in groups
                   for soname in LIBRARY_GROUPS[group]})


def run_ldd(library: Path) -> str | None:
    """`ldd`'s report on a shared library; None when it cannot be asked."""
    if shutil.which("ldd") is None or not library.is_file():
        return None
    try:
        done = subprocess.run(["ldd", str(library)], capture_output=True, text=True,
                              timeout=LDD_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout


def not_found(ldd_output: str) -> list[str]:
    """The sonames `ldd` reports as "not found", each once, in its order."""
    missing: list[str] = []
    for line in ldd_output.splitlines():
        name, arrow, where = line.strip().partition(" => ")
        if arrow and where.strip() == "not found" and name not in missing:
            missing.append(name)
    return missing


def qt_plugins_dir() -> Path | None:
    """PySide6's plugin folder, found without importing PySide6 (which would load Qt)."""
    spec = find_spec("PySide6")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) / "Qt" / "plugins" if locations else None


def platform_candidates(environ: Mapping[str, str], argv: Sequence[str] = ()) -> list[str]:
    """The platforms Qt will try, in its order: `-platform`, QT_QPA_PLATFORM, the session type."""
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if "-platform" in argv[:-1]:
        chosen = argv[list(argv).index("-platform") + 1]
    if chosen.strip():
        return [name.split(":")[0].strip() for name in chosen.split(";") if name.strip()]
    # A Wayland session: Qt tries wayland, then xcb (XWayland). Counting wayland in whenever
    # there is a Wayland display can only make the check stand aside more often, never less.
    if environ.get("XDG_SESSION_TYPE", "") == "wayland" or environ.get("WAYLAND_DISPLAY"):
        return ["wayland", "xcb"]
    return ["xcb"]


def has_display(platform: str, environ: Mapping[str, str]) -> bool:
    if platform == "xcb":
        return bool(environ.get("DISPLAY"))
    if environ.get("WAYLAND_DISPLAY"):
        return True
    runtime = environ.get("XDG_RUNTIME_DIR", "")  # Qt's default socket: wayland-0 there
    return bool(runtime) and Path(runtime, "wayland-0").exists()


def window_problem(environ: Mapping[str, str] | None = None, argv: Sequence[str] = (),
                   plugins_dir: Path | None = None, ldd: Ldd = run_ldd,
                   platform: str = sys.platform) -> str | None:
    """One line saying why Qt cannot open a window here, or None when it can (or when we
    cannot tell: another platform plugin, no `ldd`, not Linux; then Qt decides)."""
    environ = os.environ if environ is None else environ
    if not platform.startswith("linux"):
        return None
    plugins_dir = plugins_dir or _plugins_dir(environ)
    missing: list[str] = []
    no_display: list[str] = []
    for name in platform_candidates(environ, argv):
        kind = "wayland" if name.startswith("wayland") else name
        if kind not in PLATFORM_PLUGINS or plugins_dir is None:
            return None
        if not has_display(kind, environ):
            no_display.append(kind)
            continue
        report = ldd(plugins_dir / "platforms" / PLATFORM_PLUGINS[kind])
        if report is None:
            return None
        lacking = not_found(report)
        if not lacking:
            return None
        missing.extend(s for s in lacking if s not in missing)
    if missing:
        return missing_libraries_line(missing, environ)
    return no_display_line(no_display) if no_display else None


def _plugins_dir(environ: Mapping[str, str]) -> Path | None:
    # Qt looks in QT_QPA_PLATFORM_PLUGIN_PATH before its own folder.
    override = environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "")
    return Path(override).parent if override else qt_plugins_dir()


def missing_libraries_line(missing: Sequence[str], environ: Mapping[str, str]) -> str:
    """The line for missing libraries, with the apt-get command that installs them where there
    is one (and every library's package is known)."""
    names = list(missing)
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    verb, pronoun = ("is", "it") if len(names) == 1 else ("are", "them")
    wanted = sorted({PACKAGES[s] for s in names if s in PACKAGES})
    unknown = [s for s in names if s not in PACKAGES]
    if wanted and not unknown and shutil.which("apt-get", path=environ.get("PATH")):
        sudo = "" if _is_root() else "sudo "
        how = f"install {pronoun} with: {sudo}apt-get install {' '.join(wanted)}"
    else:
        how = ("install the package that provides it" if len(names) == 1
               else "install the packages that provide them")
    return f"Paperlens cannot open a window: {listed} {verb} missing; {how}"


def no_display_line(platforms: Sequence[str]) -> str:
    variables = " or ".join("DISPLAY" if p == "xcb" else "WAYLAND_DISPLAY" for p in platforms)
    return (f"Paperlens cannot open a window: no display to open it on ({variables} is not set); "
            f"start it from a desktop session")


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def main(argv: Sequence[str]) -> int:
    """Print the Debian packages of the named groups, one a line (for tools/system_deps.sh)."""
    unknown = [g for g in argv if g not in LIBRARY_GROUPS]
    if not argv or unknown:
        print(f"usage: python3 -m gui.platform_libraries {{{','.join(LIBRARY_GROUPS)}}}...",
              file=sys.stderr)
        return 2
    print("\n".join(packages(*argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

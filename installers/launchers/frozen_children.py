"""Child processes a frozen Paperlens starts with its own executable, which has no `python -m`."""

from __future__ import annotations

from typing import Callable


def _calibration(args: list[str]) -> int:
    from engine.device.calibration_process import main

    return main(args)


def _probe(args: list[str]) -> int:
    from engine.input.probe_child import main

    return main(args)


# The engine starts these as `sys.executable -m MODULE ARGS...`; in a frozen build
# sys.executable is the app itself, so the launchers run the named module's main instead.
CHILDREN: dict[str, Callable[[list[str]], int]] = {
    "engine.device.calibration_process": _calibration,
    "engine.input.probe_child": _probe,
}


def run_child(argv: list[str]) -> int | None:
    """The exit code of the child `argv` asks for (`EXE -m MODULE ARGS...`), or None if it asks for none."""
    if len(argv) >= 3 and argv[1] == "-m" and argv[2] in CHILDREN:
        return CHILDREN[argv[2]](argv[3:])
    return None

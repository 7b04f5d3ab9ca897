"""Entry point of the `paperlens` desktop app: can a window open here? Then the app itself.

Qt's GUI libraries are loaded only after the check: they need some of the same system
libraries, and a missing one is worth one clear line, not Qt's abort or an import error."""

from __future__ import annotations

import sys

from gui.platform_libraries import window_problem

# The exit status when no window can open (a missing system library, no display).
NO_WINDOW_EXIT = 3


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    problem = window_problem(argv=argv[1:])
    if problem is not None:
        if sys.stderr is not None:
            print(problem, file=sys.stderr, flush=True)
        return NO_WINDOW_EXIT
    from gui.application import run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())

"""Frozen entry point of the `paperlens` desktop app (the same `gui.app:main` as the wheel's)."""

import multiprocessing
import sys

from frozen_children import run_child

if __name__ == "__main__":
    # The window's engine runs in a process started with multiprocessing's "spawn", which in a
    # frozen build runs this executable again: freeze_support runs that child's work and exits
    # (PyInstaller's hook makes it do so on Linux too, not only on Windows).
    multiprocessing.freeze_support()
    code = run_child(sys.argv)
    if code is None:
        from gui.app import main

        code = main()
    sys.exit(code)

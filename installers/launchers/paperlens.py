"""Frozen entry point of the `paperlens` desktop app (the same `gui.app:main` as the wheel's)."""

import sys

from frozen_children import run_child

if __name__ == "__main__":
    code = run_child(sys.argv)
    if code is None:
        from gui.app import main

        code = main()
    sys.exit(code)

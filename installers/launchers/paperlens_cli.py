"""Frozen entry point of `paperlens-cli` (the same `engine.cli.main:main` as the wheel's)."""

import sys

from frozen_children import run_child

if __name__ == "__main__":
    code = run_child(sys.argv)
    if code is None:
        from engine.cli.main import main

        code = main()
    sys.exit(code)

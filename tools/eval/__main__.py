"""Entry point for `python -m tools.eval`."""

import sys

from tools.eval.runner import main

sys.exit(main())

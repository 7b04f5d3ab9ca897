"""Entry point for `python -m tools.bench`."""

import sys

from tools.bench.runner import main

sys.exit(main())

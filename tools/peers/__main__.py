"""Entry point for `python -m tools.peers`."""

import sys

from tools.peers.runner import main

sys.exit(main())

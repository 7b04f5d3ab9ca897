"""`python -m paperlens_mcp`: the same as paperlens-mcp."""

import sys

from paperlens_mcp.cli import main

if __name__ == "__main__":
    sys.exit(main())

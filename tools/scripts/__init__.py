"""The multi-script set: generated pages in every script with known truth (python -m tools.scripts)."""

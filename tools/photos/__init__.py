"""The photo set: pages photographed in software with known truth (python -m tools.photos)."""

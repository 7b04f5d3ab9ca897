"""Photographed pages: the page found on its background and its perspective undone
(outline.py), its curl flattened (dewarp.py); the page stage in stage.py."""

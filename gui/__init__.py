"""Paperlens desktop front end (PySide6)."""

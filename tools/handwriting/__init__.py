"""The handwriting set: generated pages of handwriting-like text and of print, scanned, with
known labels, to choose and check the engine's handwriting detector (engine/ocr/handwriting.py).
`python -m tools.handwriting generate|evaluate`; docs/handwriting.md has the figures."""

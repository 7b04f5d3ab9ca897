"""Paperlens document engine: documents in, Markdown and structured results out. Never imports Qt."""

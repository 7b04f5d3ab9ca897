"""Exports a person opens: searchable PDF, Word and Excel, made from a finished document."""

"""Accuracy evaluation of Paperlens output against a manifest of documents with ground truth."""

"""Heading recall, precision and level accuracy on the generated structure and math sets."""

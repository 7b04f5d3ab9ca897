"""Paperlens beside the tools users would pick instead, on the same documents in the same run."""

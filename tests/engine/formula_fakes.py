"""A formula recogniser and model set for the formula stages' tests: every crop gets the same
reading, and the crops it was given are kept."""

from __future__ import annotations

import numpy as np


class FakeRecognizer:
    """Answers every crop with the same reading and counts the crops it was given."""

    def __init__(self, reading) -> None:
        self.reading = reading
        self.crops: list[np.ndarray] = []

    def read(self, crops):
        self.crops.extend(crops)
        return [self.reading] * len(crops)


class FakeModels:
    def __init__(self, recognizer) -> None:
        self.recognizer = recognizer

    def formula_recognizer(self):
        return self.recognizer

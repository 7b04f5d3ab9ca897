"""The step clock (engine/runtime/steps.py): where a page's time goes inside its stages, each
second counted once, under the chain of steps it was spent in."""

from __future__ import annotations

import threading

import pytest

from engine.runtime.steps import StepClock, advance, chain_end, timed_step


class Ticks:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_step_inside_another_is_counted_once_under_both_names():
    ticks = Ticks()
    clock = StepClock(ticks)
    with clock.step("script_reading"):
        ticks.now += 1.0
        with clock.step("rec"):
            ticks.now += 3.0
        with clock.step("tesseract_lines"):
            ticks.now += 2.0
            with clock.step("script_reading"):  # part of the open step of that name
                ticks.now += 0.5
        ticks.now += 4.0
    with clock.step("rec"):
        ticks.now += 0.25
    assert clock.snapshot() == {"script_reading": 5.0, "script_reading.rec": 3.0,
                                "script_reading.tesseract_lines": 2.5, "rec": 0.25}
    # The chains add up to the time spent inside any step.
    assert sum(clock.snapshot().values()) == ticks.now
    assert chain_end("script_reading.tesseract_lines") == "tesseract_lines"


def test_a_step_that_raises_is_counted_and_closed():
    ticks = Ticks()
    clock = StepClock(ticks)
    with pytest.raises(RuntimeError):
        with clock.step("det"):
            ticks.now += 2.0
            raise RuntimeError("model failed")
    with clock.step("rec"):
        ticks.now += 1.0
    assert clock.snapshot() == {"det": 2.0, "rec": 1.0}


def test_each_thread_keeps_its_own_open_steps():
    clock = StepClock()
    inside, done = threading.Event(), threading.Event()

    def reading() -> None:
        with clock.step("script_reading"):
            inside.set()
            done.wait(5)

    other = threading.Thread(target=reading)
    other.start()
    inside.wait(5)
    with clock.step("det"):
        pass
    done.set()
    other.join()
    assert set(clock.snapshot()) == {"script_reading", "det"}


def test_a_method_is_timed_on_its_objects_clock():
    ticks = Ticks()

    class Reader:
        def __init__(self) -> None:
            self.steps = StepClock(ticks)

        @timed_step("rec")
        def recognize(self, lines: list[str]) -> list[str]:
            ticks.now += len(lines)
            return [line.upper() for line in lines]

    reader = Reader()
    before = reader.steps.snapshot()
    assert reader.recognize(["a", "b"]) == ["A", "B"]
    assert advance(before, reader.steps.snapshot()) == {"rec": 2.0}
    assert advance(reader.steps.snapshot(), reader.steps.snapshot()) == {}


def test_a_step_name_cannot_hold_the_chain_separator():
    with pytest.raises(ValueError, match="holds no"):
        with StepClock().step("script_reading.rec"):
            pass

"""What the desktop window waits for besides its own work: Python's lock and picture handover.

    python -m tools.ui_lock [--out docs/results/ui_lock.json]

1. Lock hand-back. A thread that sleeps 1 ms and wakes (as the UI thread does between events)
   beside a thread running Python: how long each wake takes, at CPython's default switch
   interval (5 ms) and at the one the conversion thread sets (gui.worker.UI_SWITCH_INTERVAL_S).
2. Picture handover. QPixmap.fromImage of a 1414x2000 page picture in each 32-bit format the
   preview could produce, on the platform Qt was started with (QT_QPA_PLATFORM).

Medians of several runs; the figures are quoted beside the constants they chose."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

WAKES = 300
PICTURE_RUNS = 9


def wake_latencies_ms(interval_s: float) -> list[float]:
    previous = sys.getswitchinterval()
    sys.setswitchinterval(interval_s)
    stop = threading.Event()

    def busy() -> None:
        count = 0
        while not stop.is_set():
            count += 1

    thread = threading.Thread(target=busy, daemon=True)
    thread.start()
    try:
        waits = []
        for _ in range(WAKES):
            start = time.perf_counter()
            time.sleep(0.001)
            waits.append((time.perf_counter() - start) * 1000)
        return sorted(waits)
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(previous)


def handover_ms() -> dict[str, float]:
    import numpy as np
    from PySide6.QtGui import QGuiApplication, QImage, QPixmap

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    pixels = np.random.default_rng(0).integers(0, 256, (2000, 1414, 4), dtype=np.uint8)
    pixels[..., 3] = 255
    figures = {}
    for name in ("Format_RGB32", "Format_ARGB32_Premultiplied", "Format_ARGB32"):
        image = QImage(pixels.data, 1414, 2000, pixels.strides[0],
                       getattr(QImage.Format, name)).copy()
        runs = []
        for _ in range(PICTURE_RUNS):
            start = time.perf_counter()
            QPixmap.fromImage(image)
            runs.append((time.perf_counter() - start) * 1000)
        figures[name] = round(statistics.median(runs), 2)
    return figures


def main(argv: list[str] | None = None) -> int:
    from gui.worker import UI_SWITCH_INTERVAL_S
    from PySide6.QtGui import QGuiApplication

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/results/ui_lock.json"))
    args = parser.parse_args(argv)
    lock = {}
    for interval in (0.005, UI_SWITCH_INTERVAL_S):
        waits = wake_latencies_ms(interval)
        lock[f"{interval * 1000:g} ms"] = {"median_ms": round(statistics.median(waits), 2),
                                           "p99_ms": round(waits[int(len(waits) * 0.99)], 2),
                                           "max_ms": round(waits[-1], 2)}
    pictures = handover_ms()
    # One file for every platform measured: each run replaces its own platform's figures.
    try:
        result = json.loads(args.out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        result = {}
    result["wake_1ms_beside_python_thread"] = lock
    result.setdefault("pixmap_from_1414x2000_image_ms", {})[
        QGuiApplication.platformName()] = pictures
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

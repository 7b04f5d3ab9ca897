"""The CPU as ONNX Runtime sees it: how many threads its intra-op pool gets."""

from __future__ import annotations

import os


def physical_core_count() -> int:
    """Cores to give ORT's intra-op pool: hyper-threads add little to convolution throughput."""
    logical = os.cpu_count() or 1
    try:
        cores = set()
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            physical = core = None
            for line in fh:
                if line.startswith("physical id"):
                    physical = line.split(":")[1].strip()
                elif line.startswith("core id"):
                    core = line.split(":")[1].strip()
                    cores.add((physical, core))
        if cores:
            return max(1, min(len(cores), logical))
    except OSError:
        pass
    return max(1, logical)

"""A description of the machine a benchmark ran on: CPU, cores, runtime versions, device."""

from __future__ import annotations

import os
import platform
import resource
import sys
from importlib import metadata


def parse_cpuinfo(text: str) -> tuple[str, int | None]:
    """/proc/cpuinfo text -> (CPU model name, physical cores or None when it does not say)."""
    model = ""
    cores: set[tuple[str, str]] = set()
    physical = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "model name" and not model:
            model = value
        elif key == "physical id":
            physical = value
        elif key == "core id":
            cores.add((physical, value))
    return model, (len(cores) or None)


def _read_cpuinfo() -> str:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            return fh.read()
    except OSError:
        return ""


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return ""


def peak_rss_mib() -> float:
    """The process's peak resident set so far (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def load_average_1m() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def describe_machine(ort_threads: int | None, device: str,
                     load_at_start: float | None) -> dict[str, object]:
    import onnxruntime

    model, physical = parse_cpuinfo(_read_cpuinfo())
    return {
        "cpu_model": model or platform.processor() or platform.machine(),
        "logical_cores": os.cpu_count(),
        "physical_cores": physical,
        "device": device,
        "ort_intra_op_threads": ort_threads,
        "onnxruntime": onnxruntime.__version__,
        "ort_providers_available": list(onnxruntime.get_available_providers()),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "pymupdf": _version("pymupdf"),
        "opencv": _version("opencv-python-headless"),
        "platform": platform.platform(),
        "load_average_1m_at_start": load_at_start,
    }

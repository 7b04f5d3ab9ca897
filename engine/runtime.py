"""The one place ONNX Runtime sessions are created, reused, run and timed."""

from __future__ import annotations

import os
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

CPU_PROVIDER = "CPUExecutionProvider"


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


@dataclass(frozen=True)
class SessionInfo:
    role: str
    model_path: str
    requested_device: str
    providers: tuple[str, ...]
    """Providers the session really has, in priority order."""


class ModelSession:
    """A created session plus the clock that accumulates its pure inference time."""

    def __init__(self, session: ort.InferenceSession, info: SessionInfo,
                 clock: "InferenceClock") -> None:
        self._session = session
        self.info = info
        self._clock = clock
        self.input_names = [i.name for i in session.get_inputs()]
        self.output_names = [o.name for o in session.get_outputs()]

    @property
    def metadata(self) -> dict[str, str]:
        return dict(self._session.get_modelmeta().custom_metadata_map)

    def run(self, *inputs: np.ndarray) -> list[np.ndarray]:
        feeds = dict(zip(self.input_names, inputs))
        start = time.perf_counter()
        outputs = self._session.run(self.output_names, feeds)
        self._clock.add(self.info.role, time.perf_counter() - start)
        return outputs


class InferenceClock:
    """Per-role sum of session.run wall time: the floor a pipeline is measured against."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seconds: dict[str, float] = defaultdict(float)

    def add(self, role: str, seconds: float) -> None:
        with self._lock:
            self._seconds[role] += seconds

    def snapshot(self) -> dict[str, float]:
        with self._lock:
            return dict(self._seconds)


class SessionFactory:
    """Creates each (role, model file) session once per process and hands out the same one."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads or physical_core_count()
        self.clock = InferenceClock()
        self._sessions: dict[tuple[str, str], ModelSession] = {}
        self._lock = threading.Lock()

    def session(self, role: str, model_path: Path) -> ModelSession:
        key = (role, str(model_path))
        with self._lock:
            existing = self._sessions.get(key)
            if existing is not None:
                return existing
            created = self._create_cpu(role, model_path)
            self._sessions[key] = created
            return created

    def created(self) -> list[SessionInfo]:
        """What each created session asked for and really got, in creation order."""
        with self._lock:
            return [s.info for s in self._sessions.values()]

    def cpu_options(self) -> ort.SessionOptions:
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # Idle sessions must not keep cores busy spinning while Python does post-processing.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        return options

    def _create_cpu(self, role: str, model_path: Path) -> ModelSession:
        session = ort.InferenceSession(str(model_path), sess_options=self.cpu_options(),
                                       providers=[CPU_PROVIDER])
        info = SessionInfo(role=role, model_path=str(model_path), requested_device="cpu",
                           providers=tuple(session.get_providers()))
        return ModelSession(session, info, self.clock)

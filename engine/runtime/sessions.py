"""The one place ONNX Runtime sessions are created, reused, run and timed, on the decided device."""

from __future__ import annotations

import os
import threading
import time
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

try:
    import onnxruntime as ort
except ImportError as _error:
    # Two ORT distributions overwriting each other's files fail here, obscurely; say so.
    from engine.runtime.install import install_conflict

    _conflict = install_conflict()
    if _conflict is None:
        raise
    raise _conflict from _error

from engine.errors import ModelIntegrityError
from engine.runtime.cpu import physical_core_count
from engine.runtime.gpu import WEBGPU_LOCK, DeviceChoice, GpuDecision, GpuSessionError

CPU_PROVIDER = "CPUExecutionProvider"


# Which roles run on the GPU once a GPU is decided, per backend (DESIGN §5). Roles not listed
# run on the CPU: small models whose transfers cost more than they gain, or models that
# produced wrong results on GPU EPs (SLANet-plus).
GPU_ROLES: dict[str, frozenset[str]] = {
    "webgpu": frozenset({"layout", "rec", "formula", "det"}),
    "dml": frozenset({"layout", "rec", "formula"}),
}
CPU_ROLES = frozenset({"cls", "table", "orientation"})
"""Roles that stay on the CPU on every backend (listed so the choice reads as deliberate)."""


def runs_on_gpu(role: str, backend: str) -> bool:
    return role in GPU_ROLES.get(backend, frozenset())


@dataclass(frozen=True)
class RuntimeOptions:
    """Session settings shared by CPU and GPU sessions, and kept by a CPU fallback."""

    threads: int
    memory_arena: bool = True
    memory_pattern: bool = True
    profile_prefix: str | None = None
    """Write an ORT profile per session with this file prefix (None: no profiling)."""

    def session_options(self) -> ort.SessionOptions:
        """Fresh options each call: options that had an EP added must never be reused."""
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.enable_cpu_mem_arena = self.memory_arena
        options.enable_mem_pattern = self.memory_pattern
        if self.profile_prefix:
            options.enable_profiling = True
            options.profile_file_prefix = self.profile_prefix
        # Idle sessions must not keep cores busy spinning while Python does post-processing.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        return options


@dataclass(frozen=True)
class SessionInfo:
    role: str
    model_path: str
    requested_device: str
    """cpu | gpu: what the decision and the role's preset asked for."""
    providers: tuple[str, ...]
    """Providers the session really has, in priority order."""
    device: str = "cpu"
    """cpu | gpu: what the session really runs on."""
    backend: str = "cpu"
    fallback_reason: str | None = None
    """Why a session asked for the GPU runs on the CPU."""
    threads: int | None = None
    """Intra-op threads of a CPU session (None: a GPU session)."""


def unloadable_model(role: str, model_path: Path, exc: BaseException) -> ModelIntegrityError:
    """A model file ONNX Runtime cannot load, as an error for the whole run with the fix in words."""
    detail = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
    return ModelIntegrityError(
        f"The {role} model {model_path} cannot be loaded ({detail}); the file is damaged or is "
        "not the model this version expects. To fix: run `paperlens-cli models fetch` (or "
        "`paperlens-cli models verify` to see which file), or reinstall Paperlens when the model "
        "ships with it.")


class ModelSession:
    """A created session plus the clock that accumulates its pure inference time."""

    def __init__(self, session: ort.InferenceSession, info: SessionInfo,
                 clock: "InferenceClock", lock: threading.RLock | None = None) -> None:
        self._session = session
        self.info = info
        self._clock = clock
        self._lock = lock
        self.input_names = [i.name for i in session.get_inputs()]
        self.output_names = [o.name for o in session.get_outputs()]

    @property
    def metadata(self) -> dict[str, str]:
        return dict(self._session.get_modelmeta().custom_metadata_map)

    def run(self, *inputs: np.ndarray) -> list[np.ndarray]:
        feeds = dict(zip(self.input_names, inputs))
        with self._lock if self._lock is not None else nullcontext():
            start = time.perf_counter()
            outputs = self._session.run(self.output_names, feeds)
            elapsed = time.perf_counter() - start
        self._clock.add(self.info.role, elapsed)
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
    """Creates each (role, model file) session once per process and hands out the same one.

    With a device selector, the first session asks it for the decision (that is when the
    device is decided) and GPU roles go to the decided GPU; without one, everything runs on
    the CPU and no GPU backend is loaded."""

    def __init__(self, threads: int | None = None, device: DeviceChoice | None = None,
                 options: RuntimeOptions | None = None) -> None:
        self.options = options or RuntimeOptions(threads=threads or physical_core_count())
        self.threads = self.options.threads
        self.device = device
        self.clock = InferenceClock()
        self._sessions: dict[tuple[str, str, bool, int | None], ModelSession] = {}
        self._lock = threading.Lock()

    def session(self, role: str, model_path: Path, *, cpu_only: bool = False,
                threads: int | None = None) -> ModelSession:
        """The session for a role's model on the decided device.

        `cpu_only` asks for a second, CPU session of a GPU role, e.g. for formula batches
        smaller than the GPU's fixed batch, which run faster on the CPU than padded. `threads`
        (CPU sessions only) overrides the factory's intra-op thread count for a graph whose
        runs are too small to share out, like the formula decoder's one-token steps."""
        if threads is not None and not cpu_only:
            raise ValueError("a thread count of its own is only for a CPU-only session")
        key = (role, str(model_path), cpu_only, threads)
        with self._lock:
            existing = self._sessions.get(key)
            if existing is not None:
                return existing
            if cpu_only:
                created = self._create_cpu(role, Path(model_path), "cpu", threads=threads)
            else:
                created = self._create(role, Path(model_path))
            self._sessions[key] = created
            return created

    def created(self) -> list[SessionInfo]:
        """What each created session asked for and really got, in creation order."""
        with self._lock:
            return [s.info for s in self._sessions.values()]

    def cpu_options(self, threads: int | None = None) -> ort.SessionOptions:
        options = self.options if threads is None else replace(self.options, threads=threads)
        return options.session_options()

    def _create(self, role: str, model_path: Path) -> ModelSession:
        if self.device is None:
            return self._create_cpu(role, model_path, "cpu")
        decision = self.device.decision()
        if not (decision.on_gpu and runs_on_gpu(role, decision.backend)):
            return self._create_cpu(role, model_path, "cpu")
        try:
            session, lock = self._create_gpu(role, model_path, decision)
        except GpuSessionError as exc:
            reason = self.device.gpu_session_failed(role, exc.code, str(exc))
            return self._create_cpu(role, model_path, "gpu", reason)
        info = SessionInfo(role=role, model_path=str(model_path), requested_device="gpu",
                           providers=tuple(session.get_providers()), device="gpu",
                           backend=decision.backend)
        self.device.gpu_session_created(role)
        return ModelSession(session, info, self.clock, lock)

    def _create_gpu(self, role: str, model_path: Path, decision: GpuDecision):
        """(session, the lock its runs take) on the decided GPU backend."""
        backend = self.device.gpu_backend()
        options = self.options.session_options()
        if decision.backend == "dml":
            # The DML EP does not allow two Run calls on one session at once: every DML session
            # has its own lock, taken by every run whatever lock the caller holds.
            session = backend.create_session(model_path, options, decision.target, role=role)
            return session, threading.RLock()
        return backend.create_session(model_path, options, decision.target), WEBGPU_LOCK

    def _create_cpu(self, role: str, model_path: Path, requested: str,
                    fallback_reason: str | None = None, threads: int | None = None) -> ModelSession:
        # Fresh options: ones a GPU provider was added to must not carry it into this session.
        try:
            session = ort.InferenceSession(str(model_path), sess_options=self.cpu_options(threads),
                                           providers=[CPU_PROVIDER])
        except Exception as exc:  # ORT raises its own types (InvalidProtobuf, Fail, ...) here
            raise unloadable_model(role, model_path, exc) from exc
        info = SessionInfo(role=role, model_path=str(model_path), requested_device=requested,
                           providers=tuple(session.get_providers()),
                           fallback_reason=fallback_reason,
                           threads=session.get_session_options().intra_op_num_threads)
        return ModelSession(session, info, self.clock)


GPU_FORMULA_BATCH = 8
"""The only batch size formula sessions run with on a GPU: one fixed shape, compiled once."""


def formula_batches(count: int, batch_size: int, on_gpu: bool) -> list[tuple[int, int, bool]]:
    """(start, stop, on the GPU) for each run over `count` formula crops.

    On a GPU session only full batches of exactly GPU_FORMULA_BATCH run on the GPU: any other
    shape would make the GPU EP prepare the graph again, and padding a short rest (1-7) costs
    more than the CPU takes for it, so the rest runs on the CPU as it is. A configured batch
    size below that never fills a GPU batch, so all of it runs on the CPU."""
    on_gpu = on_gpu and batch_size >= GPU_FORMULA_BATCH
    size = GPU_FORMULA_BATCH if on_gpu else max(1, batch_size)
    runs = []
    for start in range(0, count, size):
        stop = min(start + size, count)
        runs.append((start, stop, on_gpu and stop - start == GPU_FORMULA_BATCH))
    return runs


class FormulaSessions:
    """The formula model's sessions: the decided one, and a CPU session for short batches that
    is created on first need and reused. Which to use follows the device the main session
    really runs on, so a GPU session that fell back to the CPU gets no second CPU session."""

    role = "formula"

    def __init__(self, factory: SessionFactory, model_path: Path,
                 batch_size: int = GPU_FORMULA_BATCH) -> None:
        self._factory = factory
        self._path = Path(model_path)
        self.batch_size = batch_size

    def plan(self, count: int) -> list[tuple[int, int, ModelSession]]:
        """(start, stop, session) for each run over `count` crops, in order."""
        if self.batch_size < GPU_FORMULA_BATCH:
            # Nothing would ever use a GPU session, so none is created.
            cpu = self._factory.session(self.role, self._path, cpu_only=True)
            return [(a, b, cpu) for a, b, _ in formula_batches(count, self.batch_size, False)]
        main = self._factory.session(self.role, self._path)
        on_gpu = main.info.device == "gpu"
        plan = []
        for start, stop, gpu in formula_batches(count, self.batch_size, on_gpu):
            session = main if gpu or not on_gpu else self._factory.session(
                self.role, self._path, cpu_only=True)
            plan.append((start, stop, session))
        return plan

    @property
    def input_names(self) -> list[str]:
        return self.plan(1)[0][2].input_names

    def run(self, *inputs: np.ndarray) -> list[np.ndarray]:
        """Runs one batch as `plan` splits it and joins the outputs along the batch axis, so the
        sessions stand in for one session (the formula encoder's, in engine.model_set)."""
        outputs = [session.run(*(x[start:stop] for x in inputs))
                   for start, stop, session in self.plan(len(inputs[0]))]
        return outputs[0] if len(outputs) == 1 else [np.concatenate(parts) for parts in zip(*outputs)]

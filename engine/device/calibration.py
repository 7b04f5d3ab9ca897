"""The GPU-versus-CPU measurement protocol and its thresholds: pure, over injected runners.

CPU first, then GPU: 1 warm-up + 3 timed runs each; ratio = median(GPU) / median(CPU). When the
short run is close to the threshold or noisy, both sessions run 6 more times (CPU then GPU) so
each has 10 runs: the first 3 count as warm-up and the last 7 decide, and they must be stable,
unless every pairing of those runs puts the ratio clearly on one side of the threshold (a busy
machine far from it: noise cannot change the decision, so it is decided and saved).
Every run's decoded text must equal the first CPU run's, on both devices."""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable

from engine.device import reasons

# GPU time / CPU time at or below which the GPU is chosen, per backend: the GPU must be at least
# 20% faster. The only place these numbers live; changing them never rewrites a saved choice.
THRESHOLDS: dict[str, float] = {"webgpu": 0.8, "dml": 0.8}

SHORT_WARMUP, SHORT_TIMED = 1, 3
LONG_WARMUP, LONG_TIMED = 3, 7
NEAR_THRESHOLD = 0.1
"""|ratio - threshold| at or below this extends the measurement (0.7 to 0.9 for 0.8)."""
SPREAD_LIMIT = 0.15
"""(max - min) / median of a backend's short timed runs above this extends the measurement."""
IQR_LIMIT = 0.15
DRIFT_LIMIT = 0.15
_EPSILON = 1e-9  # the boundaries are inclusive; keep 0.9 - 0.8 == 0.1 on the inclusive side

TRIGGER_NEAR = "ratio_near_threshold"
TRIGGER_SPREAD = "backend_spread"
TRIGGER_RANGE = "range_contains_threshold"


@dataclass(frozen=True)
class Run:
    """One inference: wall time and the decoded text of every image in the batch."""

    seconds: float
    decoded: tuple[str, ...]


Runner = Callable[[], Run]


def threshold_for(backend: str) -> float:
    return THRESHOLDS[backend]


def spread(values: list[float]) -> float:
    return (max(values) - min(values)) / max(statistics.median(values), _EPSILON)


def iqr_ratio(values: list[float]) -> float:
    """Inter-quartile range over median, quartiles including the end points."""
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return (q3 - q1) / max(statistics.median(values), _EPSILON)


def drift(values: list[float]) -> float:
    """|median of the first 3 - median of the last 3| over the median of all."""
    head, tail = statistics.median(values[:3]), statistics.median(values[-3:])
    return abs(head - tail) / max(statistics.median(values), _EPSILON)


def median_ratio(cpu: list[float], gpu: list[float]) -> float:
    return statistics.median(gpu) / max(statistics.median(cpu), _EPSILON)


def extension_triggers(cpu: list[float], gpu: list[float], threshold: float) -> list[str]:
    """Why a short measurement must be extended (empty: it may decide as it is)."""
    triggers = []
    if abs(median_ratio(cpu, gpu) - threshold) <= NEAR_THRESHOLD + _EPSILON:
        triggers.append(TRIGGER_NEAR)
    if spread(cpu) > SPREAD_LIMIT + _EPSILON or spread(gpu) > SPREAD_LIMIT + _EPSILON:
        triggers.append(TRIGGER_SPREAD)
    # An observed range, not a confidence interval: the extreme pairings of the timed runs.
    low, high = ratio_bounds(cpu, gpu)
    if low - _EPSILON <= threshold <= high + _EPSILON:
        triggers.append(TRIGGER_RANGE)
    return triggers


def ratio_bounds(cpu: list[float], gpu: list[float]) -> tuple[float, float]:
    """The lowest and highest GPU/CPU ratio any pairing of the timed runs gives."""
    return min(gpu) / max(max(cpu), _EPSILON), max(gpu) / max(min(cpu), _EPSILON)


def clear_side(cpu: list[float], gpu: list[float], threshold: float) -> str | None:
    """"above" or "below" when both ratio bounds lie on that side of the threshold by more than
    NEAR_THRESHOLD (the decision is the same at any noise the runs show); None for a close call."""
    low, high = ratio_bounds(cpu, gpu)
    if low > threshold + NEAR_THRESHOLD + _EPSILON:
        return "above"
    if high < threshold - NEAR_THRESHOLD - _EPSILON:
        return "below"
    return None


@dataclass(frozen=True)
class BackendStats:
    median_s: float
    spread: float
    iqr_ratio: float | None = None
    drift: float | None = None

    @classmethod
    def of(cls, timed: list[float], long: bool) -> "BackendStats":
        return cls(median_s=statistics.median(timed), spread=spread(timed),
                   iqr_ratio=iqr_ratio(timed) if long else None,
                   drift=drift(timed) if long else None)

    @property
    def stable(self) -> bool:
        return ((self.iqr_ratio is None or self.iqr_ratio <= IQR_LIMIT + _EPSILON)
                and (self.drift is None or self.drift <= DRIFT_LIMIT + _EPSILON))


@dataclass(frozen=True)
class Measurement:
    """The protocol's outcome; `valid` False means: CPU this time, keep `auto`, save nothing."""

    valid: bool
    device: str
    reason_code: str
    reason: str
    threshold: float
    ratio: float | None
    sampling: str
    """"1+3" or "3+7": warm-up + timed runs per backend that decided."""
    extension_reasons: tuple[str, ...] = ()
    initial_ratio: float | None = None
    cpu_seconds: tuple[float, ...] = ()
    gpu_seconds: tuple[float, ...] = ()
    cpu_stats: BackendStats | None = None
    gpu_stats: BackendStats | None = None
    decoded: tuple[str, ...] = ()
    mismatch: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _check_decoding(expected: tuple[str, ...], runs: list[Run], name: str) -> str | None:
    for index, run in enumerate(runs):
        if run.decoded != expected:
            differing = next((i for i, (a, b) in enumerate(zip(expected, run.decoded)) if a != b),
                             min(len(expected), len(run.decoded)))
            return (f"{name} run {index + 1} decoded image {differing + 1} as "
                    f"{run.decoded[differing] if differing < len(run.decoded) else None!r}, "
                    f"the first CPU run as "
                    f"{expected[differing] if differing < len(expected) else None!r}")
    return None


def measure(run_cpu: Runner, run_gpu: Runner, threshold: float) -> Measurement:
    """Run the adaptive protocol; each runner performs one inference on its own session."""
    short = SHORT_WARMUP + SHORT_TIMED
    cpu_runs = [run_cpu() for _ in range(short)]
    gpu_runs = [run_gpu() for _ in range(short)]
    expected = cpu_runs[0].decoded
    mismatch = (_check_decoding(expected, cpu_runs, "CPU")
                or _check_decoding(expected, gpu_runs, "GPU"))
    if mismatch:
        return _mismatch(threshold, cpu_runs, gpu_runs, expected, mismatch, "1+3")
    cpu_timed = [r.seconds for r in cpu_runs[SHORT_WARMUP:]]
    gpu_timed = [r.seconds for r in gpu_runs[SHORT_WARMUP:]]
    initial_ratio = median_ratio(cpu_timed, gpu_timed)
    triggers = extension_triggers(cpu_timed, gpu_timed, threshold)
    if not triggers:
        return _decide(threshold, initial_ratio, "1+3", (), initial_ratio, cpu_runs, gpu_runs,
                       BackendStats.of(cpu_timed, False), BackendStats.of(gpu_timed, False),
                       expected)
    # Extend with the same sessions: the short run's 4th call stays as a formal sample.
    more = LONG_WARMUP + LONG_TIMED - short
    cpu_runs += [run_cpu() for _ in range(more)]
    gpu_runs += [run_gpu() for _ in range(more)]
    mismatch = (_check_decoding(expected, cpu_runs[short:], "CPU")
                or _check_decoding(expected, gpu_runs[short:], "GPU"))
    if mismatch:
        return _mismatch(threshold, cpu_runs, gpu_runs, expected, mismatch, "3+7")
    cpu_timed = [r.seconds for r in cpu_runs[LONG_WARMUP:]]
    gpu_timed = [r.seconds for r in gpu_runs[LONG_WARMUP:]]
    cpu_stats, gpu_stats = BackendStats.of(cpu_timed, True), BackendStats.of(gpu_timed, True)
    ratio = median_ratio(cpu_timed, gpu_timed)
    side = clear_side(cpu_timed, gpu_timed, threshold)
    if not (cpu_stats.stable and gpu_stats.stable) and side is not None:
        # Noise cannot change a decision that every pairing of the timed runs agrees on (a
        # busy machine far from the threshold): decide it now rather than measure every start.
        unsteady = _decide(threshold, ratio, "3+7", tuple(triggers), initial_ratio, cpu_runs,
                           gpu_runs, cpu_stats, gpu_stats, expected)
        low, high = ratio_bounds(cpu_timed, gpu_timed)
        return replace(unsteady, reason=(
            f"{unsteady.reason}; the timings were not stable, but every pairing of runs gives a ratio "
            f"clearly {side} the threshold ({low:.3f} to {high:.3f}), so noise cannot change it"))
    if not (cpu_stats.stable and gpu_stats.stable):
        unstable = [f"{name}: IQR/median {s.iqr_ratio:.3f}, drift {s.drift:.3f}"
                    for name, s in (("CPU", cpu_stats), ("GPU", gpu_stats)) if not s.stable]
        return Measurement(
            valid=False, device="cpu", reason_code=reasons.CALIBRATION_UNSTABLE,
            reason=(f"the timings were not stable enough to decide ({'; '.join(unstable)}; "
                    f"limits {IQR_LIMIT} and {DRIFT_LIMIT})"),
            threshold=threshold, ratio=ratio, sampling="3+7", extension_reasons=tuple(triggers),
            initial_ratio=initial_ratio, cpu_seconds=_seconds(cpu_runs),
            gpu_seconds=_seconds(gpu_runs), cpu_stats=cpu_stats, gpu_stats=gpu_stats,
            decoded=expected)
    return _decide(threshold, ratio, "3+7", tuple(triggers), initial_ratio, cpu_runs, gpu_runs,
                   cpu_stats, gpu_stats, expected)


def _seconds(runs: list[Run]) -> tuple[float, ...]:
    return tuple(r.seconds for r in runs)


def _decide(threshold: float, ratio: float, sampling: str, triggers: tuple[str, ...],
            initial_ratio: float, cpu_runs: list[Run], gpu_runs: list[Run],
            cpu_stats: BackendStats, gpu_stats: BackendStats,
            expected: tuple[str, ...]) -> Measurement:
    gpu_wins = ratio <= threshold
    code = reasons.GPU_FASTER if gpu_wins else reasons.GPU_SLOWER
    comparison = "at or below" if gpu_wins else "above"
    return Measurement(
        valid=True, device="gpu" if gpu_wins else "cpu", reason_code=code,
        reason=(f"the GPU took {ratio:.3f} of the CPU's time (median of {sampling} runs), "
                f"{comparison} the threshold {threshold}"),
        threshold=threshold, ratio=ratio, sampling=sampling, extension_reasons=triggers,
        initial_ratio=initial_ratio, cpu_seconds=_seconds(cpu_runs),
        gpu_seconds=_seconds(gpu_runs), cpu_stats=cpu_stats, gpu_stats=gpu_stats,
        decoded=expected)


def _mismatch(threshold: float, cpu_runs: list[Run], gpu_runs: list[Run],
              expected: tuple[str, ...], mismatch: str, sampling: str) -> Measurement:
    return Measurement(
        valid=False, device="cpu", reason_code=reasons.CALIBRATION_MISMATCH,
        reason=f"the decoded text differed: {mismatch}", threshold=threshold, ratio=None,
        sampling=sampling, cpu_seconds=_seconds(cpu_runs), gpu_seconds=_seconds(gpu_runs),
        decoded=expected, mismatch=mismatch)


@dataclass(frozen=True)
class CalibrationOutcome:
    """A finished calibration (`measurement`), or why there is none (timeout, crash, ...)."""

    measurement: Measurement | None
    failure_code: str | None = None
    failure: str | None = None
    measured_at: str | None = None
    report_path: str | None = None

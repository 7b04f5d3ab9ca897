"""Which ONNX Runtime distributions provide `import onnxruntime`: DirectML needs exactly one.

`onnxruntime` and `onnxruntime-directml` (and -gpu, -openvino, ...) all install the same
`onnxruntime` package folder. With two of them, whichever was installed last has overwritten
part of the other's files, and the failure shows up later as a missing provider or a DLL that
will not load. Reading the installed distributions' metadata says plainly what is wrong."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import metadata

from engine.errors import PaperlensError

MODULE = "onnxruntime"
DIRECTML_DISTRIBUTION = "onnxruntime-directml"

DistributionMap = Callable[[], Mapping[str, Sequence[str]]]
"""Top-level import name -> distributions providing it (importlib.metadata's shape)."""


class OnnxRuntimeInstallConflict(PaperlensError):
    """Two ONNX Runtime distributions are installed side by side."""

    def __init__(self, distributions: Sequence[str]) -> None:
        self.distributions = tuple(distributions)
        self.detail = conflict_detail(self.distributions)
        """The specifics and the fix, without the opening sentence (for a decision reason)."""
        super().__init__("Two ONNX Runtime packages are installed side by side; they overwrite "
                         f"each other's files ({self.detail}).")


def ort_distributions(packages: DistributionMap = metadata.packages_distributions
                      ) -> tuple[str, ...]:
    """The installed distributions that provide the `onnxruntime` package, sorted and unique.

    Reads metadata only (no import of onnxruntime, no hardware), so it is safe to call when
    importing onnxruntime itself has just failed."""
    names = packages().get(MODULE, ())
    # Distribution names are case- and separator-insensitive (PEP 503).
    return tuple(sorted({n.lower().replace("_", "-") for n in names}))


def conflict_detail(distributions: Sequence[str]) -> str:
    return (f"installed: {', '.join(distributions)}; remove them all with "
            f"`pip uninstall -y {' '.join(distributions)}`, then install only the one for this "
            f"system: {DIRECTML_DISTRIBUTION} on Windows x64, onnxruntime elsewhere")


def install_conflict(packages: DistributionMap = metadata.packages_distributions
                     ) -> OnnxRuntimeInstallConflict | None:
    """The conflict when more than one distribution provides `onnxruntime`, else None."""
    try:
        found = ort_distributions(packages)
    except Exception:  # unreadable metadata must not hide the original problem
        return None
    return OnnxRuntimeInstallConflict(found) if len(found) > 1 else None


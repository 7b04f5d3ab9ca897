"""The calibration process: times the rec model on the CPU and the GPU (run as a module).

`python -m engine.device.calibration_process REQUEST.json` reads what to measure, runs the
protocol of engine.device.calibration on the shipped calibration images and writes its result
to the path the request names. It runs in its own process so that a hung driver, a crash in
Dawn or a slow shader compiler costs the app nothing but the budget the parent enforces."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()

import cv2  # noqa: E402  (the start-up time above must include these imports)
import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402

from engine.device import reasons  # noqa: E402
from engine.device.calibration import Run, measure  # noqa: E402
from engine.device.types import Backend, GpuTarget  # noqa: E402
from engine.device.webgpu import PROVIDER_OPTIONS, WebGpuBackend, plugin_version  # noqa: E402
from engine.runtime.gpu import GpuSessionError  # noqa: E402
from engine.runtime.sessions import CPU_PROVIDER, RuntimeOptions  # noqa: E402
from engine.models.sources import sha256_file  # noqa: E402
from engine.ocr.recognition import (  # noqa: E402
    crop_width_at_height,
    ctc_decode,
    grid_width,
    load_dictionary,
    rec_input,
)

MANIFEST = "manifest.json"


class CalibrationInputError(RuntimeError):
    pass


def load_images(folder: Path) -> tuple[list[np.ndarray], list[dict[str, Any]]]:
    """The calibration lines as RGB arrays, each checked against the manifest's SHA-256."""
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    images, entries = [], []
    for entry in manifest["images"]:
        path = folder / entry["file"]
        digest = sha256_file(path) if path.is_file() else None
        if digest != entry["sha256"]:
            raise CalibrationInputError(f"calibration image {path} is missing or damaged "
                                        f"(SHA-256 {digest}, expected {entry['sha256']})")
        bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
        images.append(np.ascontiguousarray(bgr[:, :, ::-1]))
        entries.append({"file": entry["file"], "sha256": digest, "text": entry["text"]})
    return images, entries


def timed_runner(session: ort.InferenceSession, batch: np.ndarray, dictionary: list[str]):
    name = session.get_inputs()[0].name
    outputs = [o.name for o in session.get_outputs()]

    def run() -> Run:
        start = time.perf_counter()
        ids, scores = session.run(outputs, {name: batch})
        seconds = time.perf_counter() - start
        return Run(seconds, tuple(r.text for r in ctc_decode(ids, scores, dictionary)))

    return run


def calibrate(request: dict[str, Any]) -> dict[str, Any]:
    timings: dict[str, float] = {"startup_s": time.perf_counter() - STARTED}
    result: dict[str, Any] = {
        "ok": False, "versions": {"onnxruntime": ort.__version__, "ep": plugin_version(),
                                  "python": sys.version.split()[0]},
        "timings": timings,
    }
    model_path = Path(request["model_path"])
    start = time.perf_counter()
    images, entries = load_images(Path(request["images_dir"]))
    width = grid_width(max(crop_width_at_height(image) for image in images))
    batch = rec_input(images, width)
    timings["inputs_s"] = time.perf_counter() - start
    result["inputs"] = {"images": entries, "batch_shape": list(batch.shape),
                        "batch_sha256": hashlib.sha256(batch.tobytes()).hexdigest()}
    options = RuntimeOptions(threads=int(request["threads"]))
    result["options"] = {"intra_op_threads": options.threads, "inter_op_threads": 1,
                         "graph_optimization": "all", "webgpu_provider_options": PROVIDER_OPTIONS,
                         "python_fallback": "disabled"}

    start = time.perf_counter()
    cpu = ort.InferenceSession(str(model_path), sess_options=options.session_options(),
                               providers=[CPU_PROVIDER])
    timings["cpu_session_s"] = time.perf_counter() - start
    dictionary = load_dictionary(dict(cpu.get_modelmeta().custom_metadata_map))

    target = GpuTarget.from_json(request["target"])
    start = time.perf_counter()
    try:
        if target.description.backend == Backend.DML.value:
            # The production preset of the model measured (rec) on this adapter's vendor.
            from engine.device.dml_backend import DmlBackend, dml_version
            from engine.device.dml_presets import provider_options

            result["versions"]["ep"] = dml_version()
            result["options"]["dml_provider_options"] = provider_options(
                target.description.vendor_id, "rec")
            gpu = DmlBackend().create_session(model_path, options.session_options(), target,
                                              role="rec")
        else:
            gpu = WebGpuBackend().create_session(model_path, options.session_options(), target)
    except GpuSessionError as exc:
        result.update(failure_code=exc.code, failure=f"GPU session: {exc}")
        return result
    timings["gpu_session_s"] = time.perf_counter() - start
    result["providers"] = {"cpu": cpu.get_providers(), "gpu": gpu.get_providers()}

    start = time.perf_counter()
    measurement = measure(timed_runner(cpu, batch, dictionary),
                          timed_runner(gpu, batch, dictionary), float(request["threshold"]))
    timings["protocol_s"] = time.perf_counter() - start
    result.update(ok=True, measurement=measurement.to_json())
    return result


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m engine.device.calibration_process REQUEST.json", file=sys.stderr)
        return 2
    request = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    try:
        result = calibrate(request)
    except CalibrationInputError as exc:
        result = {"ok": False, "failure_code": reasons.CALIBRATION_FAILED, "failure": str(exc)}
    out = Path(request["result_path"])
    tmp = out.with_name(out.name + f".{os.getpid()}.part")
    tmp.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

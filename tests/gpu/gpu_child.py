"""One GPU scenario, run inside a private mount namespace with fake /sys/class/drm entries.

Started by test_gpu_webgpu_lavapipe.py as
    unshare -m --propagation private sh -c 'mount -t tmpfs ... && exec python gpu_child.py ...'
so ONNX Runtime lists the fake PCI GPUs while Dawn, on Vulkan, finds only Mesa's lavapipe. Writes
what it saw as JSON to the path given; the test asserts on that."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))

CONSTRAINT_VARIABLES = ("MESA_VK_DEVICE_SELECT", "NODEVICE_SELECT", "VK_LOADER_VENDOR_ID_FILTER",
                        "VK_LOADER_DEVICE_ID_FILTER")
PAGE_LINES = ("Invoice 2024-117", "Total due: 4,096.50 EUR", "Thank you for your order")


def constraint_env() -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in CONSTRAINT_VARIABLES}


def plugin_state() -> dict:
    maps = Path("/proc/self/maps").read_text()
    return {"module_imported": "onnxruntime_ep_webgpu" in sys.modules,
            "library_mapped": "libonnxruntime_providers_webgpu" in maps,
            "vulkan_mapped": "libvulkan" in maps}


def load(environ_extra: dict[str, str] | None = None):
    from settings import SettingsStore

    env = dict(os.environ)
    env.update(environ_extra or {})
    return SettingsStore(os.environ["PAPERLENS_CONFIG"], env).load()


def page_image(folder: Path) -> Path:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=300, height=140)
    for i, text in enumerate(PAGE_LINES):
        page.insert_text((20, 35 + i * 30), text, fontsize=14)
    path = folder / "page.png"
    page.get_pixmap(dpi=150).save(str(path))
    doc.close()
    return path


def sessions(engine) -> list[dict]:
    return [{"role": s.role, "device": s.device, "requested": s.requested_device,
             "providers": list(s.providers), "fallback_reason": s.fallback_reason}
            for s in engine.models.sessions.created()]


def convert(engine, image: Path) -> tuple[str, float]:
    from engine.options import ConvertOptions, TextMethod

    start = time.perf_counter()
    # Layout off: this is about the device, and the OCR models are the ones on the GPU here.
    result = engine.convert(image, ConvertOptions(method=TextMethod.OCR, layout_model=None))
    return result.markdown, time.perf_counter() - start


def first_model_use(engine) -> float:
    """What the first page does before inference: build the OCR models (decides the device)."""
    start = time.perf_counter()
    engine.models.page_reader()
    return time.perf_counter() - start


def reports() -> list[dict]:
    from engine.device.persistence import data_dir, reports_dir

    folder = reports_dir(data_dir())
    return [json.loads(p.read_text()) | {"path": str(p)}
            for p in sorted(folder.glob("calibration-*.json"))]


def scenario_forced_gpu(work: Path) -> dict:
    from engine.api import Engine

    image = page_image(work)
    gpu_engine = Engine(load({"PAPERLENS_MODEL_ONNX_DEVICE": "gpu"}))
    gpu_text, gpu_s = convert(gpu_engine, image)
    cpu_engine = Engine(load({"PAPERLENS_MODEL_ONNX_DEVICE": "cpu"}))
    cpu_text, cpu_s = convert(cpu_engine, image)
    return {"status": gpu_engine.device_status().to_json(), "sessions": sessions(gpu_engine),
            "gpu_markdown": gpu_text, "cpu_markdown": cpu_text, "gpu_s": gpu_s, "cpu_s": cpu_s,
            "cpu_sessions": sessions(cpu_engine), "expected": PAGE_LINES}


def scenario_auto(work: Path) -> dict:
    from engine.api import Engine

    engine = Engine(load())
    seconds = first_model_use(engine)
    return {"status": engine.device_status().to_json(), "seconds": seconds,
            "settings_file": json.loads(Path(os.environ["PAPERLENS_CONFIG"]).read_text()),
            "reports": reports(), "sessions": sessions(engine)}


def scenario_timeout(work: Path) -> dict:
    from engine.api import Engine

    first = Engine(load())
    first_s = first_model_use(first)
    # Another engine in the same process (e.g. the GUI after re-opening preferences).
    second = Engine(load())
    second_s = first_model_use(second)
    config = Path(os.environ["PAPERLENS_CONFIG"])
    return {"first": first.device_status().to_json(), "first_s": first_s,
            "second": second.device_status().to_json(), "second_s": second_s,
            "settings_file": json.loads(config.read_text()) if config.exists() else None,
            "reports": reports()}


def scenario_policy(work: Path) -> dict:
    from engine.api import Engine

    results = {}
    for configured in ("auto", "gpu"):
        engine = Engine(load({"PAPERLENS_MODEL_ONNX_DEVICE": configured}))
        first_model_use(engine)
        results[configured] = engine.device_status().to_json()
    return {"statuses": results, "plugin": plugin_state(), "reports": reports()}


def scenario_cpu(work: Path) -> dict:
    from engine.api import Engine

    engine = Engine(load({"PAPERLENS_MODEL_ONNX_DEVICE": "cpu"}))
    text, seconds = convert(engine, page_image(work))
    return {"status": engine.device_status().to_json(), "plugin": plugin_state(),
            "sessions": sessions(engine), "markdown": text}


def scenario_no_adapter(work: Path) -> dict:
    from engine.api import Engine

    engine = Engine(load({"PAPERLENS_MODEL_ONNX_DEVICE": "gpu"}))
    text, _ = convert(engine, page_image(work))
    return {"status": engine.device_status().to_json(), "sessions": sessions(engine),
            "markdown": text}


def scenario_mixed_invisible(work: Path) -> dict:
    from engine.api import Engine

    before = constraint_env()
    engine = Engine(load({"PAPERLENS_MODEL_ONNX_DEVICE": "gpu"}))
    first_model_use(engine)
    return {"status": engine.device_status().to_json(), "env_before": before,
            "env_after": constraint_env(), "sessions": sessions(engine)}


def scenario_mixed_llvmpipe(work: Path) -> dict:
    """Intel 8086:4680 + an entry with llvmpipe's ids, the loader constrained to llvmpipe.

    ORT 1.32 parses sysfs vendor ids as 16-bit PCI ids, so it drops 0x10005 (Mesa's Vulkan
    vendor id) and lists only the Intel card. The fake entry is therefore added to the
    inventory fact here, read from the same fake sysfs; its EP device is the Intel card's,
    which is fine because the WebGPU EP device does not bind the physical adapter (Dawn picks
    it, inside the constraint). Everything else is real: the PCI pre-check, the plugin, the
    Vulkan enumeration, the device-select constraint and its verification, the session."""
    import numpy as np

    from engine.device.calibration_process import load_images, timed_runner
    from engine.device.pci_inventory import read_drm_gpus
    from engine.device.policy import Inventory
    from engine.device.selector import DeviceSelector
    from engine.device.types import GpuDescription
    from engine.device.vulkan_probe import VulkanProbe
    from engine.device.webgpu import WebGpuBackend
    from engine.runtime.sessions import SessionFactory
    from engine.ocr.recognition import crop_width_at_height, grid_width, load_dictionary, rec_input
    from resources import resource_path

    seen: list[dict] = []

    class RecordingProbe(VulkanProbe):
        def enumerate(self):
            view = super().enumerate()
            seen.append({"MESA_VK_DEVICE_SELECT": os.environ.get("MESA_VK_DEVICE_SELECT"),
                         "devices": [f"{d.name} [{d.ids}]" for d in view.devices]})
            return view

    class Backend(WebGpuBackend):
        def inventory(self):
            listed = super().inventory()
            known = {d.card_index for d in listed.devices}
            extra = tuple(GpuDescription("webgpu", g.vendor_id, g.device_id,
                                         card_index=g.card_index)
                          for g in read_drm_gpus() if g.card_index not in known)
            return Inventory(listed.backend, listed.devices + extra, listed.problem_code,
                             listed.problem)

        def ep_device(self, description):
            try:
                return super().ep_device(description)
            except Exception:
                from engine.device.webgpu import _webgpu_ep_devices
                return _webgpu_ep_devices()[0]

    before = constraint_env()
    settings = load({"PAPERLENS_MODEL_ONNX_DEVICE": "gpu"})
    backend = Backend(RecordingProbe())
    selector = DeviceSelector(settings, backend=backend)
    factory = SessionFactory(device=selector)
    from engine.models.store import ModelStore

    store = ModelStore(Path(settings.model.base_dir), settings.model.index_url)
    rec_path = store.derived_rec(store.default_for_role("rec").id)
    gpu = factory.session("rec", rec_path)
    env_after_session = constraint_env()
    cpu = SessionFactory().session("rec", rec_path)
    images, _ = load_images(resource_path("calibration"))
    batch = rec_input(images, grid_width(max(crop_width_at_height(i) for i in images)))
    dictionary = load_dictionary(gpu.metadata)
    gpu_run = timed_runner(gpu._session, batch, dictionary)()
    cpu_run = timed_runner(cpu._session, batch, dictionary)()
    ids_equal = bool(np.array_equal(gpu.run(batch)[0], cpu.run(batch)[0]))
    return {"status": selector.status().to_json(), "enumerations": seen,
            "env_before": before, "env_after_session": env_after_session,
            "env_after": constraint_env(), "gpu_session": asdict(gpu.info),
            "gpu_decoded": list(gpu_run.decoded), "cpu_decoded": list(cpu_run.decoded),
            "ids_equal": ids_equal, "gpu_s": gpu_run.seconds, "cpu_s": cpu_run.seconds}


SCENARIOS = {name[len("scenario_"):]: fn for name, fn in globals().items()
             if name.startswith("scenario_")}


def main() -> int:
    name, out = sys.argv[1], Path(sys.argv[2])
    work = out.parent
    start = time.perf_counter()
    result = SCENARIOS[name](work)
    result["wall_s"] = time.perf_counter() - start
    out.write_text(json.dumps(result, ensure_ascii=False, default=str, indent=1),
                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Start-up cost: importing the engine and building Engine(settings) touches no GPU code.

Checked in a fresh interpreter with an audit hook that records every ctypes library load, every
file opened under /sys/class/drm or /dev/dri, and every import of the WebGPU plugin package,
and with ORT's plugin entry points wrapped to record calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

RECORDER = r"""
import json, sys
seen = {"dlopen": [], "gpu_files": [], "plugin_import": False, "ort_calls": []}

def hook(event, args):
    if event == "ctypes.dlopen":
        seen["dlopen"].append(str(args[0]))
    elif event in ("open", "os.scandir", "os.listdir") and args and isinstance(args[0], str) \
            and args[0].startswith(("/sys/class/drm", "/dev/dri")):
        seen["gpu_files"].append(args[0])
    elif event == "import" and args[0] == "onnxruntime_ep_webgpu":
        seen["plugin_import"] = True

sys.addaudithook(hook)
import onnxruntime as ort
for name in ("register_execution_provider_library", "get_ep_devices"):
    real = getattr(ort, name)
    def wrapped(*a, _real=real, _name=name, **k):
        seen["ort_calls"].append(_name)
        return _real(*a, **k)
    setattr(ort, name, wrapped)
"""

REPORT = r"""
maps = open("/proc/self/maps").read()
seen["mapped_plugin"] = "libonnxruntime_providers_webgpu" in maps
seen["mapped_vulkan"] = "libvulkan" in maps
seen["gpu_dlopen"] = [n for n in seen["dlopen"] if "vulkan" in n or "webgpu" in n]
print("RESULT " + json.dumps(seen))
"""


def run_recorded(body: str, env_extra: dict[str, str], tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERLENS_")}
    env.update({"PAPERLENS_CONFIG": str(tmp_path / "settings.json"),
                "XDG_DATA_HOME": str(tmp_path / "data"), **env_extra})
    result = subprocess.run([sys.executable, "-c", RECORDER + body + REPORT], cwd=REPO_ROOT,
                            env=env, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    line = [l for l in result.stdout.splitlines() if l.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def assert_untouched(seen: dict) -> None:
    assert seen["plugin_import"] is False
    assert seen["ort_calls"] == []
    assert seen["gpu_dlopen"] == [] and seen["gpu_files"] == []
    assert seen["mapped_plugin"] is False and seen["mapped_vulkan"] is False


def test_import_and_engine_construction_touch_no_gpu(tmp_path):
    body = r"""
import engine, engine.api, engine.cli.main
from settings import load_settings
engine_ = engine.api.Engine(load_settings())
status = engine_.device_status()
assert status.decided_by == "not yet" and status.configured == "auto", status
"""
    assert_untouched(run_recorded(body, {}, tmp_path))


def test_cpu_decides_without_loading_the_plugin(tmp_path):
    body = r"""
from settings import load_settings
from engine.api import Engine
engine_ = Engine(load_settings())
decision = engine_.models.sessions.device.decision()
assert (decision.device, decision.decided_by) == ("cpu", "explicit"), decision
assert engine_.device_status().effective == "cpu"
"""
    assert_untouched(run_recorded(body, {"PAPERLENS_MODEL_ONNX_DEVICE": "cpu"}, tmp_path))


def test_the_recorder_does_see_a_gpu_probe(tmp_path):
    # A control: `auto` at the first model use lists the kernel's GPUs, and the hook sees it.
    body = r"""
from settings import load_settings
from engine.api import Engine
Engine(load_settings()).models.sessions.device.decision()
"""
    seen = run_recorded(body, {"PAPERLENS_MODEL_ONNX_DEVICE": "auto"}, tmp_path)
    assert "/sys/class/drm" in seen["gpu_files"]

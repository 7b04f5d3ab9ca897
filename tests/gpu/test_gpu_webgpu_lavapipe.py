"""The real WebGPU path on Mesa's lavapipe, with fake PCI GPUs in a private mount namespace.

Each scenario runs in a child process started under `unshare -m` with a tmpfs over /sys/class
holding fake drm/cardN/device/{vendor,device,class} files: ONNX Runtime then lists those GPUs,
while Dawn, on Vulkan, finds llvmpipe. Needs root, util-linux, libvulkan1 and
mesa-vulkan-drivers 25 (`make sysdeps`). Under CI, and as root on Debian, a missing piece is
a failure, not a skip."""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.gpu, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("gpu_child.py")
NVIDIA = "10de:2489"
INTEL_OLD = "8086:4680"
INTEL_XE_LPG = "8086:7d55"
LLVMPIPE_IDS = "10005:0000"
# lavapipe compiles every shader on first use (about 20 s for the rec model on a quiet machine,
# several times that on a busy one); the product's 15 s budget is for real GPUs.
LAVAPIPE_BUDGET_S = "300"
CHILD_TIMEOUT_S = 900


def _mesa_major() -> int | None:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "mesa-vulkan-drivers"],
                             capture_output=True, text=True, timeout=30).stdout
        return int(out.split(".")[0].split(":")[-1]) if out else None
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def setup_problem() -> str | None:
    if not sys.platform.startswith("linux"):
        return "the WebGPU backend and these tests are Linux-only"
    if os.geteuid() != 0:
        return "needs root: the fake /sys/class/drm is mounted in a private namespace"
    if shutil.which("unshare") is None:
        return "`unshare` (util-linux) is missing"
    try:
        ctypes.CDLL("libvulkan.so.1")
    except OSError:
        return "libvulkan.so.1 is missing (apt-get install libvulkan1; see `make sysdeps`)"
    major = _mesa_major()
    if major is None or major < 25:
        return (f"mesa-vulkan-drivers 25 (lavapipe) is needed, found {major}; "
                "run `make sysdeps` (bookworm-backports on Debian 12)")
    if importlib.util.find_spec("onnxruntime_ep_webgpu") is None:
        return "the onnxruntime-ep-webgpu package is not installed"
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                           capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        return f"`unshare -m` is not allowed here: {probe.stderr.strip()}"
    return None


def must_run() -> bool:
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    return bool(os.environ.get("CI")) or (root and Path("/etc/debian_version").exists())


@pytest.fixture(scope="module", autouse=True)
def _lavapipe_setup():
    problem = setup_problem()
    if problem:
        if must_run():
            pytest.fail(f"GPU test set-up missing: {problem}", pytrace=False)
        pytest.skip(problem)
    from engine.models.store import ModelStore
    from settings import default_model_dir

    store = ModelStore(default_model_dir(os.environ))
    missing = [r for r in ("det", "cls", "rec")
               if not store.status(store.default_for_role(r).id).installed]
    if missing:
        pytest.skip(f"default models not in the cache ({', '.join(missing)}); run "
                    "`paperlens-cli models fetch` first")


def fake_sysfs_command(cards: list[str], argv: list[str]) -> str:
    steps = ["mount -t tmpfs paperlens-fake-sysfs /sys/class"]
    for index, ids in enumerate(cards):
        vendor, device = ids.split(":")
        folder = f"/sys/class/drm/card{index}/device"
        steps += [f"mkdir -p {folder}", f"printf '0x{vendor}\\n' > {folder}/vendor",
                  f"printf '0x{device}\\n' > {folder}/device",
                  f"printf '0x030000\\n' > {folder}/class"]
    steps.append("exec " + " ".join(shlex.quote(a) for a in argv))
    return " && ".join(steps)


def run_scenario(name: str, cards: list[str], tmp_path: Path, settings: dict | None = None,
                 env: dict[str, str] | None = None) -> dict:
    config = tmp_path / "settings.json"
    if settings is not None:
        config.write_text(json.dumps(settings))
    out = tmp_path / f"{name}.json"
    child_env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERLENS_")
                 and k not in ("MESA_VK_DEVICE_SELECT", "VK_LOADER_VENDOR_ID_FILTER",
                               "VK_LOADER_DEVICE_ID_FILTER", "VK_DRIVER_FILES",
                               "VK_ICD_FILENAMES")}
    child_env.update({"PAPERLENS_CONFIG": str(config), "XDG_DATA_HOME": str(tmp_path / "data"),
                      "PAPERLENS_CALIBRATION_TIMEOUT_S": LAVAPIPE_BUDGET_S, **(env or {})})
    # Timings on lavapipe are CPU timings: on a shared machine, other work makes them noisy
    # enough to fail the stability rules, so the child gets the scheduler's preference.
    command = fake_sysfs_command(cards, ["nice", "-n", "-10", sys.executable, str(CHILD), name,
                                         str(out)])
    result = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", command],
                            cwd=REPO_ROOT, env=child_env, capture_output=True, text=True,
                            timeout=CHILD_TIMEOUT_S)
    assert result.returncode == 0 and out.exists(), (
        f"scenario {name} failed ({result.returncode}):\n{result.stderr[-4000:]}")
    data = json.loads(out.read_text(encoding="utf-8"))
    print(f"{name}: {data['wall_s']:.1f} s in the child")
    return data


def by_role(sessions: list[dict]) -> dict[str, dict]:
    return {s["role"]: s for s in sessions}


def test_forced_gpu_converts_a_page_on_webgpu_with_the_cpu_text(tmp_path):
    data = run_scenario("forced_gpu", [NVIDIA], tmp_path)
    status = data["status"]
    assert (status["effective"], status["backend"], status["decided_by"]) == (
        "gpu", "webgpu", "explicit")
    roles = by_role(data["sessions"])
    for role in ("det", "rec"):
        assert roles[role]["device"] == "gpu", roles[role]
        assert roles[role]["providers"][0] == "WebGpuExecutionProvider"
    assert roles["cls"]["device"] == "cpu"
    assert all(s["device"] == "cpu" for s in data["cpu_sessions"])
    assert data["gpu_markdown"] == data["cpu_markdown"]
    for line in data["expected"]:
        assert line in data["gpu_markdown"].replace("\n", " ")


CALIBRATION_ATTEMPTS = 3


def _calibrated(tmp_path, cards: list[str], name: str = "auto") -> dict:
    """Run `auto`; a measurement that a busy machine made too noisy to trust (lavapipe's GPU
    times are CPU times) is not saved, and is measured again in a new process, as the product
    does on the next run."""
    data = run_scenario(name, cards, tmp_path, settings={})
    for _ in range(CALIBRATION_ATTEMPTS - 1):
        if data["status"]["reason_code"] != "calibration_invalid":
            break
        assert data["settings_file"].get("model", {}).get("onnx_device", "auto") == "auto"
        print(f"unstable measurement, not saved; measuring again: {data['status']['reason']}")
        data = run_scenario(name, cards, tmp_path)
    return data


@pytest.mark.calibration
def test_auto_calibrates_picks_the_cpu_on_lavapipe_and_saves_it(tmp_path):
    data = _calibrated(tmp_path, [NVIDIA])
    status = data["status"]
    assert (status["effective"], status["decided_by"], status["reason_code"]) == (
        "cpu", "measured", "gpu_slower"), status
    assert status["ratio"] > 2.0  # far above 0.8: lavapipe is the CPU pretending
    assert data["settings_file"]["model"]["onnx_device"] == "cpu"
    saved = data["settings_file"]["device"]["calibration"]["measurement"]
    assert saved["device"] == "cpu" and saved["ratio"] == pytest.approx(status["ratio"])
    report = data["reports"][-1]
    assert report["schema_version"] == 1 and report["backend"] == "webgpu"
    assert report["outcome"] == "finished" and report["decision"]["valid"] is True
    result = report["result"]
    assert result["versions"]["onnxruntime"] and result["versions"]["ep"]
    assert result["providers"]["gpu"][0] == "WebGpuExecutionProvider"
    assert len(result["inputs"]["images"]) == 6 and len(report["model"]["sha256"]) == 64
    measurement = result["measurement"]
    assert measurement["threshold"] == 0.8 and len(measurement["cpu_seconds"]) >= 4
    assert report["saved"].startswith("saved to")
    print(f"lavapipe ratio {status['ratio']:.2f} ({measurement['sampling']}): CPU median "
          f"{measurement['cpu_stats']['median_s']:.3f} s, GPU median "
          f"{measurement['gpu_stats']['median_s']:.2f} s; first model use "
          f"{data['seconds']:.1f} s (calibration process {report['elapsed_s']:.1f} s)")


def test_one_second_budget_times_out_keeps_auto_and_is_not_retried(tmp_path):
    data = run_scenario("timeout", [NVIDIA], tmp_path, settings={"ui": {"language": "en"}},
                        env={"PAPERLENS_CALIBRATION_TIMEOUT_S": "1"})
    first, second = data["first"], data["second"]
    assert (first["effective"], first["decided_by"], first["reason_code"]) == (
        "cpu", "fallback", "calibration_timeout")
    assert second["reason_code"] == "calibration_not_retried"
    assert data["settings_file"] == {"ui": {"language": "en"}}  # still auto, nothing saved
    assert len(data["reports"]) == 1 and data["reports"][0]["outcome"] == "timeout"
    assert data["second_s"] < 5


def test_old_intel_is_cpu_by_policy_without_loading_the_plugin(tmp_path):
    data = run_scenario("policy", [INTEL_OLD], tmp_path)
    for configured in ("auto", "gpu"):
        status = data["statuses"][configured]
        assert (status["effective"], status["reason_code"]) == (
            "cpu", "webgpu_architecture_policy"), status
        assert "8086:4680" in status["fallback_reason"]
    assert data["plugin"] == {"module_imported": False, "library_mapped": False,
                              "vulkan_mapped": False}
    assert data["reports"] == []


@pytest.mark.calibration
def test_intel_xe_lpg_is_calibrated(tmp_path):
    data = run_scenario("auto", [INTEL_XE_LPG], tmp_path, settings={})
    report = data["reports"][-1]
    description = report["target"]["description"]
    assert (description["vendor_id"], description["device_id"]) == (0x8086, 0x7D55)
    # The policy let it through and the measurement ran to the end; whether lavapipe's
    # timings were steady enough to decide is the protocol's business, tested elsewhere.
    assert report["outcome"] == "finished" and report["result"]["ok"] is True
    assert report["result"]["measurement"]["ratio"] > 0.8
    assert data["status"]["reason_code"] in ("gpu_slower", "calibration_invalid")


def test_dawn_finding_no_adapter_ends_on_the_cpu_with_the_reason(tmp_path):
    # The ORT device is there (fake PCI entry) but the Vulkan loader finds no driver.
    data = run_scenario("no_adapter", [NVIDIA], tmp_path,
                        env={"VK_DRIVER_FILES": str(tmp_path / "no-such-icd.json")})
    status = data["status"]
    assert (status["effective"], status["decided_by"], status["reason_code"]) == (
        "cpu", "fallback", "no_adapter"), status
    assert "WebGPU adapter" in status["fallback_reason"]
    roles = by_role(data["sessions"])
    assert roles["det"]["requested"] == "gpu" and roles["det"]["device"] == "cpu"
    assert roles["det"]["fallback_reason"] and roles["rec"]["device"] == "cpu"
    assert "Invoice 2024-117" in data["markdown"]


def test_mixed_intel_and_nvidia_with_only_llvmpipe_visible_is_cpu(tmp_path):
    data = run_scenario("mixed_invisible", [INTEL_OLD, NVIDIA], tmp_path)
    status = data["status"]
    assert (status["effective"], status["reason_code"]) == ("cpu", "no_allowed_gpu_visible")
    assert "llvmpipe" in status["fallback_reason"] and "10de:2489" in status["fallback_reason"]
    assert any("not used by policy" in note for note in status["notes"])
    assert data["env_after"] == data["env_before"]
    assert all(s["device"] == "cpu" for s in data["sessions"])


def test_mixed_intel_and_llvmpipe_constrains_the_loader_and_runs_there(tmp_path):
    data = run_scenario("mixed_llvmpipe", [INTEL_OLD, LLVMPIPE_IDS], tmp_path)
    status = data["status"]
    assert (status["effective"], status["backend"]) == ("gpu", "webgpu"), status
    assert status["adapter"].startswith("llvmpipe")
    # Verified by enumerating under the constraint: only llvmpipe was left.
    constrained = [e for e in data["enumerations"] if e["MESA_VK_DEVICE_SELECT"]]
    assert constrained and all(e["MESA_VK_DEVICE_SELECT"] == "10005:0000!" for e in constrained)
    assert all(len(e["devices"]) == 1 and "llvmpipe" in e["devices"][0] for e in constrained)
    assert data["gpu_session"]["device"] == "gpu"
    assert data["gpu_session"]["providers"][0] == "WebGpuExecutionProvider"
    assert data["gpu_decoded"] == data["cpu_decoded"] and data["ids_equal"]
    assert data["env_after_session"] == data["env_before"] == data["env_after"]


def test_cpu_setting_never_loads_the_plugin_even_with_a_gpu_listed(tmp_path):
    data = run_scenario("cpu", [NVIDIA], tmp_path)
    assert (data["status"]["effective"], data["status"]["decided_by"]) == ("cpu", "explicit")
    assert data["plugin"] == {"module_imported": False, "library_mapped": False,
                              "vulkan_mapped": False}
    assert all(s["device"] == "cpu" for s in data["sessions"])
    assert "Invoice 2024-117" in data["markdown"]


def test_vulkan_probe_sees_lavapipe_without_a_logical_device():
    from engine.device.vulkan_probe import VulkanProbe

    view = VulkanProbe().enumerate()
    assert view.problem is None, view.problem
    assert any(d.vendor_id == 0x10005 and d.name.startswith("llvmpipe") and d.kind == "software"
               for d in view.devices)
    assert tuple(int(p) for p in view.loader_version.split(".")) >= (1, 1, 0)

"""Stable codes for why a device was chosen, with the sentence a person reads for each."""

from __future__ import annotations

# Codes are what scripts and the GUI key on; the sentences are the English fallback the CLI
# prints. A decision's `reason` adds the specifics (names, numbers) to these.
PLUGIN_MISSING = "backend_unavailable"
VULKAN_MISSING = "vulkan_missing"
UNSUPPORTED_PLATFORM = "unsupported_platform"
NO_GPU = "no_gpu_found"
ARCHITECTURE_POLICY = "webgpu_architecture_policy"
VULKAN_PROBE_FAILED = "vulkan_probe_failed"
NO_ALLOWED_GPU_VISIBLE = "no_allowed_gpu_visible"
FILTER_UNVERIFIED = "device_filter_unverified"
NO_ADAPTER = "no_adapter"
SESSION_FAILED = "session_failed"
CALIBRATION_TIMEOUT = "calibration_timeout"
CALIBRATION_FAILED = "calibration_failed"
CALIBRATION_MISMATCH = "calibration_mismatch"
CALIBRATION_UNSTABLE = "calibration_invalid"
CALIBRATION_BUSY = "selection_busy"
CALIBRATION_NOT_RETRIED = "calibration_not_retried"
GPU_FASTER = "gpu_faster"
GPU_SLOWER = "gpu_slower"
# Windows DirectML
DML_MISSING = "dml_unavailable"
ORT_CONFLICT = "onnxruntime_conflict"
ADAPTER_LIST_FAILED = "adapter_list_failed"
SOFTWARE_ADAPTER_ONLY = "software_adapter_only"
NO_D3D12 = "no_d3d12_adapter"
NOT_IN_RUNTIME = "adapter_not_in_runtime"
DISCRETE_GPU = "discrete_gpu"

SENTENCES = {
    PLUGIN_MISSING: "The GPU backend (ONNX Runtime's WebGPU plugin) is not installed.",
    VULKAN_MISSING: "The Vulkan loader (libvulkan.so.1) is not installed.",
    UNSUPPORTED_PLATFORM: "GPUs are used on Windows x64 (DirectML) and Linux x86-64 (WebGPU) "
                          "only.",
    NO_GPU: "No GPU was found.",
    ARCHITECTURE_POLICY: "This Intel graphics generation runs these models slower than the "
                         "CPU, so the CPU is used.",
    VULKAN_PROBE_FAILED: "The list of Vulkan devices could not be read.",
    NO_ALLOWED_GPU_VISIBLE: "None of the allowed GPUs is visible to Vulkan.",
    FILTER_UNVERIFIED: "The Vulkan loader could not be limited to the chosen GPU, so it could "
                       "have run on a slower one.",
    NO_ADAPTER: "The GPU driver offered no usable adapter.",
    SESSION_FAILED: "The GPU could not run the models; the CPU took over.",
    CALIBRATION_TIMEOUT: "Measuring the GPU took longer than allowed; the CPU is used this "
                         "time and the setting stays automatic.",
    CALIBRATION_FAILED: "Measuring the GPU failed; the CPU is used this time and the setting "
                        "stays automatic.",
    CALIBRATION_MISMATCH: "The GPU read the test images differently from the CPU, so the CPU "
                          "is used.",
    CALIBRATION_UNSTABLE: "The GPU measurement was too noisy to trust; the CPU is used this "
                          "time and the next run measures again.",
    CALIBRATION_BUSY: "Another Paperlens process was measuring the GPU; the CPU is used this "
                      "time.",
    CALIBRATION_NOT_RETRIED: "Measuring the GPU already failed in this process; it is not "
                             "tried again until the app restarts.",
    GPU_FASTER: "The GPU was measured clearly faster than the CPU.",
    GPU_SLOWER: "The GPU was not clearly faster than the CPU.",
    DML_MISSING: "ONNX Runtime's DirectML build (onnxruntime-directml) is not installed.",
    ORT_CONFLICT: "Two ONNX Runtime packages are installed side by side; they overwrite each "
                  "other's files.",
    ADAPTER_LIST_FAILED: "Windows could not list the graphics adapters (DXGI).",
    SOFTWARE_ADAPTER_ONLY: "The only graphics adapters are software or remote ones (such as "
                           "the Microsoft Basic Render Driver), slower than the CPU.",
    NO_D3D12: "No graphics adapter can run Direct3D 12, which DirectML needs.",
    NOT_IN_RUNTIME: "ONNX Runtime does not list the chosen graphics adapter, so it cannot be "
                    "addressed.",
    DISCRETE_GPU: "A discrete GPU is used directly, without measuring.",
}


def sentence(code: str | None) -> str:
    return SENTENCES.get(code or "", code or "")

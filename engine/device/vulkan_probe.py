"""Lists the Vulkan physical devices this process can see, through ctypes on libvulkan.so.1.

Only an instance is created: no logical device, no shader, no GPU work. Used when ORT lists a
restricted Intel GPU next to another one, to see which devices Vulkan really offers and to check
that a loader constraint left only the chosen one."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from engine.device.types import GpuKind, VulkanDevice

LIBRARY = "libvulkan.so.1"

_VK_STRUCTURE_TYPE_APPLICATION_INFO = 0
_VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1
_VK_SUCCESS = 0
_VK_INCOMPLETE = 5
_KINDS = {1: GpuKind.INTEGRATED, 2: GpuKind.DISCRETE, 3: GpuKind.UNKNOWN, 4: GpuKind.SOFTWARE}


def make_version(major: int, minor: int, patch: int) -> int:
    return (major << 22) | (minor << 12) | patch


def version_text(version: int) -> str:
    return f"{(version >> 22) & 0x7F}.{(version >> 12) & 0x3FF}.{version & 0xFFF}"


class _ApplicationInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p),
                ("pApplicationName", ctypes.c_char_p), ("applicationVersion", ctypes.c_uint32),
                ("pEngineName", ctypes.c_char_p), ("engineVersion", ctypes.c_uint32),
                ("apiVersion", ctypes.c_uint32)]


class _InstanceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("pApplicationInfo", ctypes.POINTER(_ApplicationInfo)),
                ("enabledLayerCount", ctypes.c_uint32), ("ppEnabledLayerNames", ctypes.c_void_p),
                ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


class _PhysicalDeviceProperties(ctypes.Structure):
    # Only the leading fields are read; the tail (limits, sparse properties: about 800 bytes)
    # is room for the driver to write into.
    _fields_ = [("apiVersion", ctypes.c_uint32), ("driverVersion", ctypes.c_uint32),
                ("vendorID", ctypes.c_uint32), ("deviceID", ctypes.c_uint32),
                ("deviceType", ctypes.c_int), ("deviceName", ctypes.c_char * 256),
                ("pipelineCacheUUID", ctypes.c_uint8 * 16), ("tail", ctypes.c_uint8 * 4096)]


@dataclass(frozen=True)
class VulkanView:
    """What one enumeration saw: the loader's version and the devices, or why it failed."""

    loader_version: str | None
    devices: tuple[VulkanDevice, ...] = ()
    problem: str | None = None


class VulkanProbe:
    """Enumerates physical devices with a fresh instance on each call, so that environment
    changes (loader filters, device-select) made since the last call take effect."""

    def __init__(self, library: str = LIBRARY) -> None:
        self._library_name = library
        self._library: ctypes.CDLL | None = None

    def _lib(self) -> ctypes.CDLL:
        if self._library is None:
            self._library = ctypes.CDLL(self._library_name)
        return self._library

    def loader_version(self) -> str | None:
        try:
            lib = self._lib()
        except OSError:
            return None
        version = ctypes.c_uint32(0)
        enumerate_version = getattr(lib, "vkEnumerateInstanceVersion", None)
        if enumerate_version is None or enumerate_version(ctypes.byref(version)) != _VK_SUCCESS:
            return "1.0.0"  # loaders before 1.1 lack the function
        return version_text(version.value)

    def enumerate(self) -> VulkanView:
        try:
            lib = self._lib()
        except OSError as exc:
            return VulkanView(None, problem=f"{self._library_name} cannot be loaded ({exc})")
        loader = self.loader_version()
        app = _ApplicationInfo(_VK_STRUCTURE_TYPE_APPLICATION_INFO, None, b"paperlens", 1,
                               b"paperlens", 1, make_version(1, 1, 0))
        info = _InstanceCreateInfo(_VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, None, 0,
                                   ctypes.pointer(app), 0, None, 0, None)
        instance = ctypes.c_void_p()
        result = lib.vkCreateInstance(ctypes.byref(info), None, ctypes.byref(instance))
        if result != _VK_SUCCESS:
            # VK_ERROR_INCOMPATIBLE_DRIVER (-9) is what the loader says when it finds no driver.
            return VulkanView(loader, problem=f"vkCreateInstance failed ({result})")
        try:
            return VulkanView(loader, tuple(self._devices(lib, instance)))
        finally:
            lib.vkDestroyInstance(instance, None)

    @staticmethod
    def _devices(lib: ctypes.CDLL, instance: ctypes.c_void_p) -> list[VulkanDevice]:
        count = ctypes.c_uint32(0)
        lib.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), None)
        handles = (ctypes.c_void_p * max(count.value, 1))()
        result = lib.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), handles)
        if result not in (_VK_SUCCESS, _VK_INCOMPLETE):
            return []
        devices = []
        for index in range(count.value):
            props = _PhysicalDeviceProperties()
            lib.vkGetPhysicalDeviceProperties(ctypes.c_void_p(handles[index]),
                                              ctypes.byref(props))
            devices.append(VulkanDevice(
                vendor_id=props.vendorID, device_id=props.deviceID,
                name=props.deviceName.decode("utf-8", "replace"),
                kind=_KINDS.get(props.deviceType, GpuKind.UNKNOWN).value))
        return devices

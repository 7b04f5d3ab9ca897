"""The DXGI/D3D12 ctypes seam, run for real against fake COM objects built from C callbacks.

The fakes are written from the Windows SDK headers independently of the module: their own
vtable slot numbers, their own byte offsets into DXGI_ADAPTER_DESC1 and the architecture
data. So these tests check the module's slots, layouts, argument order, HRESULT handling and
that every COM reference it takes is released, without Windows."""

from __future__ import annotations

import ctypes
import struct
import sys

import pytest

from engine.device import dml_dxgi
from engine.device.dml_dxgi import DxgiAdapters, GUID

HRESULT = ctypes.c_long
FN = ctypes.CFUNCTYPE
VOIDPP = ctypes.POINTER(ctypes.c_void_p)


def signed(value: int) -> int:
    return value - (1 << 32) if value & 0x80000000 else value


S_OK, S_FALSE = 0, 1
E_FAIL = signed(0x80004005)
E_NOINTERFACE = signed(0x80004002)
NOT_FOUND = signed(0x887A0002)

# From the headers: slots counted with the inherited methods.
QUERY_INTERFACE, ADD_REF, RELEASE = 0, 1, 2
ENUM_ADAPTERS1, ENUM_BY_PREFERENCE, GET_DESC1, CHECK_FEATURE_SUPPORT = 12, 29, 10, 13


class Obj:
    def __init__(self, kind: str, payload=None) -> None:
        self.kind, self.payload, self.refs = kind, payload, 0


class FakeWindows:
    """dxgi.dll and d3d12.dll with COM objects whose vtables are C callbacks."""

    def __init__(self, adapters, by_preference=None, uma=None, factory6=True,
                 missing: str | None = None) -> None:
        self.adapters = adapters            # (name, vendor, device, memory, luid, flags)
        self.by_preference = by_preference  # indices into adapters, or None
        self.uma = uma or {}                # luid -> UMA flag; absent: no D3D12
        self.factory6 = factory6
        self.missing = missing
        self.objects: dict[int, Obj] = {}
        self.calls: list[tuple] = []
        self._keep: list = []
        self._adapter_objects = [self._new("adapter", a, 11) for a in adapters]
        self._functions = {
            ("dxgi.dll", "CreateDXGIFactory1"): self._callback(
                FN(HRESULT, ctypes.POINTER(GUID), VOIDPP), self._create_factory),
            ("d3d12.dll", "D3D12CreateDevice"): self._callback(
                FN(HRESULT, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(GUID),
                   ctypes.c_void_p), self._create_device),
        }

    # -- the symbol lookup the module is given -----------------------------------------------

    def __call__(self, library: str, name: str) -> int:
        if library == self.missing:
            raise OSError(f"{library} not found")
        return self._functions[(library, name)]

    def live(self) -> dict[str, int]:
        """References still held, by kind (should be none after every call)."""
        return {o.kind: o.refs for o in self.objects.values() if o.refs}

    # -- objects -------------------------------------------------------------------------

    def _callback(self, prototype, function) -> int:
        callback = prototype(function)
        self._keep.append(callback)
        return ctypes.cast(callback, ctypes.c_void_p).value

    def _new(self, kind: str, payload, slots: int) -> int:
        table = (ctypes.c_void_p * slots)()
        table[QUERY_INTERFACE] = self._callback(
            FN(HRESULT, ctypes.c_void_p, ctypes.POINTER(GUID), VOIDPP), self._query)
        table[ADD_REF] = self._callback(FN(ctypes.c_ulong, ctypes.c_void_p), self._add_ref)
        table[RELEASE] = self._callback(FN(ctypes.c_ulong, ctypes.c_void_p), self._release)
        if kind == "factory":
            table[ENUM_ADAPTERS1] = self._callback(
                FN(HRESULT, ctypes.c_void_p, ctypes.c_uint, VOIDPP), self._enum_adapters1)
            table[ENUM_BY_PREFERENCE] = self._callback(
                FN(HRESULT, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.POINTER(GUID),
                   VOIDPP), self._enum_by_preference)
        elif kind == "adapter":
            table[GET_DESC1] = self._callback(
                FN(HRESULT, ctypes.c_void_p, ctypes.c_void_p), self._get_desc1)
        elif kind == "device":
            table[CHECK_FEATURE_SUPPORT] = self._callback(
                FN(HRESULT, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_uint),
                self._check_feature_support)
        instance = (ctypes.c_void_p * 1)(ctypes.addressof(table))
        self._keep += [table, instance]
        address = ctypes.addressof(instance)
        self.objects[address] = Obj(kind, payload)
        return address

    def _hand_out(self, address: int, out) -> int:
        self.objects[address].refs += 1
        out[0] = address
        return S_OK

    # -- methods ---------------------------------------------------------------------------

    def _query(self, this, iid, out):
        wanted = iid.contents.text()
        self.calls.append(("QueryInterface", wanted))
        if wanted == "c1b6694f-ff09-44a9-b03c-77900a0a1d17" and not self.factory6:
            out[0] = None
            return E_NOINTERFACE
        return self._hand_out(this, out)

    def _add_ref(self, this):
        self.objects[this].refs += 1
        return self.objects[this].refs

    def _release(self, this):
        self.objects[this].refs -= 1
        assert self.objects[this].refs >= 0, "released more often than referenced"
        return self.objects[this].refs

    def _create_factory(self, iid, out):
        assert iid.contents.text() == "770aae78-f26f-4dba-a829-253c83d1b387"
        return self._hand_out(self._new("factory", None, 30), out)

    def _enum_adapters1(self, this, index, out):
        self.calls.append(("EnumAdapters1", index))
        if index >= len(self._adapter_objects):
            return NOT_FOUND
        return self._hand_out(self._adapter_objects[index], out)

    def _enum_by_preference(self, this, index, preference, iid, out):
        self.calls.append(("EnumAdapterByGpuPreference", index, preference))
        assert preference == 2  # DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE
        assert iid.contents.text() == "29038f61-3839-4626-91fd-086879011a05"
        if index >= len(self.by_preference):
            return NOT_FOUND
        return self._hand_out(self._adapter_objects[self.by_preference[index]], out)

    def _get_desc1(self, this, desc):
        name, vendor, device, memory, luid, flags = self.objects[this].payload
        raw = bytearray(312)  # DXGI_ADAPTER_DESC1 on x64, offsets from dxgi.h
        encoded = name.encode("utf-16-le")[:254]
        raw[0:len(encoded)] = encoded
        struct.pack_into("<IIII", raw, 256, vendor, device, 0x12345678, 0xA1)
        struct.pack_into("<QQQ", raw, 272, memory, 0, 8 << 30)
        struct.pack_into("<Ii", raw, 296, luid & 0xFFFFFFFF, luid >> 32)
        struct.pack_into("<I", raw, 304, flags)
        ctypes.memmove(desc, bytes(raw), len(raw))
        return S_OK

    def _create_device(self, adapter, level, iid, out):
        luid = self.objects[adapter].payload[4]
        self.calls.append(("D3D12CreateDevice", luid, bool(out)))
        assert level == 0xB000
        assert iid.contents.text() == "189819f1-1db6-4b57-be54-1821339b85f7"
        if luid not in self.uma:
            return E_FAIL
        if not out:
            return S_FALSE  # the capability check: no device was created
        return self._hand_out(self._new("device", self.uma[luid], 44),
                              ctypes.cast(out, VOIDPP))

    def _check_feature_support(self, this, feature, data, size):
        assert (feature, size) == (1, 16)  # D3D12_FEATURE_ARCHITECTURE, 4 x UINT/BOOL
        struct.pack_into("<IiiI", (ctypes.c_char * 16).from_address(data), 0, 0, 0,
                         int(self.objects[this].payload), 0)
        return S_OK


NVIDIA = ("NVIDIA GeForce RTX 3060 Ti", 0x10DE, 0x2489, 8 << 30, (1 << 32) | 0xA1B2, 0)
INTEL = ("Intel(R) UHD Graphics 770", 0x8086, 0x4680, 128 << 20, 0xC3D4, 0)
WARP = ("Microsoft Basic Render Driver", 0x1414, 0x008C, 0, 0x0F0F, 0x2)


def test_structures_have_the_header_layout():
    desc = dml_dxgi.DXGI_ADAPTER_DESC1
    assert ctypes.sizeof(desc) == 312
    assert (desc.VendorId.offset, desc.DeviceId.offset, desc.DedicatedVideoMemory.offset,
            desc.AdapterLuid.offset, desc.Flags.offset) == (256, 260, 272, 296, 304)
    assert ctypes.sizeof(dml_dxgi.D3D12_FEATURE_DATA_ARCHITECTURE) == 16
    assert dml_dxgi.D3D12_FEATURE_DATA_ARCHITECTURE.UMA.offset == 8
    assert GUID.from_text(dml_dxgi.IID_ID3D12Device).text() == dml_dxgi.IID_ID3D12Device


def test_adapters_in_high_performance_order_with_every_reference_released():
    windows = FakeWindows([INTEL, NVIDIA, WARP], by_preference=[1, 0, 2])
    listing = DxgiAdapters(windows).adapters()
    assert listing.high_performance_order and listing.problem is None
    assert [a.name for a in listing.adapters] == [NVIDIA[0], INTEL[0], WARP[0]]
    first = listing.adapters[0]
    assert (first.vendor_id, first.device_id, first.luid, first.dedicated_video_memory) == (
        0x10DE, 0x2489, (1 << 32) | 0xA1B2, 8 << 30)
    assert not first.software and listing.adapters[2].software
    assert windows.live() == {}
    assert ("EnumAdapters1", 0) not in windows.calls


def test_old_system_without_factory6_lists_in_enumeration_order():
    windows = FakeWindows([INTEL, NVIDIA], factory6=False)
    listing = DxgiAdapters(windows).adapters()
    assert not listing.high_performance_order
    assert [a.luid for a in listing.adapters] == [INTEL[4], NVIDIA[4]]
    assert windows.live() == {}


def test_uma_creates_and_releases_one_device():
    windows = FakeWindows([INTEL, NVIDIA], uma={INTEL[4]: True, NVIDIA[4]: False})
    seam = DxgiAdapters(windows)
    assert seam.is_uma(INTEL[4]) is True and seam.is_uma(NVIDIA[4]) is False
    assert [c for c in windows.calls if c[0] == "D3D12CreateDevice"] == [
        ("D3D12CreateDevice", INTEL[4], True), ("D3D12CreateDevice", NVIDIA[4], True)]
    assert windows.live() == {}


def test_capability_check_passes_a_null_device_pointer():
    windows = FakeWindows([INTEL, NVIDIA], uma={NVIDIA[4]: False})
    seam = DxgiAdapters(windows)
    assert seam.supports_d3d12(NVIDIA[4]) is True
    assert seam.supports_d3d12(INTEL[4]) is False
    assert seam.is_uma(INTEL[4]) is None
    created = [c for c in windows.calls if c[0] == "D3D12CreateDevice"]
    assert created[:2] == [("D3D12CreateDevice", NVIDIA[4], False),
                           ("D3D12CreateDevice", INTEL[4], False)]
    assert not any(o.kind == "device" for o in windows.objects.values())
    assert windows.live() == {}


def test_an_adapter_gone_since_the_listing_is_no_adapter():
    windows = FakeWindows([INTEL], uma={INTEL[4]: True})
    assert DxgiAdapters(windows).is_uma(0xDEAD) is None
    assert DxgiAdapters(windows).supports_d3d12(0xDEAD) is False
    assert windows.live() == {}


def test_missing_libraries_are_a_problem_not_an_exception():
    listing = DxgiAdapters(FakeWindows([INTEL], missing="dxgi.dll")).adapters()
    assert listing.adapters == () and "dxgi.dll" in listing.problem
    windows = FakeWindows([INTEL], uma={INTEL[4]: True}, missing="d3d12.dll")
    assert DxgiAdapters(windows).is_uma(INTEL[4]) is None
    assert DxgiAdapters(windows).supports_d3d12(INTEL[4]) is False
    assert windows.live() == {}


@pytest.mark.skipif(sys.platform == "win32", reason="checks the non-Windows import path")
def test_the_module_imports_and_answers_on_a_system_without_windows():
    listing = DxgiAdapters().adapters()
    assert listing.adapters == () and "DXGI is not available" in listing.problem

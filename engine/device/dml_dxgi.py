"""Lists Windows graphics adapters through DXGI and asks Direct3D 12 about them (ctypes, COM).

This is the only module that calls Windows. It returns plain frozen dataclasses; everything
that decides anything lives elsewhere and is tested against fakes of `DxgiAdapters`. The DLLs
are loaded on the first call, not on import, so the module imports on every platform, and the
symbol lookup is injectable so that tests drive the real ctypes code with fake COM objects.

Facts from the Windows SDK headers this code relies on (dxgi.h, dxgi1_6.h, d3d12.h):
- COM methods are called through the object's vtable; slots count the inherited methods:
  IDXGIFactory1::EnumAdapters1 = 12, IDXGIFactory6::EnumAdapterByGpuPreference = 29,
  IDXGIAdapter1::GetDesc1 = 10, ID3D12Device::CheckFeatureSupport = 13, IUnknown::Release = 2.
- DXGI_ADAPTER_DESC1 is 312 bytes on x64: Description at 0, VendorId 256, DeviceId 260,
  DedicatedVideoMemory 272, AdapterLuid 296, Flags 304.
- D3D12CreateDevice with a null output pointer creates no device and returns S_FALSE when a
  device could be created: the capability check for a saved `gpu` choice.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass

# -- constants from the headers ------------------------------------------------------------------

S_OK = 0
S_FALSE = 1
DXGI_ERROR_NOT_FOUND = 0x887A0002
E_NOINTERFACE = 0x80004002
DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE = 2
DXGI_ADAPTER_FLAG_REMOTE = 0x1
DXGI_ADAPTER_FLAG_SOFTWARE = 0x2
D3D_FEATURE_LEVEL_11_0 = 0xB000
"""The level DirectML (and ONNX Runtime's DML EP) asks for."""
D3D12_FEATURE_ARCHITECTURE = 1
BASIC_RENDER_DRIVER = (0x1414, 0x008C)
"""Microsoft Basic Render Driver (WARP): a software adapter even when its flag is not set."""

SLOT_QUERY_INTERFACE = 0
SLOT_RELEASE = 2
SLOT_ENUM_ADAPTERS1 = 12
SLOT_ENUM_ADAPTER_BY_GPU_PREFERENCE = 29
SLOT_GET_DESC1 = 10
SLOT_CHECK_FEATURE_SUPPORT = 13

MAX_ADAPTERS = 64
"""Stop enumerating here even if a driver never answers DXGI_ERROR_NOT_FOUND."""

DXGI_LIBRARY = "dxgi.dll"
D3D12_LIBRARY = "d3d12.dll"


class GUID(ctypes.Structure):
    _fields_ = [("Data1", ctypes.c_uint32), ("Data2", ctypes.c_uint16),
                ("Data3", ctypes.c_uint16), ("Data4", ctypes.c_uint8 * 8)]

    @classmethod
    def from_text(cls, text: str) -> "GUID":
        parts = text.split("-")
        tail = bytes.fromhex(parts[3] + parts[4])
        return cls(int(parts[0], 16), int(parts[1], 16), int(parts[2], 16),
                   (ctypes.c_uint8 * 8)(*tail))

    def text(self) -> str:
        tail = bytes(self.Data4).hex()
        return f"{self.Data1:08x}-{self.Data2:04x}-{self.Data3:04x}-{tail[:4]}-{tail[4:]}"


IID_IDXGIFactory1 = "770aae78-f26f-4dba-a829-253c83d1b387"
IID_IDXGIFactory6 = "c1b6694f-ff09-44a9-b03c-77900a0a1d17"
IID_IDXGIAdapter1 = "29038f61-3839-4626-91fd-086879011a05"
IID_ID3D12Device = "189819f1-1db6-4b57-be54-1821339b85f7"


class LUID(ctypes.Structure):
    _fields_ = [("LowPart", ctypes.c_uint32), ("HighPart", ctypes.c_int32)]


class DXGI_ADAPTER_DESC1(ctypes.Structure):
    # WCHAR is 2 bytes on Windows but c_wchar is 4 on Linux: 16-bit units keep the layout the
    # same everywhere, so the layout is tested here too.
    _fields_ = [("Description", ctypes.c_uint16 * 128), ("VendorId", ctypes.c_uint32),
                ("DeviceId", ctypes.c_uint32), ("SubSysId", ctypes.c_uint32),
                ("Revision", ctypes.c_uint32), ("DedicatedVideoMemory", ctypes.c_size_t),
                ("DedicatedSystemMemory", ctypes.c_size_t),
                ("SharedSystemMemory", ctypes.c_size_t), ("AdapterLuid", LUID),
                ("Flags", ctypes.c_uint32)]


class D3D12_FEATURE_DATA_ARCHITECTURE(ctypes.Structure):
    _fields_ = [("NodeIndex", ctypes.c_uint32), ("TileBasedRenderer", ctypes.c_int32),
                ("UMA", ctypes.c_int32), ("CacheCoherentUMA", ctypes.c_int32)]


# COM uses stdcall, which on x64 Windows is the one calling convention; elsewhere (tests with
# fake COM objects) the C convention is the only one there is.
_FUNCTYPE = getattr(ctypes, "WINFUNCTYPE", ctypes.CFUNCTYPE)
_PP = ctypes.POINTER(ctypes.c_void_p)


# -- what the module returns -------------------------------------------------------------------

def luid_value(luid: LUID) -> int:
    """The LUID as one unsigned 64-bit number: ONNX Runtime's "LUID" metadata uses the same."""
    return ((luid.HighPart & 0xFFFFFFFF) << 32) | luid.LowPart


@dataclass(frozen=True)
class DxgiAdapter:
    """One adapter as DXGI describes it (DXGI_ADAPTER_DESC1)."""

    luid: int
    vendor_id: int
    device_id: int
    name: str
    dedicated_video_memory: int
    """Bytes of memory the adapter does not share with the CPU."""
    flags: int

    @property
    def software(self) -> bool:
        return bool(self.flags & DXGI_ADAPTER_FLAG_SOFTWARE) or (
            (self.vendor_id, self.device_id) == BASIC_RENDER_DRIVER)

    @property
    def remote(self) -> bool:
        return bool(self.flags & DXGI_ADAPTER_FLAG_REMOTE)

    @property
    def ids(self) -> str:
        return f"{self.vendor_id:04x}:{self.device_id:04x}"


@dataclass(frozen=True)
class AdapterList:
    """The adapters in the order DXGI gave them, or why there is no list."""

    adapters: tuple[DxgiAdapter, ...] = ()
    high_performance_order: bool = False
    """True: from IDXGIFactory6::EnumAdapterByGpuPreference(HIGH_PERFORMANCE); False: the plain
    EnumAdapters1 order of a system without IDXGIFactory6, where nothing says which is faster."""
    problem: str | None = None


# -- the calls ---------------------------------------------------------------------------------

SymbolLookup = Callable[[str, str], int]
"""(library, function name) -> the function's address."""


class _WindowsSymbols:
    """Loads the system DLLs on first use (ctypes.WinDLL exists only on Windows)."""

    def __init__(self) -> None:
        self._libraries: dict[str, object] = {}

    def __call__(self, library: str, name: str) -> int:
        dll = self._libraries.get(library)
        if dll is None:
            dll = ctypes.WinDLL(library)  # type: ignore[attr-defined]
            self._libraries[library] = dll
        return ctypes.cast(getattr(dll, name), ctypes.c_void_p).value or 0


def _hresult(value: int) -> int:
    return value & 0xFFFFFFFF


def _failed(value: int) -> bool:
    return bool(_hresult(value) & 0x80000000)


def _method(obj: int, slot: int, *argtypes):
    """The COM method in `slot` of `obj`'s vtable, bound to `obj`."""
    vtable = ctypes.cast(ctypes.c_void_p(obj), ctypes.POINTER(_PP)).contents
    function = _FUNCTYPE(ctypes.c_long, ctypes.c_void_p, *argtypes)(vtable[slot])
    return lambda *args: function(obj, *args)


def _release(obj: int | None) -> None:
    if obj:
        vtable = ctypes.cast(ctypes.c_void_p(obj), ctypes.POINTER(_PP)).contents
        _FUNCTYPE(ctypes.c_ulong, ctypes.c_void_p)(vtable[SLOT_RELEASE])(obj)


class DxgiAdapters:
    """The real adapter facts. Each call builds and releases its own COM objects: no handle
    outlives a call, and nothing is cached, so a removed adapter is noticed next time."""

    def __init__(self, symbols: SymbolLookup | None = None) -> None:
        self._symbols = symbols or _WindowsSymbols()

    def adapters(self) -> AdapterList:
        """All adapters, in high-performance order when the system can give it."""
        try:
            factory = self._create_factory()
        except (OSError, AttributeError, RuntimeError) as exc:
            return AdapterList(problem=f"DXGI is not available ({exc})")
        try:
            factory6 = self._query(factory, IID_IDXGIFactory6)
            try:
                with closing(self._walk(factory, factory6)) as walker:
                    found = [_describe(a) for a in walker]
            finally:
                _release(factory6)
        finally:
            _release(factory)
        return AdapterList(tuple(d for d in found if d is not None),
                           high_performance_order=factory6 is not None)

    def is_uma(self, luid: int) -> bool | None:
        """Whether the adapter shares memory with the CPU (an integrated GPU), from D3D12's
        architecture data; None when no D3D12 device can be created on it. This creates (and
        releases) a device, which is why only `auto` asks."""
        with self._adapter(luid) as adapter:
            if adapter is None:
                return None
            try:
                create = self._d3d12_create_device()
            except (OSError, AttributeError):
                return None
            device = ctypes.c_void_p()
            iid = GUID.from_text(IID_ID3D12Device)
            if _failed(create(adapter, D3D_FEATURE_LEVEL_11_0, ctypes.byref(iid),
                              ctypes.byref(device))) or not device.value:
                return None
            try:
                data = D3D12_FEATURE_DATA_ARCHITECTURE(0, 0, 0, 0)
                check = _method(device.value, SLOT_CHECK_FEATURE_SUPPORT, ctypes.c_int,
                                ctypes.c_void_p, ctypes.c_uint)
                if _failed(check(D3D12_FEATURE_ARCHITECTURE, ctypes.byref(data),
                                 ctypes.sizeof(data))):
                    return None
                return bool(data.UMA)
            finally:
                _release(device.value)

    def supports_d3d12(self, luid: int) -> bool:
        """Whether a D3D12 device at feature level 11_0 could be created; creates none."""
        with self._adapter(luid) as adapter:
            if adapter is None:
                return False
            try:
                create = self._d3d12_create_device()
            except (OSError, AttributeError):
                return False
            iid = GUID.from_text(IID_ID3D12Device)
            return not _failed(create(adapter, D3D_FEATURE_LEVEL_11_0, ctypes.byref(iid), None))

    # -- internals -------------------------------------------------------------------------------

    def _create_factory(self) -> int:
        address = self._symbols(DXGI_LIBRARY, "CreateDXGIFactory1")
        create = _FUNCTYPE(ctypes.c_long, ctypes.POINTER(GUID), _PP)(address)
        factory = ctypes.c_void_p()
        iid = GUID.from_text(IID_IDXGIFactory1)
        result = create(ctypes.byref(iid), ctypes.byref(factory))
        if _failed(result) or not factory.value:
            raise RuntimeError(f"CreateDXGIFactory1 returned 0x{_hresult(result):08x}")
        return factory.value

    def _d3d12_create_device(self):
        address = self._symbols(D3D12_LIBRARY, "D3D12CreateDevice")
        return _FUNCTYPE(ctypes.c_long, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(GUID),
                         ctypes.c_void_p)(address)

    @staticmethod
    def _query(obj: int, iid_text: str) -> int | None:
        """QueryInterface; None when the object does not implement the interface."""
        out = ctypes.c_void_p()
        iid = GUID.from_text(iid_text)
        query = _method(obj, SLOT_QUERY_INTERFACE, ctypes.POINTER(GUID), _PP)
        if _failed(query(ctypes.byref(iid), ctypes.byref(out))) or not out.value:
            return None
        return out.value

    @staticmethod
    def _walk(factory: int, factory6: int | None) -> Iterator[int]:
        """Adapter pointers, each released after the caller has used it."""
        if factory6 is not None:
            iid = GUID.from_text(IID_IDXGIAdapter1)
            by_preference = _method(factory6, SLOT_ENUM_ADAPTER_BY_GPU_PREFERENCE,
                                    ctypes.c_uint, ctypes.c_int, ctypes.POINTER(GUID), _PP)

            def enum(index: int, out: ctypes.c_void_p) -> int:
                return by_preference(index, DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE,
                                     ctypes.byref(iid), ctypes.byref(out))
        else:
            by_index = _method(factory, SLOT_ENUM_ADAPTERS1, ctypes.c_uint, _PP)

            def enum(index: int, out: ctypes.c_void_p) -> int:
                return by_index(index, ctypes.byref(out))
        for index in range(MAX_ADAPTERS):
            adapter = ctypes.c_void_p()
            result = enum(index, adapter)
            if _hresult(result) == DXGI_ERROR_NOT_FOUND or _failed(result) or not adapter.value:
                return
            try:
                yield adapter.value
            finally:
                _release(adapter.value)

    @contextmanager
    def _adapter(self, luid: int) -> Iterator[int | None]:
        """The adapter with this LUID, found by walking the plain enumeration again (present
        on every system, unlike IDXGIFactory4::EnumAdapterByLuid)."""
        try:
            factory = self._create_factory()
        except (OSError, AttributeError, RuntimeError):
            yield None
            return
        walker = self._walk(factory, None)
        try:
            for adapter in walker:
                described = _describe(adapter)
                if described is not None and described.luid == luid:
                    yield adapter
                    return
            yield None
        finally:
            walker.close()  # releases the adapter still held, before the factory goes
            _release(factory)


def _describe(adapter: int) -> DxgiAdapter | None:
    desc = DXGI_ADAPTER_DESC1()
    get_desc = _method(adapter, SLOT_GET_DESC1, ctypes.POINTER(DXGI_ADAPTER_DESC1))
    if _failed(get_desc(ctypes.byref(desc))):
        return None
    name = bytes(desc.Description).decode("utf-16-le", "replace").split("\x00", 1)[0]
    return DxgiAdapter(luid=luid_value(desc.AdapterLuid), vendor_id=desc.VendorId,
                       device_id=desc.DeviceId, name=name.strip(),
                       dedicated_video_memory=int(desc.DedicatedVideoMemory),
                       flags=desc.Flags)

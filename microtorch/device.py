"""Devices: where a tensor lives. microtorch computes on the CPU only.

``meta`` is PyTorch's device for tensors that have a shape and dtype but no values. microtorch
supports it so that the device-mismatch error can be shown on any machine: ``cpu`` and
``meta`` tensors cannot be mixed, exactly as ``cpu`` and ``cuda`` tensors cannot.
Putting a tensor on ``cuda`` raises the error PyTorch raises on a machine without a GPU.
"""

from __future__ import annotations

__all__ = ["device", "as_device", "check_same_device", "set_default_device", "get_default_device"]

_KNOWN = ("cpu", "meta")
_ABSENT = ("cuda", "mps", "xpu")  # valid names (torch.device("cuda") works) but no tensors there


class device:  # noqa: N801 - PyTorch's name
    """``device(type='cpu')``; compare with ``==`` or by ``str(d) == 'cpu'``."""

    __slots__ = ("type", "index")
    type: str
    index: int | None
    _cache: dict[str, device] = {}

    def __new__(cls, spec: str | device, index: int | None = None) -> device:
        if isinstance(spec, device):
            return spec
        if not isinstance(spec, str):
            raise TypeError(
                f"device() expected a string such as 'cpu', but got {type(spec).__name__}"
            )
        key = spec if index is None else f"{spec}:{index}"
        cached = cls._cache.get(key)
        if cached is not None:
            return cached
        kind, _, idx = key.partition(":")
        if kind not in _KNOWN + _ABSENT:
            raise RuntimeError(
                "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                "fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type "
                f"at start of device string: {spec} (microtorch has 'cpu' and 'meta')"
            )
        self = object.__new__(cls)
        self.type = kind
        self.index = int(idx) if idx else None
        cls._cache[key] = self
        return self

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (device, (str(self),))  # copy.deepcopy(model) gets the same cached device


CPU = device("cpu")


def as_device(spec: str | device | None) -> device:
    """Turn ``'cpu'``, ``device('cpu')`` or ``None`` (meaning cpu) into a device."""
    if spec is None:
        return CPU
    d = device(spec)
    if d.type in _ABSENT:
        # PyTorch raises this when a tensor is put there, not when the device object is made
        raise AssertionError(
            f"Torch not compiled with CUDA enabled. (microtorch runs on the CPU only: there is "
            f"no '{d.type}' device here. Use device='cpu', or device='meta' to practise "
            "device-mismatch errors.)"
        )
    return d


def check_same_device(op: str, *devices: device) -> None:
    """Raise PyTorch's device-mismatch error if the devices differ."""
    first = devices[0]
    for d in devices[1:]:
        if d is not first:
            raise RuntimeError(
                f"Expected all tensors to be on the same device, but found at least two devices, "
                f"{first} and {d}! (in {op}) Move them to one device first, e.g. "
                f"other.to({str(first)!r})."
            )


_Device = device  # (for set_default_device, whose parameter is PyTorch's device=)


def set_default_device(device: str | _Device | None) -> None:  # (PyTorch's name: device=)
    """Accepts ``'cpu'`` (or None): microtorch makes every tensor on the CPU.

    ``'cuda'`` raises PyTorch's error on a machine without a GPU, here at once (a deliberate
    difference: PyTorch raises at the next factory call); ``'meta'`` as the default is not
    supported (make meta tensors with ``device='meta'``).
    """
    d = as_device(device)
    if d.type != "cpu":
        raise NotImplementedError(
            f"microtorch supports only 'cpu' as the default device, not '{d}' (Fix: pass "
            f"device='{d}' to the factories that should make {d} tensors)"
        )


def get_default_device() -> device:
    """``device(type='cpu')``: where factories put new tensors."""
    return CPU

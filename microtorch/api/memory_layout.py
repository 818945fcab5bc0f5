"""Tensors on memory that already exists, or laid out with chosen strides:
``torch.frombuffer``, ``empty_strided``, ``empty_permuted`` and ``Tensor.new_empty_strided``.

An "empty" tensor holds zeros here (PyTorch's holds whatever the memory held).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from microtorch import dtypes
from microtorch._warn import warn
from microtorch.api.arguments import expect_ints, parsed
from microtorch.autograd import node as _node

__all__ = ["frombuffer", "empty_strided", "empty_permuted", "new_empty_strided"]

_warned_readonly = [False]  # (PyTorch warns once per process)

# The options after the sizes, as PyTorch declares them
_OPTIONS = (
    "*, torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, "
    "bool pin_memory=False, bool requires_grad=False"
)


def _finish(t: Any, requires_grad: bool) -> Any:
    if requires_grad:
        t.requires_grad_(True)
    return t


def frombuffer(
    buffer: Any,
    *,
    dtype: dtypes.dtype | None = None,
    count: int = -1,
    offset: int = 0,
    requires_grad: bool = False,
) -> Any:
    """A 1-d tensor on the bytes of ``buffer`` (from ``offset``, ``count`` elements or all):
    writing to one changes the other."""
    if dtype is None:
        raise TypeError('frombuffer() missing 1 required positional arguments: "dtype"')
    view = memoryview(buffer)
    length, size = view.nbytes, np.dtype(dtype.numpy).itemsize
    if offset < 0 or offset >= length:
        raise ValueError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
            f"({length} bytes) minus 1"
        )
    if count < 0 and (length - offset) % size:
        raise ValueError(
            f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a "
            f"multiple of element size ({size})"
        )
    n = (length - offset) // size if count < 0 else count
    if n * size > length - offset:
        raise ValueError(
            f"requested buffer length ({n} * {size} bytes) after offset ({offset} bytes) must "
            f"not be greater than actual buffer length ({length} bytes)"
        )
    if view.readonly and not _warned_readonly[0]:
        _warned_readonly[0] = True
        warn(
            "The given buffer is not writable, and PyTorch does not support non-writable "
            "tensors. This means you can write to the underlying (supposedly non-writable) "
            "buffer using the tensor. You may want to copy the buffer to protect its data or "
            "make it writable before converting it to a tensor. This type of warning will be "
            "suppressed for the rest of this program.",
        )
    array = np.frombuffer(buffer, dtype.numpy, n, offset)
    if view.readonly:  # (numpy keeps it read-only; microtorch's tensors are writable)
        array = array.copy()
    return _finish(_node.plain_tensor(array), requires_grad)


def _strided(size: Any, stride: Any, dtype: dtypes.dtype | None) -> Any:
    expect_ints(size, "size")  # (the parser's cue)
    expect_ints(stride, "stride")
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(
            f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
            f"({len(stride)})"
        )
    d = (dtype or dtypes.get_default_dtype()).numpy
    extent = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    memory = np.zeros(extent, d)
    item = memory.itemsize
    return _node.plain_tensor(as_strided(memory, size, tuple(s * item for s in stride)))


@parsed("empty_strided", f"tuple of ints size, tuple of ints stride, {_OPTIONS}")
def empty_strided(
    size: Any,
    stride: Any,
    *,
    dtype: dtypes.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Any:
    """A tensor of ``size`` whose elements sit ``stride`` apart in memory (zeros here)."""
    return _finish(_strided(size, stride, dtype), requires_grad)


@parsed("empty_permuted", f"tuple of ints size, tuple of ints physical_layout, {_OPTIONS}")
def empty_permuted(
    size: Any,
    physical_layout: Any,
    *,
    dtype: dtypes.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Any:
    """A tensor of ``size`` laid out in memory in the dimension order ``physical_layout``
    (outermost first; zeros here)."""
    expect_ints(size, "size")  # (the parser's cue)
    expect_ints(physical_layout, "physical_layout")
    size, order = tuple(int(s) for s in size), [int(d) for d in physical_layout]
    if len(order) != len(size):
        raise RuntimeError(
            f"Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {len(size)} is not equal to len(physical_layout) = {len(order)}"
        )
    if len(set(order)) != len(order):
        raise RuntimeError("Duplicate dim not allowed")
    stride = [0] * len(size)
    step = 1
    for d in reversed(order):
        stride[d] = step
        step *= max(size[d], 1)
    return _finish(_strided(size, stride, dtype), requires_grad)


@parsed("new_empty_strided", f"Tensor input, tuple of ints size, tuple of ints stride, {_OPTIONS}")
def new_empty_strided(
    self: Any,
    size: Any,
    stride: Any,
    *,
    dtype: dtypes.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    layout: Any = None,
    pin_memory: bool = False,
) -> Any:
    """``empty_strided`` in this tensor's dtype unless ``dtype`` is given."""
    return _finish(_strided(size, stride, dtype or self.dtype), requires_grad)

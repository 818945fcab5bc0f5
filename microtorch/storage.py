"""``x.storage()``: the memory a tensor and its views share, as one flat row of values.

``x.storage()`` of ``torch.arange(6.).view(2, 3)[1]`` holds all six values, as the view
shares the memory of its base; courses print it, take its ``len`` or compare ``data_ptr()``
to show that a view copies nothing. A ``TypedStorage`` reads the memory; it never copies it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from microtorch._warn import warn

__all__ = ["TypedStorage", "memory_of"]

_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()"
)
_warned = [False]  # PyTorch warns the first time only


def memory_of(data: np.ndarray) -> np.ndarray:
    """The whole memory ``data`` is a view of, flat, in memory order (no copy)."""
    root = data
    while isinstance(root.base, np.ndarray):
        root = root.base
    if root.ndim == 0:
        return root.reshape(1)
    if root.flags.c_contiguous or root.flags.f_contiguous:
        return root.ravel(order="K")  # (a view of the same memory)
    raise RuntimeError("this tensor's memory is not one block (Fix: use x.contiguous())")


class TypedStorage:
    """A tensor's memory as a flat sequence of its dtype's values."""

    def __init__(self, memory: np.ndarray, dtype: Any, device: Any) -> None:
        if not _warned[0]:
            _warned[0] = True
            warn(_DEPRECATED)
        self._memory, self.dtype, self.device = memory, dtype, device

    def __len__(self) -> int:
        return self._memory.size

    def size(self) -> int:
        return self._memory.size

    def __getitem__(self, i: int) -> Any:
        return self._memory[i].item()

    def __setitem__(self, i: int, value: Any) -> None:
        self._memory[i] = value

    def __iter__(self) -> Iterator[Any]:
        return iter(self.tolist())

    def tolist(self) -> list[Any]:
        return self._memory.tolist()

    def data_ptr(self) -> int:
        return int(self._memory.__array_interface__["data"][0])

    def element_size(self) -> int:
        return self._memory.itemsize

    def nbytes(self) -> int:
        return self._memory.nbytes

    def __repr__(self) -> str:
        values = "\n".join(f" {v}" for v in self.tolist()) or " "
        return (
            f"{values}\n[microtorch.storage.TypedStorage(dtype={self.dtype}, "
            f"device={self.device}) of size {len(self)}]"
        )

"""``x.view(dtype)``: the same bytes read as another dtype (``x.view(torch.int32)`` shows a
float32 tensor's bits).

As in PyTorch, the result shares the memory, and so the version count, of ``x``: a write
through either is seen by the other. It is not a view for autograd, though: PyTorch defines no
derivative for it, so the result never requires grad and its ``_base`` is None (a view of it,
``x.view(torch.int32)[0]``, has it as its base, as in PyTorch).

With a dtype of another element size the last dimension changes size: float32 viewed as
float16 has twice as many elements along it, viewed as float64 half as many. PyTorch's rules
for the strides and the offset, and its errors, are checked first; numpy's ``ndarray.view``
then makes the new array over the same memory.
"""

from __future__ import annotations

from typing import Any

from microtorch.api.operands import wrap
from microtorch.dtypes import dtype

__all__ = ["view_as_dtype"]


def view_as_dtype(a: Any, new: dtype) -> Any:
    """``a``'s memory read as ``new`` (see the module's docstring)."""
    old_size, new_size = a._data.itemsize, new.numpy.itemsize
    if old_size != new_size:
        _check_layout(a, new, old_size, new_size)
    return wrap(a._data.view(new.numpy), a._device)


def _check_layout(a: Any, new: dtype, old_size: int, new_size: int) -> None:
    # PyTorch's checks (view_dtype in ATen), in its order, in elements of a's dtype
    what = f"to view {a._dtype._legacy[:-6]} as {new._legacy[:-6]} (different element sizes)"
    if a._data.ndim == 0:
        raise RuntimeError(
            f"self.dim() cannot be 0 {what} (Fix: x.reshape(1).view(dtype) for one element)"
        )
    strides = a.stride()
    if old_size > new_size:  # each element becomes several
        if strides[-1] != 1:
            raise RuntimeError(
                f"self.stride(-1) must be 1 {what}, but got {strides[-1]} (Fix: .contiguous() "
                "first)"
            )
        return
    ratio = new_size // old_size  # several elements become one
    size, offset = a._data.shape[-1], a.storage_offset()
    if size % ratio:
        raise RuntimeError(
            f"self.size(-1) must be divisible by {ratio} {what}, but got {size} (Fix: a last "
            f"dimension of a multiple of {ratio} elements)"
        )
    if offset % ratio:
        raise RuntimeError(
            f"self.storage_offset() must be divisible by {ratio} {what}, but got {offset} "
            "(Fix: .contiguous() first: a copy starts at offset 0)"
        )
    if strides[-1] != 1:
        raise RuntimeError(
            f"self.stride(-1) must be 1 {what}, but got {strides[-1]} (Fix: .contiguous() first)"
        )
    for d, stride in enumerate(strides[:-1]):
        if stride % ratio:
            raise RuntimeError(
                f"self.stride({d}) must be divisible by {ratio} {what}, but got {stride} "
                "(Fix: .contiguous() first)"
            )

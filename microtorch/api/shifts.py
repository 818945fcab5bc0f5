"""bitwise_left_shift and bitwise_right_shift (``<<`` and ``>>``) on integer tensors.

As in PyTorch, a shift by a negative count or by the type's width or more gives 0 (and -1
for a right shift of a negative value): numpy's shifts leave those cases to the machine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.autograd import node as _node
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error

__all__ = ["bitwise_left_shift", "bitwise_right_shift", "shift"]


def shift(a: Any, b: Any, left: bool, name: str) -> Any:
    """a << b (``left``) or a >> b in PyTorch's result dtype; a or b may be a number."""
    tensor = a if isinstance(a, _node.Tensor) else b
    if not isinstance(tensor, _node.Tensor):
        expect_tensor(a, name)
    target = result_type(a, b)
    if target.is_floating_point:
        kernel = "lshift_cpu" if left else "rshift_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{target._legacy[:-6]}'")
    x = np.asarray(a._data if isinstance(a, _node.Tensor) else a, dtype=target.numpy)
    n = np.asarray(b._data if isinstance(b, _node.Tensor) else b, dtype=target.numpy)
    try:
        shape = np.broadcast_shapes(x.shape, n.shape)
    except ValueError:
        raise broadcast_error(x.shape, n.shape) from None
    bits = 8 * target.numpy.itemsize
    out_of_range = (n < 0) | (n >= bits)
    safe = np.where(out_of_range, 0, n).astype(target.numpy)
    if left:
        result = np.where(out_of_range, 0, np.left_shift(x, safe))
    else:
        filled = np.where(x < 0, -1, 0) if target.numpy.kind == "i" else 0
        result = np.where(out_of_range, filled, np.right_shift(x, safe))
    return wrap(np.broadcast_to(result.astype(target.numpy), shape).copy(), tensor._device)


@torch_keywords(("input", "self"), "other", out=True)
def bitwise_left_shift(a: Any, b: Any) -> Any:
    """a << b: a times 2**b, in a's integer type (bits shifted past the top are lost)."""
    return shift(a, b, True, "bitwise_left_shift")


@torch_keywords(("input", "self"), "other", out=True)
def bitwise_right_shift(a: Any, b: Any) -> Any:
    """a >> b: a divided by 2**b, rounded down (for negative a too)."""
    return shift(a, b, False, "bitwise_right_shift")

"""What a tensor can hold: integer ranges and nesting depth, with PyTorch's errors.

``torch.tensor(300, dtype=torch.uint8)`` and ``torch.tensor(2**63)`` are refused by PyTorch;
numpy would wrap them around silently. Lists nested past PyTorch's 128 dimensions get its
"too many dimensions" error; past numpy's 64 (a deliberate difference), a clear one.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from microtorch.dtypes import dtype

__all__ = ["C_NAMES", "check_depth", "check_fits", "has_big_int"]


def has_big_int(data: Any) -> bool:
    """True if a Python int that int64 cannot hold is anywhere in nested lists."""
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, builtins.int) and not -(2**63) <= x < 2**63:
            return True
    return False


_MAX_DIMS = 128  # PyTorch's limit
_NUMPY_MAX_DIMS = 64  # numpy's (an ndarray holds at most 64 dimensions)


def check_depth(data: Any) -> None:
    """PyTorch's error for lists nested deeper than a tensor's dimensions can go.

    The depth is counted along the first elements (as PyTorch does) and without recursion,
    so a very deep list gives that error, not a RecursionError.
    """
    depth, x = 0, data
    while isinstance(x, (list, tuple)):
        depth += 1
        if depth > _MAX_DIMS:
            raise ValueError(f"too many dimensions '{type(x).__name__}'")
        if not x:
            break
        x = x[0]
    if depth > _NUMPY_MAX_DIMS:  # a deliberate difference: PyTorch would build it
        raise ValueError(
            f"microtorch tensors have at most {_NUMPY_MAX_DIMS} dimensions (numpy's limit; "
            f"PyTorch's is {_MAX_DIMS}), but these lists are nested {depth} deep"
        )


# The C++ type names PyTorch's error for full() gives (tensor() gives the dtype's name).
C_NAMES = {
    "uint8": "uint8_t",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int",
    "int64": "int64_t",
}


def check_fits(values: np.ndarray, dtype_: dtype, name: str) -> None:
    """PyTorch's error for numbers an integer dtype cannot hold (``tensor(300, dtype=uint8)``)."""
    info = np.iinfo(dtype_.name)  # (an integer dtype: its name is numpy's too)
    if values.size == 0 or values.dtype.kind == "b":
        return
    lo, hi = values.min(), values.max()
    if values.dtype.kind == "f":
        fits = bool(np.isfinite(values).all()) and info.min <= lo and hi <= info.max
    elif info.min == 0:  # an unsigned type takes -255 too (it wraps to 1), as in PyTorch
        fits = -int(info.max) <= lo and hi <= info.max
    else:
        fits = info.min <= lo and hi <= info.max
    if not fits:
        raise RuntimeError(
            f"value cannot be converted to type {name} without overflow (Fix: {dtype_.name} "
            f"holds whole numbers from {info.min} to {info.max})"
        )

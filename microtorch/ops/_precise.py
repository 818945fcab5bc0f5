"""Float32 and float16 functions computed in float64 and rounded once, as PyTorch's are.

numpy's float32 ``log10``, ``exp``, ``arcsin`` ... are fast approximations a unit in the last
place or two off: ``np.log10(np.float32(100))`` is 2.0000002, where PyTorch gives 2.0 (and so
prints ``tensor([2.])``). Computed in float64 and rounded to float32, the result is the float32
nearest the true value, which is what PyTorch's kernels give in nearly every case.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["correctly_rounded"]

_SHORT = (np.dtype(np.float32), np.dtype(np.float16))


def correctly_rounded(f: Callable[..., np.ndarray], *arrays: np.ndarray) -> np.ndarray:
    """``f(*arrays)`` in the arrays' dtype, computed in float64 when that dtype is shorter."""
    dtype = arrays[0].dtype
    if dtype not in _SHORT:
        return f(*arrays)
    if isinstance(f, np.ufunc):  # (numpy casts in blocks: no float64 copy of the input)
        return f(*arrays, dtype=np.float64).astype(dtype)
    return f(*(a.astype(np.float64) for a in arrays)).astype(dtype)

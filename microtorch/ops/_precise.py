"""Float32 and float16 functions computed in float64 and rounded once, as PyTorch's are.

numpy's float32 ``log10``, ``exp``, ``arcsin`` ... are fast approximations a unit in the last
place or two off: ``np.log10(np.float32(100))`` is 2.0000002, where PyTorch gives 2.0 (and so
prints ``tensor([2.])``). Computed in float64 and rounded to float32, the result is the float32
nearest the true value, which is what PyTorch's kernels give in nearly every case.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch.autograd import node as _node

__all__ = ["correctly_rounded", "constant_values", "recorded", "run_recorded"]

_SHORT = (np.dtype(np.float32), np.dtype(np.float16))


def correctly_rounded(f: Callable[..., np.ndarray], *arrays: np.ndarray) -> np.ndarray:
    """``f(*arrays)`` in the arrays' dtype, computed in float64 when that dtype is shorter."""
    dtype = arrays[0].dtype
    if dtype not in _SHORT:
        return f(*arrays)
    if isinstance(f, np.ufunc):  # (numpy casts in blocks: no float64 copy of the input)
        return f(*arrays, dtype=np.float64).astype(dtype)
    return f(*(a.astype(np.float64) for a in arrays)).astype(dtype)


def recorded(x: object) -> bool:
    """Whether ``x`` is a backward formula's recorded value (create_graph=True: see
    api/recorded.py). A function computed value by value (digamma64, bessel_i_scaled64 ...)
    then calls its ``*_each`` ufunc instead, which numpy hands to PyTorch's op, recorded."""
    return not isinstance(x, (np.ndarray, np.generic, float, int))


def run_recorded(function: Any, *values: Any) -> Any:
    """``function.apply`` on a formula's recorded values, recorded (PyTorch's node for a step
    that numpy has no dispatch for, such as a matrix exponential)."""
    return _node.record(function.apply(*[_node.tensor_of(v) for v in values]))


def constant_values(x: Any) -> np.ndarray:
    """The values of a formula's input that has no gradient (integer pivots), as an array,
    recorded or not: what a formula computes from them is a constant of its graph."""
    return _node.tensor_of(x)._data if recorded(x) else np.asarray(x)

"""The number 1 as a 0-d array of a given dtype, for formulas such as ``1 - z * z``.

numpy combines an array with a 0-d array of its own dtype about 200 ns faster than with the
Python number 1, which it must first convert (numpy 2's rules for Python scalars). On the
one-element tensors of a teaching example that is a third of the ufunc's cost.
"""

from __future__ import annotations

import numpy as np

__all__ = ["one"]


class _Ones(dict[np.dtype, np.ndarray]):
    def __missing__(self, dtype: np.dtype) -> np.ndarray:
        value = np.ones((), dtype)
        value.flags.writeable = False  # shared by every caller
        self[dtype] = value
        return value


_ONES = _Ones()


def one(like: np.ndarray) -> np.ndarray:
    """1 as a read-only 0-d array of ``like``'s dtype (the same array on every call)."""
    return _ONES[like.dtype]

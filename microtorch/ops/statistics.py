"""The median: of all elements (``MedianAll``) and along a dimension (``MedianDim``), with
the index PyTorch returns; and ``bincount``'s counting.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, PyTorch's errors) are in
``microtorch/api/statistics.py``. PyTorch's median of n values is the lower one of the two
middle values (sorted position (n - 1) // 2), never their mean; any nan makes it nan.
"""

from __future__ import annotations

import numpy as np

from microtorch.ops.reduction import _Extreme, _SelectAlong

__all__ = ["MedianAll", "MedianDim", "lower_median", "median_indices", "counts"]


def lower_median(a: np.ndarray, axis: None = None, keepdims: bool = False) -> np.ndarray:
    """The value at sorted position (n - 1) // 2 of all of ``a`` (nan if any is nan)."""
    flat = a.reshape(-1)
    if np.isnan(flat).any() if flat.dtype.kind == "f" else False:
        return np.asarray(np.nan, a.dtype)
    k = (flat.size - 1) // 2
    return np.asarray(np.partition(flat, k)[k])


class MedianAll(_Extreme):
    """z = median(a): dz/da = 1 at the median's value (split evenly among ties), else 0."""

    node_name, reduce, _fill = "MedianBackward0", staticmethod(lower_median), True


class MedianDim(_SelectAlong):
    """values, indices = median(a, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "MedianBackward1"


def median_indices(a: np.ndarray, dim: int) -> np.ndarray:
    """Where along ``dim`` each median sits, as PyTorch finds it: the first nan if there is
    one, else position (n - 1) // 2 of a stable sort (among equal values, the one that came
    first there)."""
    k = (a.shape[dim] - 1) // 2
    order = np.argsort(a, axis=dim, kind="stable")  # (nans sort last)
    out = np.take(order, k, axis=dim)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        has_nan = nan.any(axis=dim)
        out = np.where(has_nan, np.argmax(nan, axis=dim), out)
    return out.astype(np.int64)


def counts(values: np.ndarray, weights: np.ndarray | None, minlength: int) -> np.ndarray:
    """How often each whole number 0, 1, ... occurs in ``values`` (or the sum of the
    weights where it occurs)."""
    return np.bincount(values, weights, minlength)

"""nanmedian: the median of the values that are not nan, of all elements
(``NanmedianAll``) and along a dimension (``NanmedianDim``), with the index PyTorch returns.

The lower median of the m values that are not nan (sorted position (m - 1) // 2); nan only
where all values are nan. The public function is in ``microtorch/api/nanmedian.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.ops.reduction import _Extreme, _SelectAlong

__all__ = ["NanmedianAll", "NanmedianDim", "lower_nanmedian", "nanmedian_indices"]


def lower_nanmedian(a: np.ndarray, axis: None = None, keepdims: bool = False) -> np.ndarray:
    """The value at sorted position (m - 1) // 2 of the m values of ``a`` that are not nan."""
    flat = a.reshape(-1)
    if flat.dtype.kind == "f":
        flat = flat[~np.isnan(flat)]
        if flat.size == 0:
            return np.asarray(np.nan, a.dtype)
    k = (flat.size - 1) // 2
    return np.asarray(np.partition(flat, k)[k])


class NanmedianAll(_Extreme):
    """z = nanmedian(a): dz/da = 1 at the median's value (split evenly among ties; among all
    the elements if all are nan), else 0."""

    node_name, reduce, _fill = "NanmedianBackward0", staticmethod(lower_nanmedian), True


class NanmedianDim(_SelectAlong):
    """values, indices = nanmedian(a, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "NanmedianBackward1"


def nanmedian_indices(a: np.ndarray, dim: int) -> np.ndarray:
    """Where along ``dim`` each nanmedian sits, as PyTorch finds it: position (m - 1) // 2 of a
    stable sort (nans last; among equal values, the one that came first), m the number of
    values that are not nan. Where all n are nan, the place C++'s std::nth_element leaves at
    the front when every comparison is False (``_all_equal_front``)."""
    m = (~np.isnan(a)).sum(axis=dim, keepdims=True) if a.dtype.kind == "f" else None
    order = np.argsort(a, axis=dim, kind="stable")
    if m is None:
        return np.take(order, (a.shape[dim] - 1) // 2, axis=dim).astype(np.int64)
    k = np.maximum((m - 1) // 2, 0)
    out = np.take_along_axis(order, k, axis=dim).squeeze(dim)
    out = np.where(m.squeeze(dim) == 0, _all_equal_front(a.shape[dim]), out)
    return out.astype(np.int64)


def _all_equal_front(n: int) -> int:
    # libstdc++'s introselect for the 0th place of n equal values: the pivot (the middle one)
    # swapped to the front, then the unguarded partition swaps pairs from both ends inward
    # until they meet; the front part is kept while it has more than 3 values.
    places, first, last = list(range(n)), 0, n
    while last - first > 3:
        mid = first + (last - first) // 2
        places[first], places[mid] = places[mid], places[first]
        i, j = first + 1, last
        while True:
            j -= 1
            if not i < j:
                break
            places[i], places[j] = places[j], places[i]
            i += 1
        last = i  # (place 0 lies before the cut: i >= 1)
    return places[0]

"""The median: of all elements (``MedianAll``) and along a dimension (``MedianDim``), with
the index PyTorch returns; and ``bincount``'s counting.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, PyTorch's errors) are in
``microtorch/api/statistics.py``. PyTorch's median of n values is the lower one of the two
middle values (sorted position (n - 1) // 2), never their mean; any nan makes it nan.
Also nansum (a sum that skips nan) and var_mean / std_mean (two results from one node).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import expand
from microtorch.ops._layout import row_major
from microtorch.ops.reduction import (
    _count,
    _expand_back,
    _Extreme,
    _mean,
    _SelectAlong,
    _sum_of_squares,
)

__all__ = [
    "MedianAll", "MedianDim", "lower_median", "median_indices", "counts", "Nansum", "VarMean",
    "StdMean", "KthvalueDim", "ModeDim", "kthvalue_indices", "mode_indices",
]  # fmt: skip


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


class KthvalueDim(_SelectAlong):
    """values, indices = kthvalue(a, k, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "KthvalueBackward0"


class ModeDim(_SelectAlong):
    """values, indices = mode(a, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "ModeBackward0"


def _rows(a: np.ndarray, dim: int) -> np.ndarray:
    # the lines along ``dim``, one row each
    return np.moveaxis(a, dim, -1).reshape(-1, a.shape[dim])


def _unrows(idx: list[int], a: np.ndarray, dim: int) -> np.ndarray:
    shape = np.moveaxis(a, dim, -1).shape[:-1]
    return np.array(idx, np.int64).reshape(shape)


def mode_indices(a: np.ndarray, dim: int) -> np.ndarray:
    """Where along ``dim`` each mode sits, as PyTorch's CPU kernel finds it: it sorts the
    row's (value, place) pairs by value with C++'s std::sort and takes the value of the
    longest run (the first such run: the smallest value) at the place that ends that run.
    Up to 16 values that sort is an insertion sort, so the place is the value's last one;
    beyond, it depends on the quicksort's steps, which ``_introsort`` follows."""
    found = []
    for row in _rows(a, dim):
        order = np.array(_introsort(row.tolist()), np.int64)
        values = row[order]
        ends = np.flatnonzero(np.append(values[1:] != values[:-1], True))  # each run's end
        lengths = np.diff(np.append(-1, ends))
        found.append(int(order[ends[np.argmax(lengths)]]))  # (the first longest run's end)
    return _unrows(found, a, dim)


def _introsort(values: list) -> list[int]:
    # The places of ``values`` in the order libstdc++'s std::sort leaves them (compared with
    # <, which is False for any nan): quicksort on ranges of more than 16, the pivot the
    # median of three moved to the front, then one insertion sort over everything.
    places = list(range(len(values)))

    def less(i: int, j: int) -> bool:
        return values[places[i]] < values[places[j]]

    def swap(i: int, j: int) -> None:
        places[i], places[j] = places[j], places[i]

    def median_to_first(result: int, a: int, b: int, c: int) -> None:
        if less(a, b):
            swap(result, b if less(b, c) else c if less(a, c) else a)
        else:
            swap(result, a if less(a, c) else c if less(b, c) else b)

    def quicksort(first: int, last: int, depth: int) -> None:
        while last - first > 16:
            if depth == 0:  # (libstdc++ would heap-sort this range: not followed here)
                raise RuntimeError(
                    "microtorch cannot follow PyTorch's sort for this row, so mode() would give "
                    "another index among equal values (Fix: use fewer values per row, or "
                    "x.detach().numpy() with numpy)"
                )
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            i, j = first + 1, last
            while True:  # (the pivot stays at first)
                while less(i, first):
                    i += 1
                j -= 1
                while less(first, j):
                    j -= 1
                if not i < j:
                    break
                swap(i, j)
                i += 1
            quicksort(i, last, depth)
            last = i

    def insertion_sort(first: int, last: int) -> None:
        for i in range(first + 1, last):
            place, j = places[i], i
            if values[place] < values[places[first]]:
                places[first + 1 : i + 1] = places[first:i]
                places[first] = place
                continue
            while values[place] < values[places[j - 1]]:
                places[j] = places[j - 1]
                j -= 1
            places[j] = place

    quicksort(0, len(values), 2 * (len(values).bit_length() - 1))
    insertion_sort(0, len(values))
    return places


def kthvalue_indices(a: np.ndarray, k: int, dim: int) -> np.ndarray:
    """Where along ``dim`` the k-th smallest value sits (nan counts as the largest). Where that
    value occurs once, its place; where it is tied, the place PyTorch's CPU kernel ends up
    with: its quickselect (Hoare's partition around the median of three) is run on the row."""
    found = []
    for row in _rows(a, dim):
        kth = np.argsort(row, kind="stable")[k - 1]  # (nans last)
        same = (row == row[kth]) | (np.isnan(row) & np.isnan(row[kth]))
        found.append(int(kth) if same.sum() == 1 else _quickselect(row, k - 1))
    return _unrows(found, a, dim)


def _quickselect(row: np.ndarray, k: int) -> int:
    # the original index that lands at place k when the row is partly sorted in place by
    # quickselect; "above(x, y)": x > y, or x is nan and y is not
    values, places = row.tolist(), list(range(len(row)))

    def above(x: float, y: float) -> bool:
        return x > y or (x != x and y == y)

    def swap(i: int, j: int) -> None:
        values[i], values[j] = values[j], values[i]
        places[i], places[j] = places[j], places[i]

    low, high = 0, len(values) - 1
    while high > low + 1:
        swap(low + (high - low) // 2, low + 1)  # the median of three goes to low, the
        if above(values[low + 1], values[high]):  # smaller to low + 1, the larger to high
            swap(low + 1, high)
        if above(values[low], values[high]):
            swap(low, high)
        if above(values[low + 1], values[low]):
            swap(low + 1, low)
        pivot, i, j = values[low], low + 1, high
        while True:
            i += 1
            while above(pivot, values[i]):
                i += 1
            j -= 1
            while above(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:
            low = i
        if j >= k:
            high = j - 1
    if high == low + 1 and above(values[low], values[high]):
        swap(low, high)
    return places[k]


def counts(values: np.ndarray, weights: np.ndarray | None, minlength: int) -> np.ndarray:
    """How often each whole number 0, 1, ... occurs in ``values`` (or the sum of the
    weights where it occurs)."""
    return np.bincount(values, weights, minlength)


class Nansum(NumpyFunction):
    """z = the sum of a's elements that are not nan, so dz/da = 1 there and 0 at a nan
    (the gradient times that mask, as PyTorch: an infinite gradient gives nan at a nan)."""

    node_name = "NansumBackward0"
    ctx_fields = ("axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim, dtype):
        ctx.save_for_backward(a)
        ctx.axes, ctx.keepdim = axes, keepdim
        return row_major(np.asarray(np.nansum(a, axis=axes, keepdims=keepdim, dtype=dtype)))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        if grad_output.ndim == 0:  # (the sum of all elements: its gradient is expanded)
            g = expand(grad_output, a.shape)
        else:
            g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
        return g * np.logical_not(np.isnan(a))


class VarMean(NumpyFunction):
    """var, mean = var(a), mean(a) over n elements (var divides by n - correction), so
    d var/da = 2 (a - mean) / (n - correction) and d mean/da = 1 / n."""

    node_name = "VarMeanBackward0"
    ctx_fields = ("axes", "keepdim", "divisor")

    @staticmethod
    def forward(ctx, a, axes, keepdim, correction):
        ctx.save_for_backward(a)
        ctx.axes, ctx.keepdim = axes, keepdim
        ctx.divisor = max(_count(a.shape, axes) - correction, 0)
        var = _sum_of_squares(a, axes, keepdim) / ctx.divisor  # n <= correction: nan
        mean = _mean(a, axes) if keepdim else np.squeeze(_mean(a, axes), axes)
        return row_major(var.astype(a.dtype)), row_major(mean.astype(a.dtype))

    @staticmethod
    def backward(ctx, grad_var, grad_mean):
        (a,) = ctx.saved_tensors
        return _var_backward(grad_var, a, ctx) + _mean_backward(grad_mean, a, ctx)


class StdMean(NumpyFunction):
    """std, mean = sqrt(var(a)), mean(a), so d std/da = (a - mean) / ((n - correction) std)
    (0 where std is 0, as PyTorch) and d mean/da = 1 / n."""

    node_name = "StdMeanBackward0"
    ctx_fields = ("axes", "keepdim", "divisor")

    @staticmethod
    def forward(ctx, a, axes, keepdim, correction):
        ctx.axes, ctx.keepdim = axes, keepdim
        ctx.divisor = max(_count(a.shape, axes) - correction, 0)
        std = row_major(np.sqrt(_sum_of_squares(a, axes, keepdim) / ctx.divisor).astype(a.dtype))
        mean = _mean(a, axes) if keepdim else np.squeeze(_mean(a, axes), axes)
        ctx.save_for_backward(a, std)
        return std, row_major(mean.astype(a.dtype))

    @staticmethod
    def backward(ctx, grad_std, grad_mean):
        a, std = ctx.saved_tensors
        grad_var = np.where(std == 0, 0, grad_std / (std * 2))  # d std = d var / (2 std)
        return _var_backward(grad_var, a, ctx) + _mean_backward(grad_mean, a, ctx)


def _var_backward(grad: np.ndarray, a: np.ndarray, ctx) -> np.ndarray:
    # 2 / (n - correction) * grad * (a - mean(a)), written in PyTorch's order
    g = _expand_back(grad, a.shape, ctx.axes, ctx.keepdim)
    return (2 / ctx.divisor) * g * (a - _mean(a, ctx.axes))


def _mean_backward(grad: np.ndarray, a: np.ndarray, ctx) -> np.ndarray:
    return _expand_back(grad, a.shape, ctx.axes, ctx.keepdim) / _count(a.shape, ctx.axes)

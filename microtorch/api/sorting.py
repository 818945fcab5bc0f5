"""Ordering: sort, argsort, topk, nonzero. The values are differentiable; indices are not.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/sorting.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import return_types
from microtorch.api._checks import expect_tensor, views_first
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.api.reduction import normalize_dims
from microtorch.ops._layout import follow_inputs
from microtorch.ops.sorting import Sort, SortStable, Topk

__all__ = ["sort", "argsort", "topk", "nonzero"]


def _order(a: Any, dim: int, descending: bool, stable: bool) -> tuple[np.ndarray, int]:
    data = a._data
    if data.ndim == 0:
        return np.zeros((), np.int64), 0
    (d,) = normalize_dims(dim, data.ndim)
    # Descending with ties kept in order: sort the negated values, stably.
    signed = data.astype(np.int64) if data.dtype.kind == "u" else data  # -uint8 would wrap
    keys = -signed if descending and data.dtype != np.bool_ else data
    # (stable either way: PyTorch's CPU sort keeps ties in order at least up to 16 elements,
    # where numpy's quicksort, vectorised, does not)
    order = np.argsort(keys, axis=d, kind="stable")
    if descending and data.dtype == np.bool_:
        order = np.flip(np.argsort(data, axis=d, kind="stable"), axis=d)
    return follow_inputs(order.astype(np.int64), data), d  # (sort's results: laid out as a)


@parsed(
    "sort",
    (
        "Tensor input, *, bool stable, int dim = -1, bool descending = False, "
        "tuple of Tensors out = None"
    ),
    "Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None",
)
@torch_keywords("input", "dim")
def sort(a: Any, dim: int = -1, descending: bool = False, stable: bool | None = None) -> Any:
    """``(values, indices)``: the elements along ``dim`` in order, and where each came from."""
    expect_tensor(a, "sort")
    # PyTorch records a different overload when stable= is passed at all.
    fn = Sort if stable is None else SortStable
    if a._data.ndim == 0:
        normalize_dims(dim, 0)  # (0 or -1, as PyTorch)
        zero = np.zeros((), np.int64)
        return return_types.sort(fn.apply(a, zero, 0), wrap(zero))
    order, d = _order(a, dim, descending, bool(stable))
    return return_types.sort(fn.apply(a, order, d), wrap(order))


@parsed(
    "argsort",
    "Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = None",
    "Tensor input, int dim = -1, bool descending = False",
)
@torch_keywords("input", "dim")
def argsort(a: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    """The indices that sort ``a`` along ``dim``."""
    expect_tensor(a, "argsort")
    normalize_dims(dim, a._data.ndim)
    views_first(a)  # (PyTorch's argsort is its sort, which refuses a view it no longer allows)
    return wrap(_order(a, dim, descending, stable)[0])


@parsed("topk", "Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True")
@torch_keywords("input", "k", "dim")
def topk(a: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:  # noqa: A002
    """``(values, indices)`` of the ``k`` largest (or smallest) elements along ``dim``."""
    expect_tensor(a, "topk")
    if not hasattr(k, "__index__"):
        raise TypeError(f"topk(): argument 'k' (position 2) must be int, not {type(k).__name__}")
    data = a._data
    (d,) = normalize_dims(dim, data.ndim)
    size = data.shape[d] if data.ndim else 1
    if not 0 <= k <= size:  # (before the dtype, as PyTorch checks)
        raise RuntimeError(
            f"selected index k out of range (k={k}, but dimension {d} has size {size})"
        )
    if a._dtype.name == "bool":
        raise RuntimeError("topk does not support bool dtypes on CPU (Fix: convert, e.g. x.int())")
    if data.ndim == 0:
        zero = np.zeros((), np.int64)
        return return_types.topk(Topk.apply(a, zero, 0), wrap(zero))
    order, _ = _order(a, d, largest, True)
    picked = np.take(order, np.arange(k), axis=d)
    return return_types.topk(Topk.apply(a, picked, d), wrap(picked))


@torch_keywords("input")
def nonzero(a: Any, *, as_tuple: bool = False) -> Any:
    """The indices of the non-zero elements: one row per element, one column per dimension."""
    expect_tensor(a, "nonzero")
    where = np.nonzero(a._data if a._data.ndim else a._data.reshape(1))
    if as_tuple:
        return tuple(wrap(w.astype(np.int64)) for w in where)
    if a._data.ndim == 0:  # one row per nonzero element, and no column (as PyTorch)
        return wrap(np.zeros((where[0].size, 0), np.int64))
    return wrap(np.stack(where, axis=1).astype(np.int64).reshape(-1, a._data.ndim))

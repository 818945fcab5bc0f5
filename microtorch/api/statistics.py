"""median (of all elements, or along a dimension with its indices), bincount, nansum and
nanmean (which skip nan), var_mean and std_mean (two results of one pass).

The public functions: argument checks, dtypes and PyTorch's errors around the formulas in
``microtorch/ops/statistics.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import return_types
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.elementwise import logical_not
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.api.reduction import Dims, _axes, _reduce_dtype, _var_args, normalize_dims
from microtorch.api.reduction import sum as sum_
from microtorch.api.truth import isnan
from microtorch.ops.statistics import (
    KthvalueDim,
    MedianAll,
    MedianDim,
    ModeDim,
    Nansum,
    StdMean,
    VarMean,
    counts,
    kthvalue_indices,
    median_indices,
    mode_indices,
)

__all__ = [
    "median", "bincount", "nansum", "nanmean", "var_mean", "std_mean", "kthvalue", "mode",
]  # fmt: skip

_C_NAMES = {"bool": "Bool", "float16": "Half", "float32": "Float", "float64": "Double"}


@parsed(
    "median",
    "Tensor input",
    "Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None",
)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def median(a: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """The lower median ((n - 1) // 2 of the sorted values, nan if any is nan); with ``dim``,
    a ``(values, indices)`` pair along it."""
    expect_tensor(a, "median")
    ops = (MedianAll, MedianDim, median_indices)
    return lower_median(a, dim, keepdim, ops, return_types.median)


def lower_median(a: Any, dim: int | None, keepdim: bool, ops: tuple, pair: Any) -> Any:
    """median's and nanmedian's shared steps: PyTorch's checks, then ``ops`` (the formulas of
    all elements, along a dimension, and the indices along it) and the ``pair`` type."""
    all_op, dim_op, indices = ops
    if a._dtype.name == "bool":  # (PyTorch's kernels have two names)
        kernel = "median_cpu" if dim is None else "median_out"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    data = a._data
    if dim is None:
        if data.size == 0:
            empty = np.nan if data.dtype.kind == "f" else np.iinfo(data.dtype).min  # (PyTorch's)
            return wrap(np.asarray(empty, data.dtype))
        return all_op.apply(a, None, False)
    (d,) = normalize_dims(dim, data.ndim)
    if data.ndim == 0:
        return pair(dim_op.apply(a, None, keepdim, None), wrap(np.zeros((), np.int64)))
    if data.shape[d] == 0:
        raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
    idx = indices(data, d)
    if keepdim:
        idx = np.expand_dims(idx, d)
    return pair(dim_op.apply(a, d, keepdim, idx), wrap(idx))


@parsed(
    "bincount",
    "Tensor input, Tensor weights=None, int minlength=0, *, Tensor out=None",
)
@torch_keywords("input", "weights", "minlength")
def bincount(a: Any, weights: Any = None, minlength: int = 0) -> Any:
    """How often each of 0, 1, ..., max(a) occurs in the 1-d integer tensor ``a`` (at least
    ``minlength`` counts); with ``weights``, the sum of the weights at each number."""
    expect_tensor(a, "bincount")
    if a._dtype.is_floating_point or a._dtype.name == "bool":
        kind = _C_NAMES[a._dtype.name]
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{kind}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    data = a._data
    if data.ndim != 1 or data.size and data.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return wrap(counts(data, None, minlength).astype(np.int64))
    expect_tensor(weights, "bincount", "weights", 2)
    if weights._data.ndim != 1 or weights._data.shape[0] != data.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if weights.requires_grad:
        raise NotImplementedError(
            "the derivative for 'bincount' is not implemented (Fix: count with "
            "(x[:, None] == torch.arange(k)) * weights[:, None], summed over dim 0)"
        )
    # (float32 weights sum to float32; every other dtype to float64, as PyTorch)
    dtype = np.float32 if weights._data.dtype == np.float32 else np.float64
    return wrap(counts(data, weights._data.astype(np.float64), minlength).astype(dtype))


@parsed(
    "nansum",
    "Tensor input, *, torch.dtype dtype=None",
    "Tensor input, tuple of ints dim, bool keepdim=False, *, torch.dtype dtype=None",
)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def nansum(a: Any, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """The sum of the elements that are not nan (all, or along ``dim``)."""
    expect_tensor(a, "nansum")
    axes = () if dim is None else _axes(dim, a._data.ndim)
    axes = axes or tuple(range(a._data.ndim))  # (dim=(): all, as PyTorch)
    return Nansum.apply(a, axes, keepdim, _reduce_dtype(a, dtype))


@parsed(
    "nanmean",
    "Tensor input, tuple of ints dim=None, bool keepdim=False, *, torch.dtype dtype=None",
)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def nanmean(a: Any, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """The mean of the elements that are not nan: nansum / how many are not nan."""
    expect_tensor(a, "nanmean")
    if not a._dtype.is_floating_point:
        raise RuntimeError(
            "nanmean(): expected input to have floating point or complex dtype but got "
            f"{a._dtype._legacy[: -len('Tensor')]} (Fix: x.float().nanmean())"
        )
    counted = sum_(logical_not(isnan(a)), () if dim is None else dim, keepdim)
    return nansum(a, () if dim is None else dim, keepdim, dtype=dtype) / counted


_VAR_MEAN = (
    "Tensor input, tuple of ints dim, bool unbiased=True, bool keepdim=False",
    "Tensor input, tuple of ints dim=None, *, Number correction=None, bool keepdim=False",
    "Tensor input, bool unbiased=True",
)


def _floats_only(a: Any, op: str) -> None:
    expect_tensor(a, op)
    if not a._dtype.is_floating_point:
        raise RuntimeError(f"{op} only support floating point and complex dtypes (Fix: x.float())")


@parsed("var_mean", *_VAR_MEAN)
@torch_keywords("input", "dim", numpy_aliases=True)
def var_mean(
    a: Any,
    dim: Dims = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: int | None = None,
) -> tuple[Any, Any]:
    """``(var(a), mean(a))`` over ``dim``, one node for both (Bessel's correction by default)."""
    _floats_only(a, "var_mean")
    axes, c, _ = _var_args(a, dim, unbiased, correction, "var_mean")
    return VarMean.apply(a, axes, keepdim, c)


@parsed("std_mean", *_VAR_MEAN)
@torch_keywords("input", "dim", numpy_aliases=True)
def std_mean(
    a: Any,
    dim: Dims = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: int | None = None,
) -> tuple[Any, Any]:
    """``(std(a), mean(a))`` over ``dim``, one node for both (Bessel's correction by default)."""
    _floats_only(a, "std_mean")
    axes, c, _ = _var_args(a, dim, unbiased, correction, "std_mean")
    return StdMean.apply(a, axes, keepdim, c)


@parsed("kthvalue", "Tensor input, int k, int dim=-1, bool keepdim=False")
@torch_keywords("input", "k", "dim", "keepdim")
def kthvalue(a: Any, k: int | None = None, dim: int = -1, keepdim: bool = False) -> Any:
    """The k-th smallest value along ``dim`` (k = 1: the smallest) and where it is."""
    if k is None:
        raise TypeError('kthvalue() missing 1 required positional arguments: "k"')
    expect_tensor(a, "kthvalue")
    if a._dtype.name == "bool":
        raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
    data = a._data
    (d,) = normalize_dims(dim, data.ndim)
    size = data.shape[d] if data.ndim else 1
    if data.size == 0 and data.ndim == 1:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if data.ndim == 0:
        values = KthvalueDim.apply(a, None, keepdim, None)
        return return_types.kthvalue(values, wrap(np.zeros((), np.int64)))
    idx = kthvalue_indices(data, k, d) if data.size else _no_indices(data, d)
    if keepdim:
        idx = np.expand_dims(idx, d)
    return return_types.kthvalue(KthvalueDim.apply(a, d, keepdim, idx), wrap(idx))


@parsed("mode", "Tensor input, int dim=-1, bool keepdim=False")
@torch_keywords("input", "dim", "keepdim")
def mode(a: Any, dim: int = -1, keepdim: bool = False) -> Any:
    """The value that occurs most often along ``dim`` (the smallest, if several) and the last
    place it occurs."""
    expect_tensor(a, "mode")
    data = a._data
    (d,) = normalize_dims(dim, data.ndim)
    if data.ndim == 0:
        values = ModeDim.apply(a, None, keepdim, None)
        return return_types.mode(values, wrap(np.zeros((), np.int64)))
    if data.shape[d] == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    idx = mode_indices(data, d) if data.size else _no_indices(data, d)
    if keepdim:
        idx = np.expand_dims(idx, d)
    return return_types.mode(ModeDim.apply(a, d, keepdim, idx), wrap(idx))


def _no_indices(data: np.ndarray, dim: int) -> np.ndarray:
    # an empty input's indices: empty, its shape without ``dim``
    return np.zeros(np.delete(np.array(data.shape), dim), np.int64)

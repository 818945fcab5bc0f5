"""gather, scatter, scatter_add and scatter_reduce: reading and writing along a dimension at
the places an index tensor names (``labels`` to one-hot rows: ``zeros(n, k).scatter_(1,
labels[:, None], 1)``).

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/scatter.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api._checks import expect_number, expect_tensor, written_number
from microtorch.api.arguments import parsed
from microtorch.api.inplace import apply_inplace
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node
from microtorch.ops.scatter import (
    Gather,
    Scatter,
    ScatterAdd,
    ScatterCombine,
    ScatterReduce,
    ScatterValue,
)  # fmt: skip

__all__ = ["gather", "scatter", "scatter_", "scatter_add", "scatter_reduce"]

_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


@parsed(
    "gather",
    "Tensor input, int dim, Tensor index, *, bool sparse_grad=False, Tensor out=None",
)
@torch_keywords("input", "dim", "index", out=True)
def gather(a: Any, dim: int, index: Any, *, sparse_grad: bool = False) -> Any:
    """``out[i][j] = a[i][index[i][j]]`` for ``dim=1`` (and so on in other dimensions)."""
    d, idx = _check(a, dim, index, "gather")
    for k, (n_index, n_self) in enumerate(zip(idx.shape, a._data.shape)):
        if k != d and n_index > n_self:
            raise RuntimeError(
                f"Size does not match at dimension {k} expected index {list(idx.shape)} to be "
                f"no larger than self {list(a._data.shape)} apart from dimension {d}"
            )
    _check_bounds(idx, a, d)
    return Gather.apply(a, idx, d)


_SCATTER = (
    "Tensor input, int dim, Tensor index, Tensor src, *, Tensor out=None",
    "Tensor input, int dim, Tensor index, Tensor src, *, str reduce, Tensor out=None",
    "Tensor input, int dim, Tensor index, Number value, *, Tensor out=None",
    "Tensor input, int dim, Tensor index, Number value, *, str reduce, Tensor out=None",
)


@parsed("scatter", *_SCATTER)
@torch_keywords("input", "dim", "index", "src", out=True)
def scatter(
    a: Any, dim: int, index: Any, src: Any = None, *, value: Any = None, reduce: Any = None
) -> Any:
    """``a`` with ``out[i][index[i][j]] = src[i][j]`` for ``dim=1``; ``src`` may be a number;
    ``reduce="add"`` or ``"multiply"`` combines src into ``a``'s values instead."""
    return _scatter(a, dim, index, src, value, reduce, "scatter")


@parsed("scatter_", *[s.removesuffix(", Tensor out=None") for s in _SCATTER])
def scatter_(
    a: Any, dim: int, index: Any, src: Any = None, *, value: Any = None, reduce: Any = None
) -> Any:
    """``scatter``, written into ``a``; returns it (a gradient error names scatter_)."""
    return apply_inplace(a, "scatter_", _scatter, dim, index, src, value, reduce, "scatter_")


def _scatter(a: Any, dim: int, index: Any, src: Any, value: Any, reduce: Any, aten: str) -> Any:
    if (src is None) == (value is None) or not isinstance(reduce, (str, type(None))):
        raise TypeError("scatter() takes a src or a value, and a str reduce")  # (the parser's)
    src = value if src is None else src
    d, idx = _check(a, dim, index, "scatter")
    if isinstance(src, _node.Tensor):
        _check_src(a, idx, src, dim)
    else:
        expect_number(src, "scatter", "value", 4)
        src = written_number(src, a._data.dtype)  # (300 into int8: PyTorch's error)
        _check_sizes(idx, a, None, d)
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError(
            "reduce argument must be either add or multiply. (Fix: for sum, prod, mean, amax "
            "or amin, use scatter_reduce)"
        )
    _check_bounds(idx, a, d)
    if reduce is None:
        if isinstance(src, _node.Tensor):
            return Scatter.apply(a, idx, src, d)
        return ScatterValue.apply(a, idx, src, d)
    if isinstance(src, _node.Tensor) and not _warned:
        _warned.append(True)  # (PyTorch warns once per process, and not for a number)
        warn(_DEPRECATED_REDUCE)
    return ScatterCombine.apply(a, idx, src, d, reduce, aten)


_warned: list[bool] = []
_DEPRECATED_REDUCE = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in "
    "a future PyTorch release. Use torch.scatter_reduce instead for more reduction options."
)


@parsed(
    "scatter_add",
    "Tensor input, int dim, Tensor index, Tensor src, *, Tensor out=None",
)
@torch_keywords("input", "dim", "index", "src")
def scatter_add(a: Any, dim: int, index: Any, src: Any) -> Any:
    """``a`` with ``src[i][j]`` added to ``out[i][index[i][j]]`` for ``dim=1``."""
    expect_tensor(src, "scatter_add", "src", 3)
    d, idx = _check(a, dim, index, "scatter_add")
    _check_src(a, idx, src, dim)
    return ScatterAdd.apply(a, idx, src, d)


@parsed(
    "scatter_reduce",
    "Tensor input, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True",
)
@torch_keywords("input", "dim", "index", "src", "reduce")
def scatter_reduce(
    a: Any, dim: int, index: Any, src: Any, reduce: str, *, include_self: bool = True
) -> Any:
    """``a``'s values combined with the ``src`` values scattered to each place, by ``reduce``
    (sum, prod, mean, amax or amin); ``include_self=False`` leaves ``a``'s own out."""
    expect_tensor(src, "scatter_reduce", "src", 3)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    d, idx = _check(a, dim, index, "scatter_reduce")
    _check_src(a, idx, src, dim)
    needs_grad = a.requires_grad or src.requires_grad
    if reduce not in ("sum", "mean") and needs_grad and grad_mode.state.grad_enabled:
        raise NotImplementedError(
            f"microtorch has the gradient of scatter_reduce for 'sum' and 'mean' only, not "
            f"'{reduce}' (Fix: compute it under torch.no_grad(), or use 'sum')"
        )
    return ScatterReduce.apply(a, idx, src, d, reduce, include_self)


def _check(a: Any, dim: int, index: Any, op: str) -> tuple[int, np.ndarray]:
    # the dimension (as a number from 0) and the index's values, with PyTorch's errors
    expect_tensor(a, op)
    expect_tensor(index, op, "index", 3)
    if index._dtype.name not in ("int64", "int32"):  # (scatter_add's says scatter() too)
        raise RuntimeError(f"{'gather' if op == 'gather' else 'scatter'}(): Expected dtype "
                           "int32/int64 for index")  # fmt: skip
    (d,) = normalize_dims(dim, a._data.ndim)
    if a._data.ndim == 0 or index._data.ndim == 0:
        raise NotImplementedError(
            f"microtorch's {op} takes tensors of one or more dimensions (Fix: x.reshape(1))"
        )
    if index._data.ndim != a._data.ndim:
        tensor = "input" if op == "gather" else "self"
        raise RuntimeError(
            f"Index tensor must have the same number of dimensions as {tensor} tensor"
        )
    return d, index._data.astype(np.int64)


def _check_src(a: Any, idx: np.ndarray, src: Any, dim: int) -> None:
    # (PyTorch reads dim against src's dimensions too; its dtype error says scatter() for all)
    if src._data.ndim != idx.ndim:
        if src._data.ndim:
            normalize_dims(dim, src._data.ndim)
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if src._dtype is not a._dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    (d,) = normalize_dims(dim, a._data.ndim)
    _check_sizes(idx, a, src, d)
    _check_bounds(idx, a, d)


def _check_sizes(idx: np.ndarray, a: Any, src: Any, d: int) -> None:
    bigger = any(k != d and n > m for k, (n, m) in enumerate(zip(idx.shape, a._data.shape)))
    if src is not None:
        bigger = bigger or any(n > m for n, m in zip(idx.shape, src._data.shape))
    if bigger:
        raise RuntimeError(
            f"Expected index {list(idx.shape)} to be no larger than self "
            f"{list(a._data.shape)} apart from dimension {d}"
            + ("" if src is None else f" and to be no larger size than src {list(src._data.shape)}")
        )


def _check_bounds(idx: np.ndarray, a: Any, d: int) -> None:
    size = a._data.shape[d]
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        raise RuntimeError(
            f"index {bad.flat[0]} is out of bounds for dimension {d} with size {size}"
        )

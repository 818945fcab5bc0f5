"""Reductions over dimensions: sum, mean, max/min, amax/amin, var/std, softmax, log_softmax.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/reduction.py``.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api import return_types
from microtorch.api._checks import expect_tensor, views_first
from microtorch.api.arguments import NO_DIM, expect_bool, expect_int, parsed
from microtorch.api.elementwise import maximum, minimum
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand, wrap
from microtorch.autograd import node as _node
from microtorch.dtypes import dtype as DType
from microtorch.dtypes import get_default_dtype, int64
from microtorch.ops.reduction import (
    Amax,
    Amin,
    LogSoftmax,
    Logsumexp,
    MaxAll,
    MaxDim,
    Mean,
    MeanDim,
    MinAll,
    MinDim,
    Softmax,
    Std,
    Sum,
    SumDim,
    Var,
    _count,
)

__all__ = [
    "normalize_dims",
    "distinct_dims",
    "sum",
    "mean",
    "max",
    "min",
    "amax",
    "amin",
    "argmax",
    "argmin",
    "var",
    "std",
    "softmax",
    "log_softmax",
    "logsumexp",
]

Dims = int | tuple[int, ...] | list[int] | None


def normalize_dims(dim: Dims, ndim: int) -> tuple[int, ...]:
    """Dims as non-negative ints; PyTorch's IndexError for one out of range."""
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else () if dim is None else (dim,)
    n = builtins.max(ndim, 1)  # this module's max() is the tensor op, not the builtin
    lo, hi = -n, n - 1
    out = []
    for d in dims:
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool):  # (as PyTorch)
            raise TypeError(f"dim must be an int or a tuple of ints, not {type(d).__name__}")
        if not lo <= d <= hi:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {d})"
            )
        out.append(d % n)
    return tuple(out)


def _axes(dim: Dims, ndim: int) -> tuple[int, ...]:
    # a 0-d tensor accepts dim 0 or -1 (as PyTorch), but has no axis to reduce
    dims = distinct_dims(normalize_dims(dim, ndim))
    return dims if ndim else ()


def distinct_dims(dims: tuple[int, ...]) -> tuple[int, ...]:
    """``dims``, with PyTorch's error if one is listed twice (``sum(dim=(1, -1))`` in 2-d)."""
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims


def _reduce_dtype(a: Any, dtype: Any) -> Any:
    if dtype is not None:
        return dtype.numpy
    return None if a._dtype.is_floating_point else int64.numpy  # ints and bools sum to int64


@parsed(
    "sum",
    "Tensor input, *, torch.dtype dtype=None",
    "Tensor input, tuple of ints dim, bool keepdim=False, *, torch.dtype dtype=None",
)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def sum(a: Any, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None) -> Any:  # noqa: A001
    """Sum of all elements, or along ``dim`` (an int or a tuple of ints)."""
    expect_tensor(a, "sum")
    if dim is None:
        return Sum.apply(a, _reduce_dtype(a, dtype))
    expect_bool(keepdim, "keepdim")
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))  # dim=(): all, as PyTorch
    return SumDim.apply(a, axes, keepdim, _reduce_dtype(a, dtype))


@parsed(
    "mean",
    "Tensor input, *, torch.dtype dtype=None, Tensor out=None",
    "Tensor input, tuple of ints dim, bool keepdim=False, *, torch.dtype dtype=None, "
    "Tensor out=None",
)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def mean(a: Any, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """Average of all elements, or along ``dim``; needs a floating dtype."""
    if dtype is not None:
        a = as_operand(a, dtype)
    if not a._dtype.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {a._dtype._legacy[:-6]} (Fix: x.float().mean())"
        )
    if dim is None:
        return Mean.apply(a)
    expect_bool(keepdim, "keepdim")
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))  # dim=(): all, as PyTorch
    return MeanDim.apply(a, axes, keepdim)


def _check_nonempty(
    a: Any,
    name: str,
    axes: tuple[int, ...] | None = None,
    error: type[Exception] = RuntimeError,
    written: Dims = None,
) -> None:
    # (``written``: the dims as the user wrote them, which amax's message names: "dim -2")
    if a._data.size != 0:
        return
    if axes is None:
        raise error(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )
    shown = (
        axes if written is None else written if isinstance(written, (tuple, list)) else (written,)
    )
    for d, as_written in zip(axes, shown):
        if a._data.shape[d] == 0:
            raise IndexError(
                f"{name}(): Expected reduction dim {as_written} to have non-zero size."
            )


def _minmax(a: Any, dim: Any, keepdim: Any, largest: bool) -> Any:
    name = "max" if largest else "min"
    result = return_types.max if largest else return_types.min
    if dim is NO_DIM:
        if keepdim is not False:  # (the parser's TypeError: PyTorch's keepdim needs a dim)
            raise TypeError(f"{name}(): keepdim needs a dim")
        _check_nonempty(a, name)
        return (MaxAll if largest else MinAll).apply(a, None, False)
    expect_int(dim, "dim")
    expect_bool(keepdim, "keepdim")
    (d,) = normalize_dims(dim, a._data.ndim)
    if a._data.ndim == 0:
        values = (MaxDim if largest else MinDim).apply(a, None, keepdim, None)
        return result(values, wrap(np.zeros((), np.int64)))
    _check_nonempty(a, name, (d,))
    idx = (np.argmax if largest else np.argmin)(a._data, axis=d, keepdims=keepdim)
    idx = idx.astype(np.int64, copy=False)  # one array: the node saves what it returns
    values = (MaxDim if largest else MinDim).apply(a, d, keepdim, idx)
    return result(values, wrap(idx))


_MAX = (
    "Tensor input, *, Tensor out=None",
    "Tensor input, Tensor other, *, Tensor out=None",
    "Tensor input, int dim, bool keepdim=False, *, tuple of Tensors out=None",
)


@parsed("max", *_MAX)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def max(a: Any, dim: Any = NO_DIM, keepdim: bool = False) -> Any:  # noqa: A001
    """The largest element; with ``dim``, a ``(values, indices)`` pair; with a tensor,
    the element-wise maximum."""
    if isinstance(dim, _node.Tensor):
        if keepdim is not False:  # (the parser's TypeError: max(other) takes no keepdim)
            raise TypeError("max(): keepdim with a tensor")
        return maximum(a, dim)
    return _minmax(a, dim, keepdim, True)


@parsed("min", *_MAX)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def min(a: Any, dim: Any = NO_DIM, keepdim: bool = False) -> Any:  # noqa: A001
    """The smallest element; with ``dim``, a ``(values, indices)`` pair."""
    if isinstance(dim, _node.Tensor):
        if keepdim is not False:  # (the parser's TypeError: min(other) takes no keepdim)
            raise TypeError("min(): keepdim with a tensor")
        return minimum(a, dim)
    return _minmax(a, dim, keepdim, False)


@parsed("amax", "Tensor input, tuple of ints dim=[], bool keepdim=False")
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def amax(a: Any, dim: Dims = (), keepdim: bool = False) -> Any:
    """Largest values along ``dim`` (all dims if empty); ties share the gradient."""
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))
    _check_nonempty(a, "amax", axes if dim not in ((), None) else None, written=dim)
    expect_bool(keepdim, "keepdim")
    return Amax.apply(a, axes, keepdim)


@parsed("amin", "Tensor input, tuple of ints dim=[], bool keepdim=False")
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def amin(a: Any, dim: Dims = (), keepdim: bool = False) -> Any:
    """Smallest values along ``dim`` (all dims if empty); ties share the gradient."""
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))
    _check_nonempty(a, "amin", axes if dim not in ((), None) else None, written=dim)
    expect_bool(keepdim, "keepdim")
    return Amin.apply(a, axes, keepdim)


@parsed("argmax", "Tensor input, int dim=None, bool keepdim=False")
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def argmax(a: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """Index of the largest element (of the flattened tensor if ``dim`` is None)."""
    if a._dtype.name == "bool":
        raise RuntimeError("argmax(): does not support bool input (Fix: convert, e.g. x.int())")
    if dim is None:
        _check_nonempty(a, "argmax", None, IndexError)
        return wrap(np.asarray(np.argmax(a._data), dtype=np.int64))
    (d,) = normalize_dims(dim, a._data.ndim)
    _check_nonempty(a, "argmax", (d,))
    return wrap(np.argmax(a._data, axis=d, keepdims=keepdim).astype(np.int64))


@parsed("argmin", "Tensor input, int dim=None, bool keepdim=False")
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def argmin(a: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """Index of the smallest element (of the flattened tensor if ``dim`` is None)."""
    if a._dtype.name == "bool":
        raise RuntimeError("argmin(): does not support bool input (Fix: convert, e.g. x.int())")
    if dim is None:
        _check_nonempty(a, "argmin", None, IndexError)
        return wrap(np.asarray(np.argmin(a._data), dtype=np.int64))
    (d,) = normalize_dims(dim, a._data.ndim)
    _check_nonempty(a, "argmin", (d,))
    return wrap(np.argmin(a._data, axis=d, keepdims=keepdim).astype(np.int64))


def _var_args(a: Any, dim: Dims, unbiased: bool | None, correction: int | None, op: str) -> tuple:
    if not a._dtype.is_floating_point:
        raise RuntimeError(
            "std and var only support floating point and complex dtypes (Fix: x.float().var())"
        )
    if isinstance(dim, bool):  # var(x, False): the old (input, unbiased) form
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    axes = _axes(dim, a._data.ndim) if dim is not None else tuple(range(a._data.ndim))
    # the result is nan (or inf); an empty input always warns (PyTorch's factor is then 0)
    if a._data.size == 0 or _count(a._data.shape, axes) - correction <= 0:
        views_first(a)  # (PyTorch's kernel warns, after its autograd layer looked at a)
        warn(
            f"{op}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
        )
    return axes, correction, dim is None


@parsed(
    "var",
    "Tensor input, tuple of ints dim, bool unbiased=True, bool keepdim=False",
    "Tensor input, tuple of ints dim=None, *, Number correction=None, bool keepdim=False",
    "Tensor input, bool unbiased=True",
)
@torch_keywords("input", "dim", numpy_aliases=True)
def var(
    a: Any,
    dim: Dims = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: int | None = None,
) -> Any:
    """Variance, with Bessel's correction (divide by n - 1) by default, as PyTorch."""
    axes, c, whole = _var_args(a, dim, unbiased, correction, "var")
    return Var.apply(a, axes, keepdim, c, whole)


@parsed(
    "std",
    "Tensor input, tuple of ints dim, bool unbiased=True, bool keepdim=False",
    "Tensor input, tuple of ints dim=None, *, Number correction=None, bool keepdim=False",
    "Tensor input, bool unbiased=True",
)
@torch_keywords("input", "dim", numpy_aliases=True)
def std(
    a: Any,
    dim: Dims = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: int | None = None,
) -> Any:
    """Standard deviation: the square root of ``var``."""
    axes, c, _ = _var_args(a, dim, unbiased, correction, "std")
    return Std.apply(a, axes, keepdim, c)


def _softmax_input(a: Any, dim: int | None, dtype: Any, name: str) -> tuple[Any, int]:
    if dim is None:
        raise TypeError(
            f'{name}() missing 1 required positional arguments: "dim" (e.g. dim=-1, the last)'
        )
    expect_int(dim, "dim")
    if dtype is not None and not isinstance(dtype, DType):
        raise TypeError(f"dtype must be a torch.dtype, not {type(dtype).__name__}")
    (d,) = normalize_dims(dim, a._data.ndim)  # (a 0-d tensor: 0 or -1, as PyTorch)
    if dtype is None and not a._dtype.is_floating_point and a._data.size:  # (empty: no kernel)
        kernel = "lastdim_kernel_impl" if d == builtins.max(a._data.ndim - 1, 0) else "kernel_impl"
        raise NotImplementedError(
            f"\"{name}_{kernel}\" not implemented for '{a._dtype._legacy[: -len('Tensor')]}' "
            f"(Fix: convert first, x.float().{name}(dim), or pass dtype=torch.float32)"
        )
    return as_operand(a, dtype or a._dtype), d


@parsed("softmax", "Tensor input, int dim, torch.dtype dtype=None")
@torch_keywords("input", "dim", numpy_aliases=True)
def softmax(a: Any, dim: int | None = None, dtype: Any = None) -> Any:
    """exp(a) / sum(exp(a)) along ``dim``: probabilities that sum to 1."""
    a, d = _softmax_input(a, dim, dtype, "softmax")
    if a._data.size == 0 and not a._dtype.is_floating_point:  # (as PyTorch: empty, its dtype)
        return wrap(np.empty(a._data.shape, a._data.dtype), a._device)
    return Softmax.apply(a, d if a._data.ndim else None)


@parsed("log_softmax", "Tensor input, int dim, torch.dtype dtype=None")
@torch_keywords("input", "dim", numpy_aliases=True)
def log_softmax(a: Any, dim: int | None = None, dtype: Any = None) -> Any:
    """log(softmax(a)) along ``dim``, computed stably."""
    a, d = _softmax_input(a, dim, dtype, "log_softmax")
    if a._data.size == 0 and not a._dtype.is_floating_point:  # (as PyTorch: empty, its dtype)
        return wrap(np.empty(a._data.shape, a._data.dtype), a._device)
    return LogSoftmax.apply(a, d if a._data.ndim else None)


@parsed("logsumexp", "Tensor input, tuple of ints dim, bool keepdim=False")
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def logsumexp(a: Any, dim: Dims, keepdim: bool = False) -> Any:
    """log(sum(exp(a))) along ``dim``, computed stably."""
    if dim is None:  # (the parser's TypeError: PyTorch needs the dims)
        raise TypeError("logsumexp() needs dim")
    expect_tensor(a, "logsumexp")
    if not a._dtype.is_floating_point:
        a = as_operand(a, get_default_dtype())
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))
    expect_bool(keepdim, "keepdim")
    return Logsumexp.apply(a, axes, keepdim)

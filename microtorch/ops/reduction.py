"""Reductions over dimensions: sum, mean, max/min, amax/amin, var/std, softmax, log_softmax."""

from __future__ import annotations

import builtins
import warnings
from collections import namedtuple
from typing import Any

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.dtypes import int64
from microtorch.ops._broadcast import expand
from microtorch.ops._checks import expect_tensor, views_first
from microtorch.ops._layout import row_major
from microtorch.ops.elementwise import as_operand, wrap
from microtorch.ops.keywords import torch_keywords

__all__ = [
    "normalize_dims", "distinct_dims", "sum", "mean", "max", "min", "amax", "amin", "argmax",
    "argmin", "var",
    "std", "softmax", "log_softmax", "logsumexp",
]  # fmt: skip

Dims = int | tuple[int, ...] | list[int] | None
_MinMax = namedtuple("_MinMax", ["values", "indices"])


def normalize_dims(dim: Dims, ndim: int) -> tuple[int, ...]:
    """Dims as non-negative ints; PyTorch's IndexError for one out of range."""
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else () if dim is None else (dim,)
    n = builtins.max(ndim, 1)  # this module's max() is the tensor op, not the builtin
    lo, hi = -n, n - 1
    out = []
    for d in dims:
        if not isinstance(d, (int, np.integer)):
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


_HALF = np.dtype(np.float16)  # float16 sums and means add up in float32, rounded once at the end


def distinct_dims(dims: tuple[int, ...]) -> tuple[int, ...]:
    """``dims``, with PyTorch's error if one is listed twice (``sum(dim=(1, -1))`` in 2-d)."""
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims


def _expand_back(grad: np.ndarray, shape: tuple[int, ...], axes: tuple[int, ...], keep: bool):
    # Put the reduced dimensions back as size 1, then broadcast to the input's shape.
    if not keep and axes:
        grad = np.expand_dims(grad, axes)
    return expand(grad, shape)


class Sum(NumpyFunction):
    """z = sum(a), so dz/da = 1 for every element: the gradient is copied to each one."""

    node_name = "SumBackward0"
    ctx_fields = ("shape",)

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.shape = a.shape
        if dtype is None and a.dtype == _HALF:  # float16 adds up in float32, as PyTorch
            return a.sum(dtype=np.float32).astype(_HALF)
        return a.sum(dtype=dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return expand(grad_output, ctx.shape)  # the same value, for every element


class SumDim(NumpyFunction):
    """z = sum(a, dim), so dz/da = 1: each element gets the gradient of its sum."""

    node_name = "SumBackward1"
    ctx_fields = ("shape", "axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim, dtype):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, axes, keepdim
        if dtype is None and a.dtype == _HALF:  # float16 adds up in float32, as PyTorch
            return row_major(a.sum(axis=axes, keepdims=keepdim, dtype=np.float32).astype(_HALF))
        return row_major(a.sum(axis=axes, keepdims=keepdim, dtype=dtype))  # (as PyTorch's)

    @staticmethod
    def backward(ctx, grad_output):
        return _expand_back(grad_output, ctx.shape, ctx.axes, ctx.keepdim)


class Mean(NumpyFunction):
    """z = mean(a) = sum(a) / n, so dz/da = 1 / n for every element."""

    node_name = "MeanBackward0"
    ctx_fields = ("shape", "n")

    @staticmethod
    def forward(ctx, a):
        ctx.shape, ctx.n = a.shape, builtins.max(a.size, 1)
        if a.size == 0:  # the mean of nothing is nan (numpy would also warn)
            return np.full((), np.nan, a.dtype)
        if a.dtype == _HALF:  # float16 adds up in float32, as PyTorch
            return (a.sum(dtype=np.float32) / a.size).astype(_HALF)
        return a.sum() / a.dtype.type(a.size)

    @staticmethod
    def backward(ctx, grad_output):
        return np.full(ctx.shape, grad_output / ctx.n)  # 1 / n of the gradient, everywhere


class MeanDim(NumpyFunction):
    """z = mean(a, dim), so dz/da = 1 / n, n the number of elements averaged."""

    node_name = "MeanBackward1"
    ctx_fields = ("shape", "axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim):
        ctx.shape, ctx.axes, ctx.keepdim = a.shape, axes, keepdim
        n = a.dtype.type(_count(a.shape, axes))
        if a.dtype == _HALF:  # float16 adds up in float32, as PyTorch
            return row_major(
                (a.sum(axis=axes, keepdims=keepdim, dtype=np.float32) / n).astype(_HALF)
            )
        return row_major(a.sum(axis=axes, keepdims=keepdim) / n)

    @staticmethod
    def backward(ctx, grad_output):
        n = int(np.prod([ctx.shape[d] for d in ctx.axes]))
        return _expand_back(grad_output, ctx.shape, ctx.axes, ctx.keepdim) / n


class _Extreme(NumpyFunction):
    """Shared backward of max/min/amax/amin: the gradient goes to the extreme element(s),
    split evenly when several tie."""

    _fill = False  # PyTorch's max()/min() fill zeros (+0.0); amax/amin multiply (-0.0 if g < 0)

    ctx_fields = ("axes", "keepdim")

    @classmethod
    def forward(cls, ctx, a, axes, keepdim):
        # a classmethod: ``reduce`` belongs to the subclass, not to ctx (the graph node)
        out = row_major(np.asarray(cls.reduce(a, axis=axes, keepdims=keepdim)))  # even if 0-d
        ctx.save_for_backward(a, out)
        ctx.axes, ctx.keepdim = axes, keepdim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        extreme = _expand_back(out, a.shape, ctx.axes, ctx.keepdim)
        hit = a == extreme
        if ctx._function._fill:  # max() of a nan is nan: the nans get the gradient (PyTorch)
            hit |= np.isnan(a) & np.isnan(extreme)
        count = hit.sum(axis=ctx.axes, keepdims=True, dtype=grad_output.dtype)
        g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
        if ctx._function._fill:
            return np.where(hit, g / count, np.zeros((), g.dtype))
        return hit * (g / count)


class MaxAll(_Extreme):
    """z = max(a): dz/da = 1 at the largest element (split evenly among ties), else 0."""

    node_name, reduce, _fill = "MaxBackward1", staticmethod(np.max), True


class MinAll(_Extreme):
    """z = min(a): dz/da = 1 at the smallest element (split evenly among ties), else 0."""

    node_name, reduce, _fill = "MinBackward1", staticmethod(np.min), True


class Amax(_Extreme):
    """z = amax(a, dim): dz/da = 1 at each largest element (split evenly among ties)."""

    node_name, reduce = "AmaxBackward0", staticmethod(np.max)


class Amin(_Extreme):
    """z = amin(a, dim): dz/da = 1 at each smallest element (split evenly among ties)."""

    node_name, reduce = "AminBackward0", staticmethod(np.min)


class _SelectAlong(NumpyFunction):
    """Shared backward of max/min with ``dim``: the gradient goes to the returned index."""

    ctx_fields = ("shape", "dim", "keepdim")

    @staticmethod
    def forward(ctx, a, dim, keepdim, indices):
        ctx.save_for_backward(indices)
        ctx.shape, ctx.dim, ctx.keepdim = a.shape, dim, keepdim
        if dim is None:  # a 0-d input: its only element
            return a.copy()
        idx = indices if keepdim else np.expand_dims(indices, dim)
        out = np.take_along_axis(a, idx, axis=dim)
        return out if keepdim else np.squeeze(out, axis=dim)

    @staticmethod
    def backward(ctx, grad_output):
        (indices,) = ctx.saved_tensors
        if ctx.dim is None:
            return grad_output
        idx = indices if ctx.keepdim else np.expand_dims(indices, ctx.dim)
        g = grad_output if ctx.keepdim else np.expand_dims(grad_output, ctx.dim)
        out = np.zeros(ctx.shape, grad_output.dtype)
        np.put_along_axis(out, idx, g, axis=ctx.dim)
        return out


class MaxDim(_SelectAlong):
    """values, indices = max(a, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "MaxBackward0"


class MinDim(_SelectAlong):
    """values, indices = min(a, dim): dz/da = 1 at each returned index, else 0."""

    node_name = "MinBackward0"


def _reduce_dtype(a: Any, dtype: Any) -> Any:
    if dtype is not None:
        return dtype.numpy
    return None if a._dtype.is_floating_point else int64.numpy  # ints and bools sum to int64


@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def sum(a: Any, dim: Dims = None, keepdim: bool = False, *, dtype: Any = None) -> Any:  # noqa: A001
    """Sum of all elements, or along ``dim`` (an int or a tuple of ints)."""
    expect_tensor(a, "sum")
    if dim is None:
        return Sum.apply(a, _reduce_dtype(a, dtype))
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))  # dim=(): all, as PyTorch
    return SumDim.apply(a, axes, keepdim, _reduce_dtype(a, dtype))


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
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))  # dim=(): all, as PyTorch
    return MeanDim.apply(a, axes, keepdim)


def _check_nonempty(
    a: Any, name: str, axes: tuple[int, ...] | None = None, error: type[Exception] = RuntimeError
) -> None:
    if a._data.size != 0:
        return
    if axes is None:
        raise error(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )
    for d in axes:
        if a._data.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _minmax(a: Any, dim: int | None, keepdim: bool, largest: bool) -> Any:
    name = "max" if largest else "min"
    if dim is None:
        _check_nonempty(a, name)
        return (MaxAll if largest else MinAll).apply(a, None, False)
    (d,) = normalize_dims(dim, a._data.ndim)
    if a._data.ndim == 0:
        values = (MaxDim if largest else MinDim).apply(a, None, keepdim, None)
        return _MinMax(values, wrap(np.zeros((), np.int64)))
    _check_nonempty(a, name, (d,))
    idx = (np.argmax if largest else np.argmin)(a._data, axis=d, keepdims=keepdim)
    idx = idx.astype(np.int64, copy=False)  # one array: the node saves what it returns
    values = (MaxDim if largest else MinDim).apply(a, d, keepdim, idx)
    return _MinMax(values, wrap(idx))


@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def max(a: Any, dim: int | Any | None = None, keepdim: bool = False) -> Any:  # noqa: A001
    """The largest element; with ``dim``, a ``(values, indices)`` pair; with a tensor,
    the element-wise maximum."""
    if hasattr(dim, "_data"):
        from microtorch.ops.elementwise import maximum

        return maximum(a, dim)
    return _minmax(a, dim, keepdim, True)


@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def min(a: Any, dim: int | Any | None = None, keepdim: bool = False) -> Any:  # noqa: A001
    """The smallest element; with ``dim``, a ``(values, indices)`` pair."""
    if hasattr(dim, "_data"):
        from microtorch.ops.elementwise import minimum

        return minimum(a, dim)
    return _minmax(a, dim, keepdim, False)


@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def amax(a: Any, dim: Dims = (), keepdim: bool = False) -> Any:
    """Largest values along ``dim`` (all dims if empty); ties share the gradient."""
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))
    _check_nonempty(a, "amax", axes if dim not in ((), None) else None)
    return Amax.apply(a, axes, keepdim)


@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def amin(a: Any, dim: Dims = (), keepdim: bool = False) -> Any:
    """Smallest values along ``dim`` (all dims if empty); ties share the gradient."""
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))
    _check_nonempty(a, "amin", axes if dim not in ((), None) else None)
    return Amin.apply(a, axes, keepdim)


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


class Var(NumpyFunction):
    """z = sum((a - mean(a))**2) / (n - c), so dz/da = 2 (a - mean(a)) / (n - c)."""

    node_name = "VarBackward0"
    ctx_fields = ("axes", "keepdim", "divisor")

    @staticmethod
    def forward(ctx, a, axes, keepdim, correction):
        ctx.save_for_backward(a)
        ctx.axes, ctx.keepdim = axes, keepdim
        ctx.divisor = builtins.max(_count(a.shape, axes) - correction, 0)
        var = _sum_of_squares(a, axes, keepdim) / ctx.divisor  # n <= correction: nan
        return row_major(np.asarray(var.astype(a.dtype, copy=False)))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        centred = a - _mean(a, ctx.axes)
        g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
        return g * 2 * centred / ctx.divisor


class Std(NumpyFunction):
    """z = sqrt(var(a)), so dz/da = (a - mean(a)) / ((n - correction) * z)."""

    node_name = "StdBackward0"
    ctx_fields = ("axes", "keepdim", "divisor")

    @staticmethod
    def forward(ctx, a, axes, keepdim, correction):
        ctx.axes, ctx.keepdim = axes, keepdim
        ctx.divisor = builtins.max(_count(a.shape, axes) - correction, 0)
        std = np.sqrt(_sum_of_squares(a, axes, keepdim) / ctx.divisor)
        out = row_major(np.asarray(std.astype(a.dtype, copy=False)))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        centred = a - _mean(a, ctx.axes)
        g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
        out = _expand_back(out, a.shape, ctx.axes, ctx.keepdim)
        return np.where(out == 0, 0, g * centred / (ctx.divisor * out))  # z = 0: 0 (PyTorch)


def _sum_of_squares(a: np.ndarray, axes: tuple[int, ...], keepdim: bool) -> np.ndarray:
    # sum((a - mean(a))**2) in float64, as PyTorch's CPU kernel adds it up (in float32 the
    # squares of values near 1e20 overflow): the caller gives its result in a's dtype
    wide = a.astype(np.float64, copy=False)
    return ((wide - _mean(wide, axes)) ** 2).sum(axis=axes, keepdims=keepdim)


def _mean(a: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    # the mean along axes, kept as size 1 (of no elements: nan, without numpy's warning)
    return a.sum(axis=axes, keepdims=True) / a.dtype.type(_count(a.shape, axes))


def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return int(np.prod([shape[d] for d in axes]))


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
    if _count(a._data.shape, axes) - correction <= 0:  # the result is nan (or inf)
        views_first(a)  # (PyTorch's kernel warns, after its autograd layer looked at a)
        warnings.warn(
            f"{op}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=3,
        )
    return axes, correction


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
    axes, c = _var_args(a, dim, unbiased, correction, "var")
    return Var.apply(a, axes, keepdim, c)


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
    axes, c = _var_args(a, dim, unbiased, correction, "std")
    return Std.apply(a, axes, keepdim, c)


class Softmax(NumpyFunction):
    """y = exp(a) / sum(exp(a)) along dim, so the gradient is y * (g - sum(g * y))."""

    node_name = "SoftmaxBackward0"
    ctx_fields = ("dim",)

    @staticmethod
    def forward(ctx, a, dim):
        # softmax is shift-invariant; keeps exp() finite (initial: an empty dim has no max)
        shifted = a - a.max(axis=dim, keepdims=True, initial=-np.inf)
        e = np.exp(shifted)
        out = row_major(e / e.sum(axis=dim, keepdims=True))  # PyTorch's layout, whatever a's
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return out * (grad_output - (grad_output * out).sum(axis=ctx.dim, keepdims=True))


class LogSoftmax(NumpyFunction):
    """y = a - log(sum(exp(a))) along dim, so the gradient is g - softmax(a) * sum(g)."""

    node_name = "LogSoftmaxBackward0"
    ctx_fields = ("dim",)

    @staticmethod
    def forward(ctx, a, dim):
        shifted = a - a.max(axis=dim, keepdims=True, initial=-np.inf)  # keeps exp() finite
        out = row_major(shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True)))
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output - np.exp(out) * grad_output.sum(axis=ctx.dim, keepdims=True)


def _softmax_input(a: Any, dim: int | None, dtype: Any, name: str) -> tuple[Any, int]:
    if dim is None:
        raise TypeError(
            f'{name}() missing 1 required positional arguments: "dim" (e.g. dim=-1, the last)'
        )
    (d,) = normalize_dims(dim, a._data.ndim) if a._data.ndim else (0,)
    if dtype is None and not a._dtype.is_floating_point:
        kernel = "lastdim_kernel_impl" if d == builtins.max(a._data.ndim - 1, 0) else "kernel_impl"
        raise NotImplementedError(
            f"\"{name}_{kernel}\" not implemented for '{a._dtype._legacy[: -len('Tensor')]}' "
            f"(Fix: convert first, x.float().{name}(dim), or pass dtype=torch.float32)"
        )
    return as_operand(a, dtype or a._dtype), d


@torch_keywords("input", "dim", numpy_aliases=True)
def softmax(a: Any, dim: int | None = None, dtype: Any = None) -> Any:
    """exp(a) / sum(exp(a)) along ``dim``: probabilities that sum to 1."""
    a, d = _softmax_input(a, dim, dtype, "softmax")
    return Softmax.apply(a, d if a._data.ndim else None)


@torch_keywords("input", "dim", numpy_aliases=True)
def log_softmax(a: Any, dim: int | None = None, dtype: Any = None) -> Any:
    """log(softmax(a)) along ``dim``, computed stably."""
    a, d = _softmax_input(a, dim, dtype, "log_softmax")
    return LogSoftmax.apply(a, d if a._data.ndim else None)


class Logsumexp(NumpyFunction):
    """z = log(sum(exp(a))) along dims, so dz/da = exp(a - z) = softmax(a)."""

    node_name = "LogsumexpBackward0"
    ctx_fields = ("axes", "keepdim")

    @staticmethod
    def forward(ctx, a, axes, keepdim):
        m = a.max(axis=axes, keepdims=True, initial=-np.inf)  # shift-invariant: exp() finite
        m = np.where(np.isfinite(m), m, 0)
        out = np.log(np.exp(a - m).sum(axis=axes, keepdims=True)) + m
        out = row_major(out if keepdim else np.squeeze(out, axis=axes))
        ctx.save_for_backward(a, out)
        ctx.axes, ctx.keepdim = axes, keepdim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        g = _expand_back(grad_output, a.shape, ctx.axes, ctx.keepdim)
        return g * np.exp(a - _expand_back(out, a.shape, ctx.axes, ctx.keepdim))


@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def logsumexp(a: Any, dim: Dims, keepdim: bool = False) -> Any:
    """log(sum(exp(a))) along ``dim``, computed stably."""
    expect_tensor(a, "logsumexp")
    if not a._dtype.is_floating_point:
        from microtorch.dtypes import get_default_dtype

        a = as_operand(a, get_default_dtype())
    axes = _axes(dim, a._data.ndim) or tuple(range(a._data.ndim))
    return Logsumexp.apply(a, axes, keepdim)

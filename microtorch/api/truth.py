"""Questions about values, answered with bool tensors: isnan, isinf, isfinite, isposinf,
isneginf, signbit, any, all.

None of these has a gradient: their results are bools.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor, views_first
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.api.out_argument import call_with_out
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import node as _node

__all__ = ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit", "any", "all"]


def isnan(input: Any) -> Any:  # noqa: A002 - PyTorch's name
    """True where an element is nan (not a number)."""
    expect_tensor(input, "isnan")
    return wrap(np.isnan(input._data), input._device)


def isinf(input: Any) -> Any:  # noqa: A002
    """True where an element is inf or -inf."""
    expect_tensor(input, "isinf")
    return wrap(np.isinf(input._data), input._device)


def isfinite(input: Any) -> Any:  # noqa: A002
    """True where an element is neither nan nor infinite."""
    expect_tensor(input, "isfinite")
    if input._data.dtype.kind == "f":  # (PyTorch's is (x == x) * (x.abs() != inf): its abs
        views_first(input)  # refuses a view it no longer lets you use)
    return wrap(np.isfinite(input._data), input._device)


def _bool_out(name: str, fn: Any, input: Any, out: Any) -> Any:  # noqa: A002
    # fn(input), or written into ``out``, which must be a bool tensor (PyTorch's check)
    if out is None:
        return fn(input)
    if isinstance(out, _node.Tensor) and out._dtype.name != "bool":
        raise RuntimeError(
            f"{name} does not support non-boolean outputs. (Fix: out=torch.empty(0, "
            "dtype=torch.bool))"
        )
    return call_with_out(name, fn, (input,), {}, out)


def _isposinf(input: Any) -> Any:  # noqa: A002
    expect_tensor(input, "isposinf")
    return wrap(np.isposinf(input._data), input._device)


def _isneginf(input: Any) -> Any:  # noqa: A002
    expect_tensor(input, "isneginf")
    return wrap(np.isneginf(input._data), input._device)


def _signbit(input: Any) -> Any:  # noqa: A002
    expect_tensor(input, "signbit")
    return wrap(np.signbit(input._data), input._device)  # (True for -0.0 and -nan too)


def isposinf(input: Any, *, out: Any = None) -> Any:  # noqa: A002
    """True where an element is inf (integers and bools: never)."""
    return _bool_out("isposinf", _isposinf, input, out)


def isneginf(input: Any, *, out: Any = None) -> Any:  # noqa: A002
    """True where an element is -inf (integers and bools: never)."""
    return _bool_out("isneginf", _isneginf, input, out)


def signbit(input: Any, *, out: Any = None) -> Any:  # noqa: A002
    """True where an element's sign bit is set: below zero, and -0.0."""
    return _bool_out("signbit", _signbit, input, out)


def _reduce(ufunc: Any, a: Any, dim: Any, keepdim: bool, op: str) -> Any:
    # uint8 inputs give uint8 results (0 or 1), every other dtype gives bool, as in PyTorch.
    expect_tensor(a, op)
    axes = None if dim is None else normalize_dims(dim, a._data.ndim)
    if a._data.ndim == 0:  # (a 0-d tensor takes dim 0 or -1, as PyTorch; numpy has no axis)
        axes = None
    out = ufunc(a._data, axis=axes, keepdims=keepdim)
    out_dtype = np.uint8 if a._data.dtype == np.uint8 else np.bool_
    return wrap(np.asarray(out).astype(out_dtype, order="C"), a._device)  # (row-major, as PyTorch)


@parsed(
    "any",
    "Tensor input, *, Tensor out = None",
    "Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None",
    "Tensor input, int dim, bool keepdim = False, *, Tensor out = None",
)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def any(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001, A002
    """True if any element (along ``dim``, if given) is nonzero."""
    return _reduce(np.any, input, dim, keepdim, "any")


@parsed(
    "all",
    "Tensor input, *, Tensor out = None",
    "Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None",
    "Tensor input, int dim, bool keepdim = False, *, Tensor out = None",
)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True)
def all(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001, A002
    """True if every element (along ``dim``, if given) is nonzero."""
    return _reduce(np.all, input, dim, keepdim, "all")

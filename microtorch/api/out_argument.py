"""``out=``: write an op's result into a tensor you already have, as ``torch.add(a, b, out=c)``.

The result is computed as usual, then copied into ``out`` (resized if its shape differs, with
PyTorch's deprecation warning unless it was empty). Autograd cannot follow such a write, so
PyTorch refuses ``out=`` while recording a graph, and so does microtorch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node
from microtorch.autograd.versions import bump_version
from microtorch.dtypes import from_numpy_dtype

__all__ = ["call_with_out"]


def call_with_out(name: str, fn: Callable[..., Any], args: tuple, kwargs: dict, out: Any) -> Any:
    """``fn(*args, **kwargs)`` written into ``out``; returns ``out``."""
    Tensor = _node.Tensor
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    tensors = [out, *_tensors(args), *_tensors(tuple(kwargs.values()))]
    if grad_mode.state.grad_enabled and any(t.requires_grad for t in tensors):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad. (Fix: drop out= and "
            "assign the result, or compute under torch.no_grad())"
        )
    result = fn(*args, **kwargs)._data
    if not np.can_cast(result.dtype, out._data.dtype, casting="same_kind"):
        raise RuntimeError(
            f"result type {_legacy(result.dtype)} can't be cast to the desired output type "
            f"{_legacy(out._data.dtype)}"
        )
    if out._data.shape != result.shape:
        if out._data.size:
            warn(_resize_warning(out._data.shape, result.shape))
        out._data = np.empty(result.shape, out._data.dtype)  # a new memory of the right size
    np.copyto(out._data, result, casting="unsafe")
    bump_version(out)
    return out


def _tensors(values: tuple) -> list[Any]:
    # tensor arguments, also inside lists (cat's and stack's)
    found = []
    for v in values:
        if isinstance(v, _node.Tensor):
            found.append(v)
        elif isinstance(v, (list, tuple)):
            found += _tensors(tuple(v))
    return found


def _legacy(np_dtype: np.dtype) -> str:
    return from_numpy_dtype(np_dtype)._legacy[: -len("Tensor")]


def _resize_warning(old: tuple[int, ...], new: tuple[int, ...]) -> str:
    return (
        f"An output with one or more elements was resized since it had shape {list(old)}, which "
        f"does not match the required output shape {list(new)}. This behavior is deprecated, "
        "and in a future PyTorch release outputs will not be resized unless they have zero "
        "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
        "elements with t.resize_(0)."
    )

"""PyTorch's argument errors for functions given something that is not a Tensor.

``torch.exp([1.0])`` raises ``TypeError: exp(): argument 'input' (position 1) must be Tensor,
not list``; without a check, microtorch would fail deep inside with an ``AttributeError`` about
a private field. The functions here raise PyTorch's text, then the fix.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd import node as _node
from microtorch.autograd.grad_mode import state as _grad_state

__all__ = ["expect_tensor", "type_name", "views_first"]


def type_name(value: Any) -> str:
    """A type's name as PyTorch prints it: ``list``, ``NoneType``, ``numpy.ndarray``."""
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


def expect_tensor(value: Any, op: str, arg: str = "input", position: int = 1) -> None:
    """Raise PyTorch's ``TypeError`` (plus a fix) unless ``value`` is a Tensor."""
    if isinstance(value, _node.Tensor):
        return
    raise TypeError(
        f"{op}(): argument '{arg}' (position {position}) must be Tensor, not {type_name(value)}"
        + _hint(value)
    )


def _hint(value: Any) -> str:
    if value is None:
        return (
            " (Fix: this variable holds None; check that the function that computed it has a "
            "`return`)"
        )
    if isinstance(value, np.ndarray):
        return " (Fix: convert it with torch.from_numpy(array) or torch.tensor(array))"
    if isinstance(value, (list, tuple, int, float, np.generic)):
        return " (Fix: make it a tensor first, e.g. torch.tensor([1.0, 2.0]))"
    return ""


def views_first(*tensors: Any) -> None:
    """Before a dtype error: PyTorch's error for a view it no longer lets you use (see
    ``autograd/views.py``), which PyTorch's autograd layer raises before the op's kernel
    checks dtypes. ``Function.apply`` looks at its inputs the same way."""
    if _grad_state.grad_enabled:
        for t in tensors:
            if t._base is not None:
                t._refresh_view()

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

__all__ = ["expect_tensor", "type_name", "views_first", "written_number"]


# C++'s names for the types PyTorch converts a written number to
_CTYPES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int"}


def written_number(value: Any, dtype: np.dtype) -> Any:
    """A Python number written into a tensor of ``dtype`` (``x[0] = v``, ``x.fill_(v)``), as
    PyTorch converts it: PyTorch's error where it would overflow (a float32 keeps inf and nan;
    float16 and float64 never refuse), and a negative int wrapped into an unsigned type (a
    negative float is refused there, as in PyTorch)."""
    if type(value) is bool or not isinstance(value, (int, float)):
        return value
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        raise ValueError("Overflow when unpacking long long")
    kind = dtype.kind
    if kind in "iu":
        info = np.iinfo(dtype)
        wraps = kind == "u" and isinstance(value, int)  # (uint8 takes the ints -255 ... 255)
        low = -int(info.max) if wraps else int(info.min)
        if not (value == value and low <= value <= int(info.max)):  # (nan, inf: no)
            raise RuntimeError(
                f"value cannot be converted to type {_CTYPES.get(dtype.name, dtype.name + '_t')} "
                f"without overflow (Fix: {dtype.name} holds {int(info.min)} ... {int(info.max)})"
            )
        return int(np.asarray(int(value)).astype(dtype)) if value < 0 and kind == "u" else value
    if dtype == np.float32 and abs(value) != float("inf") and abs(value) > 3.4028234663852886e38:
        raise RuntimeError(
            "value cannot be converted to type float without overflow (Fix: float32 holds at "
            "most 3.4e38; use a float64 tensor, e.g. .double())"
        )
    return value


def type_name(value: Any) -> str:
    """A type's name as PyTorch prints it: ``list``, ``NoneType``, ``numpy.ndarray``."""
    kind = type(value)
    if isinstance(value, _node.Tensor):
        return "Tensor"
    if kind.__name__ in _STAND_INS and kind.__module__.startswith("microtorch"):
        return f"microtorch.{kind.__name__}"  # (torch.dtype, torch.Size, torch.device)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


# microtorch's classes for PyTorch's C types, which PyTorch names with their module
_STAND_INS = ("dtype", "Size", "device", "layout", "memory_format")


def expect_tensor(value: Any, op: str, arg: str = "input", position: int = 1) -> None:
    """Raise PyTorch's ``TypeError`` (plus a fix) unless ``value`` is a Tensor."""
    if isinstance(value, _node.Tensor):
        return
    raise TypeError(
        f"{op}(): argument '{arg}' (position {position}) must be Tensor, not {type_name(value)}"
        + _hint(value)
    )


def expect_number(
    value: Any, op: str, arg: str, position: int | None, kind: str = "Number", none: bool = False
) -> None:
    """Raise PyTorch's ``TypeError`` unless ``value`` is a Python number (``kind`` "float"
    also takes an int; ``none``: None is allowed). PyTorch names the position of an argument
    given by position; ``position`` None words it as for a keyword."""
    if (value is None and none) or (
        isinstance(value, (int, float, np.number)) and not isinstance(value, np.bool_)
    ):
        return
    where = "" if position is None else f" (position {position})"
    raise TypeError(f"{op}(): argument '{arg}'{where} must be {kind}, not {type_name(value)}")


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

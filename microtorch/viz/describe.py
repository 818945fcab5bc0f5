"""Describe a tensor in a few short lines: shape, dtype, values (or a summary) and ``.grad``."""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["dtype_text", "is_tensor", "shape_text", "tensor_lines", "values_text"]


def is_tensor(obj: object) -> bool:
    """True for a microtorch or PyTorch tensor (anything with grad_fn, requires_grad, shape)."""
    if isinstance(obj, type):  # the Tensor class itself has these names as properties
        return False
    return all(hasattr(obj, name) for name in ("grad_fn", "requires_grad", "shape"))


def shape_text(shape: Iterable[int]) -> str:
    """``(2, 3)``, ``(2,)`` or ``()``: Python's tuple spelling, the same for both libraries."""
    return str(tuple(int(d) for d in shape))


def dtype_text(dtype: Any) -> str:
    """``float32`` for both ``torch.float32`` and ``microtorch.float32``."""
    return str(dtype).rsplit(".", 1)[-1]


def _number(value: Any) -> str:
    return f"{value:.4g}"


def values_text(array: Any, max_values: int) -> str:
    """All values if there are at most ``max_values``, else min/max/mean (never misleading)."""
    data = np.asarray(array)
    if data.size == 0:
        return "[]"
    if data.size <= max_values:
        text = np.array2string(
            data, separator=", ", formatter={"float_kind": _number, "int_kind": str, "bool": str}
        )
        return " ".join(text.split())  # one line, also for matrices: [[1, 2], [3, 4]]
    as_float = data.astype(np.float64)
    low, high, mean = as_float.min(), as_float.max(), as_float.mean()
    # A mean that is rounding noise next to the values (a softmax gradient's ~1e-9) prints as
    # 0: its digits would differ between machines and break nbval's comparison.
    scale = max(abs(low), abs(high))
    if np.isfinite(scale) and abs(mean) <= scale * 1e-6:
        mean = 0.0
    return f"min {_number(low)} max {_number(high)} mean {_number(mean)}"


def _numpy(tensor: Any) -> Any:
    return tensor.detach().numpy()


def _grad(tensor: Any) -> Any:
    with warnings.catch_warnings():  # PyTorch warns when .grad of a non-leaf is read
        warnings.simplefilter("ignore")
        return tensor.grad


def tensor_lines(tensor: Any, max_values: int) -> tuple[str, ...]:
    """Lines for a forward-view box: shape and dtype, data, and grad for tensors that need one."""
    lines = [
        f"{shape_text(tensor.shape)} {dtype_text(tensor.dtype)}",
        f"data {values_text(_numpy(tensor), max_values)}",
    ]
    if tensor.requires_grad:
        grad = _grad(tensor)
        # "None" before backward: a zero would wrongly suggest the gradient was computed
        lines.append(
            "grad None" if grad is None else f"grad {values_text(_numpy(grad), max_values)}"
        )
    return tuple(lines)

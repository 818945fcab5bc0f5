"""igamma and igammac (the regularized incomplete gamma functions P and Q) around
``microtorch/ops/incomplete_gamma.py``: two floating-point tensors, promoted and broadcast."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.incomplete_gamma import Igamma, Igammac

__all__ = ["igamma", "igammac"]


def _run(op: Any, name: str, a: Any, other: Any) -> Any:
    expect_tensor(a, name)
    expect_tensor(other, name, "other", 2)
    target = result_type(a, other)
    if not target.is_floating_point:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{target._legacy[:-6]}'")
    try:
        np.broadcast_shapes(a._data.shape, other._data.shape)
    except ValueError:
        raise broadcast_error(a._data.shape, other._data.shape) from None
    return op.apply(as_operand(a, target), as_operand(other, target))


@torch_keywords("input", "other", out=True)
def igamma(a: Any, other: Any) -> Any:
    """P(a, other) = the integral of t**(a-1) e**-t from 0 to other, over Gamma(a); its
    gradient is for ``other`` only, as in PyTorch."""
    return _run(Igamma, "igamma", a, other)


@torch_keywords("input", "other", out=True)
def igammac(a: Any, other: Any) -> Any:
    """Q(a, other) = 1 - P(a, other), the upper regularized incomplete gamma function."""
    return _run(Igammac, "igammac", a, other)

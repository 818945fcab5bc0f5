"""dist(a, b, p): the p-norm of a - b, around ``microtorch/ops/dist.py``."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.dist import Dist

__all__ = ["dist"]


@torch_keywords("input", "other", "p")
def dist(a: Any, other: Any, p: Any = 2) -> Any:
    """||a - other||_p over all entries (broadcast): p = 2 the Euclidean distance."""
    expect_tensor(a, "dist")
    expect_tensor(other, "dist", "other", 2)
    target = result_type(a, other)
    if not target.is_floating_point:
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{target._legacy[:-6]} instead."
        )
    try:
        np.broadcast_shapes(a._data.shape, other._data.shape)
    except ValueError:
        raise broadcast_error(a._data.shape, other._data.shape) from None
    return Dist.apply(as_operand(a, target), as_operand(other, target), float(p))

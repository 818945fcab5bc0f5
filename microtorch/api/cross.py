"""The cross product: ``torch.cross(a, b, dim)`` and ``torch.linalg.cross(a, b, dim=-1)``.

The public functions: argument checks and PyTorch's errors around the formula in
``microtorch/ops/cross.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.cross import LinalgCross

__all__ = ["cross", "linalg_cross"]

_NO_DIM = (
    "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
    "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
    "agree with that of linalg.cross in a future release."
)
_warned = [False]  # (PyTorch warns once)


@parsed(
    "cross",
    "Tensor input, Tensor other, int dim=None, *, Tensor out=None",
)
@torch_keywords("input", "other", "dim", out=True)
def cross(a: Any, b: Any, dim: int | None = None) -> Any:
    """The cross product of the 3-vectors along ``dim`` (without ``dim``: the first
    dimension of size 3, which PyTorch deprecates)."""
    expect_tensor(a, "cross")
    expect_tensor(b, "cross", "other", 2)
    if dim is None:
        if not _warned[0]:
            _warned[0] = True
            warn(_NO_DIM)
        shape = _broadcast(a, b)
        dim = next((d for d, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg_cross(a, b, dim=dim)


def linalg_cross(a: Any, b: Any, *, dim: int = -1) -> Any:
    """The cross product of the 3-vectors along ``dim`` (the last, unless told)."""
    expect_tensor(a, "linalg_cross")
    expect_tensor(b, "linalg_cross", "other", 2)
    if a._dtype is not b._dtype:
        raise RuntimeError(
            f"expected scalar type {a._dtype._legacy[:-6]} but found {b._dtype._legacy[:-6]}"
        )
    if a._dtype.name == "bool":
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    (d,) = normalize_dims(dim, max(a._data.ndim, b._data.ndim))
    sizes = [x._data.shape[dim] if x._data.ndim else 1 for x in (a, b)]
    if sizes != [3, 3]:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {sizes[0]} and "
            f"{sizes[1]}"
        )
    shape = _broadcast(a, b)
    return LinalgCross.apply(a, b, d - len(shape) if d >= 0 else d)


def _broadcast(a: Any, b: Any) -> tuple[int, ...]:
    try:
        return np.broadcast_shapes(a._data.shape, b._data.shape)
    except ValueError:
        raise broadcast_error(a._data.shape, b._data.shape) from None

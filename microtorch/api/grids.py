"""``torch.meshgrid``: coordinate grids from 1-d tensors, each a broadcast view (no copy).

``X, Y = torch.meshgrid(x, y, indexing="ij")`` gives ``X[i, j] = x[i]`` and ``Y[i, j] = y[j]``;
``indexing="xy"`` (numpy's and matplotlib's) swaps the first two dimensions of the grid.
"""

from __future__ import annotations

from typing import Any

from microtorch._warn import warn
from microtorch.api import shape as shape_ops
from microtorch.api._checks import type_name
from microtorch.autograd import node as _node

__all__ = ["meshgrid"]

_NO_INDEXING = (
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument."
)
_warned = [False]  # (PyTorch warns once)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Any, ...]:
    """One grid per tensor, all of shape ``(len(t0), len(t1), ...)`` (``indexing="ij"``)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for k, t in enumerate(tensors):
        if not isinstance(t, _node.Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument 0, but got {type_name(t)}")
    if indexing is None:
        if not _warned[0]:
            _warned[0] = True
            warn(_NO_INDEXING)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t._data.ndim > 1:
            raise RuntimeError(
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a "
                f"{t._data.ndim}-d tensor of shape {list(t._data.shape)}"
            )
        if t._dtype is not tensors[0]._dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    swap = indexing == "xy" and len(tensors) > 1
    order = (tensors[1], tensors[0], *tensors[2:]) if swap else tensors
    shape = tuple(t._data.size for t in order)
    grids = []
    for k, t in enumerate(order):
        sizes = [1] * len(order)
        sizes[k] = -1
        grids.append(shape_ops.expand(shape_ops.view(t, tuple(sizes)), shape))
    return (grids[1], grids[0], *grids[2:]) if swap else tuple(grids)

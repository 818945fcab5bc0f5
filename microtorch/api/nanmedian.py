"""nanmedian: the median that skips nan (of all elements, or along a dimension with its
indices); PyTorch's checks and errors around the formulas in ``microtorch/ops/nanmedian.py``."""

from __future__ import annotations

from typing import Any

from microtorch.api import return_types
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.statistics import lower_median
from microtorch.ops.nanmedian import NanmedianAll, NanmedianDim, nanmedian_indices

__all__ = ["nanmedian"]


@parsed(
    "nanmedian",
    "Tensor input",
    "Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None",
)
@torch_keywords("input", "dim", "keepdim")
def nanmedian(a: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """The lower median of the values that are not nan (nan if all are); with ``dim``, a
    ``(values, indices)`` pair along it."""
    expect_tensor(a, "nanmedian")
    ops = (NanmedianAll, NanmedianDim, nanmedian_indices)
    return lower_median(a, dim, keepdim, ops, return_types.nanmedian)

"""nanmedian: the median that skips nan (of all elements, or along a dimension with its
indices); PyTorch's checks and errors around the formulas in ``microtorch/ops/nanmedian.py``."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import return_types
from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.api.reduction import normalize_dims
from microtorch.ops.nanmedian import NanmedianAll, NanmedianDim, nanmedian_indices

__all__ = ["nanmedian"]


@torch_keywords("input", "dim", "keepdim")
def nanmedian(a: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """The lower median of the values that are not nan (nan if all are); with ``dim``, a
    ``(values, indices)`` pair along it."""
    expect_tensor(a, "nanmedian")
    if a._dtype.name == "bool":  # (PyTorch's kernels are median's)
        kernel = "median_cpu" if dim is None else "median_out"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    data = a._data
    if dim is None:
        if data.size == 0:
            empty = np.nan if data.dtype.kind == "f" else np.iinfo(data.dtype).min  # (PyTorch's)
            return wrap(np.asarray(empty, data.dtype))
        return NanmedianAll.apply(a, None, False)
    (d,) = normalize_dims(dim, data.ndim)
    if data.ndim == 0:
        values = NanmedianDim.apply(a, None, keepdim, None)
        return return_types.nanmedian(values, wrap(np.zeros((), np.int64)))
    if data.shape[d] == 0:
        raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
    idx = nanmedian_indices(data, d)
    if keepdim:
        idx = np.expand_dims(idx, d)
    return return_types.nanmedian(NanmedianDim.apply(a, d, keepdim, idx), wrap(idx))

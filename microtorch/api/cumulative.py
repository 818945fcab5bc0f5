"""Products and running totals: prod (all or along a dim), cumsum and cumprod (dim required).

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/cumulative.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import _reduce_dtype, normalize_dims
from microtorch.ops.cumulative import Cumprod, Cumsum, Prod, ProdDim

__all__ = ["prod", "cumsum", "cumprod"]


@parsed(
    "prod",
    "Tensor input, *, torch.dtype dtype = None",
    "Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None",
)
@torch_keywords("input", "dim", "keepdim", numpy_aliases=True, out=True)
def prod(input: Any, dim: int | None = None, keepdim: bool = False, *, dtype: Any = None) -> Any:  # noqa: A002
    """The product of all elements, or along ``dim`` (one int, as in PyTorch)."""
    expect_tensor(input, "prod")
    if dim is None:
        return Prod.apply(input, _reduce_dtype(input, dtype))
    if not isinstance(dim, (int, np.integer)):
        raise TypeError(
            "prod() received an invalid combination of arguments - got (Tensor, "
            f"{type(dim).__name__}), but expected one of:\n"
            " * (Tensor input, *, torch.dtype dtype = None)\n"
            " * (Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None)\n (Fix: prod reduces one dim at a time, e.g. x.prod(0).prod(0))"
        )
    (axis,) = normalize_dims(dim, input._data.ndim)
    return ProdDim.apply(
        input, axis if input._data.ndim else None, keepdim, _reduce_dtype(input, dtype)
    )


@parsed("cumsum", "Tensor input, int dim, *, torch.dtype dtype=None")
@torch_keywords("input", "dim", numpy_aliases=True, out=True)
def cumsum(input: Any, dim: int | None = None, *, dtype: Any = None) -> Any:  # noqa: A002
    """Running totals along ``dim``: ``cumsum([1, 2, 3], 0) = [1, 3, 6]``."""
    expect_tensor(input, "cumsum")
    if dim is None:  # required, as in PyTorch (a running total needs a direction)
        raise TypeError('cumsum() missing 1 required positional arguments: "dim"')
    (axis,) = normalize_dims(dim, input._data.ndim)
    return Cumsum.apply(input, axis, _reduce_dtype(input, dtype))


@parsed(
    "cumprod",
    "Tensor input, int dim, *, torch.dtype dtype=None, Tensor out=None",
)
@torch_keywords("input", "dim", numpy_aliases=True, out=True)
def cumprod(input: Any, dim: int | None = None, *, dtype: Any = None) -> Any:  # noqa: A002
    """Running products along ``dim``: ``cumprod([1, 2, 3], 0) = [1, 2, 6]``."""
    expect_tensor(input, "cumprod")
    if dim is None:  # required, as in PyTorch (a running total needs a direction)
        raise TypeError('cumprod() missing 1 required positional arguments: "dim"')
    (axis,) = normalize_dims(dim, input._data.ndim)
    return Cumprod.apply(input, axis, _reduce_dtype(input, dtype))

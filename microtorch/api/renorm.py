"""renorm (and Tensor.renorm_): each slice of the input along ``dim`` scaled down to p-norm
``maxnorm`` if its norm is larger; PyTorch's argument checks and errors around the formula in
``microtorch/ops/renorm.py``."""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_number, expect_tensor, type_name
from microtorch.api.arguments import parsed
from microtorch.api.index_along import scalar_type
from microtorch.api.inplace import apply_inplace
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.ops.renorm import Renorm

__all__ = ["renorm", "renorm_"]


def _checked(a: Any, p: Any, dim: Any, maxnorm: Any, name: str) -> int:
    expect_tensor(a, name)
    expect_number(p, name, "p", 2)
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"{name}(): argument 'dim' (position 3) must be int, not {type_name(dim)}")
    expect_number(maxnorm, name, "maxnorm", 4)
    if not p > 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if a._data.ndim < 2:
        raise RuntimeError(
            f"renorm: input needs at least 2 dimensions, got {a._data.ndim} dimensions"
        )
    (d,) = normalize_dims(dim, a._data.ndim)
    if not a._dtype.is_floating_point:
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{scalar_type(a)}"
        )
    return d


@parsed(
    "renorm",
    "Tensor input, Number p, int dim, Number maxnorm, *, Tensor out=None",
)
@torch_keywords("input", "p", "dim", "maxnorm", out=True)
def renorm(input: Any, p: float, dim: int, maxnorm: float) -> Any:  # noqa: A002
    """Each slice ``input.select(dim, i)`` whose p-norm exceeds ``maxnorm``, scaled by
    ``maxnorm / (norm + 1e-7)``; the others unchanged."""
    d = _checked(input, p, dim, maxnorm, "renorm")
    return Renorm.apply(input, float(p), d, float(maxnorm))


def renorm_(self: Any, p: float, dim: int, maxnorm: float) -> Any:
    """``renorm``, written into this tensor; returns it."""
    _checked(self, p, dim, maxnorm, "renorm_")
    return apply_inplace(self, "renorm_", renorm, p, dim, maxnorm)

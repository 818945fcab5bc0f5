"""quantile and nanquantile: the value below which a fraction ``q`` of the elements lie.

``torch.quantile(x, 0.5)`` is the median, halfway between the two middle values when there
are an even number of them (``interpolation="linear"``; ``lower``, ``higher``, ``nearest`` and
``midpoint`` choose otherwise). As PyTorch's, it sorts, gathers the values at the positions
``ops/quantile.py`` computes and blends them with ``lerp``, so gradients go to the elements
read. ``quantile`` gives NaN for a row that holds one; ``nanquantile`` leaves NaN out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor, type_name
from microtorch.api.arguments import parsed
from microtorch.api.composites import movedim
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.api.reduction import normalize_dims
from microtorch.api.scatter import gather
from microtorch.api.sorting import sort
from microtorch.api.special import lerp
from microtorch.autograd import node as _node
from microtorch.ops.quantile import QuantileShape, ranks

__all__ = ["quantile", "nanquantile"]

_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


@parsed(
    "quantile",
    (
        "Tensor input, Tensor q, int dim = None, bool keepdim = False, *, "
        'str interpolation = "linear", Tensor out = None'
    ),
    (
        "Tensor input, float q, int dim = None, bool keepdim = False, *, "
        'str interpolation = "linear", Tensor out = None'
    ),
)
@torch_keywords("input", "q", "dim", "keepdim", out=True)
def quantile(
    a: Any, q: Any, dim: Any = None, keepdim: bool = False, *, interpolation: str = "linear"
) -> Any:
    """The ``q``-th quantiles (``q`` a number or a 1-d tensor in [0, 1]) of ``a``'s elements,
    or of each row along ``dim``; a row holding NaN gives NaN."""
    return _quantile(a, q, dim, keepdim, interpolation, "quantile", False)


@parsed(
    "nanquantile",
    (
        "Tensor input, Tensor q, int dim = None, bool keepdim = False, *, "
        'str interpolation = "linear", Tensor out = None'
    ),
    (
        "Tensor input, float q, int dim = None, bool keepdim = False, *, "
        'str interpolation = "linear", Tensor out = None'
    ),
)
@torch_keywords("input", "q", "dim", "keepdim", out=True)
def nanquantile(
    a: Any, q: Any, dim: Any = None, keepdim: bool = False, *, interpolation: str = "linear"
) -> Any:
    """As ``quantile``, leaving NaN out (a row of NaN only gives NaN)."""
    return _quantile(a, q, dim, keepdim, interpolation, "nanquantile", True)


def _quantile(
    a: Any, q: Any, dim: Any, keepdim: bool, interpolation: str, op: str, ignore_nan: bool
) -> Any:
    expect_tensor(a, op)
    if not isinstance(q, (_node.Tensor, int, float)) or isinstance(q, bool):
        got = type_name(q)
        raise TypeError(
            f"{op}() received an invalid combination of arguments - got (Tensor, {got}), but "
            "expected one of:\n * (Tensor input, Tensor q, int dim = None, bool keepdim = "
            'False, *, str interpolation = "linear", Tensor out = None)\n * (Tensor input, '
            'float q, int dim = None, bool keepdim = False, *, str interpolation = "linear", '
            "Tensor out = None)\n"
        )
    op = "quantile"  # (PyTorch's checks say quantile() for nanquantile too)
    if a._dtype.name not in ("float32", "float64"):
        raise RuntimeError(f"{op}() input tensor must be either float or double dtype")
    if isinstance(q, _node.Tensor):
        if q._data.ndim > 1:
            raise RuntimeError(f"{op}() q must be a scalar or 1D tensor")
        if q._dtype is not a._dtype:
            raise RuntimeError(f"{op}() q tensor must be same dtype as the input tensor")
        qs = q._data.reshape(-1)
        if ((qs < 0) | (qs > 1)).any():
            raise RuntimeError(f"{op}() q values must be in the range [0, 1]")
        vector = q._data.ndim == 1
    else:
        if not 0 <= q <= 1:
            raise RuntimeError(f"{op}() q must be in the range [0, 1] but got {q}")
        qs, vector = np.asarray([q], a._data.dtype), False
    if interpolation not in _MODES:
        raise RuntimeError(
            f"{op}() interpolation must be one of linear, lower, higher, midpoint or nearest, "
            f"but got {interpolation}"
        )
    ndim = a._data.ndim
    dims = normalize_dims(dim, ndim) if dim is not None else ()
    if a._data.size == 0:
        raise RuntimeError(f"{op}() input tensor must be non-empty")
    if dim is None:  # all the elements as one row
        rows = a.reshape(-1)
        kept = (1,) * ndim if keepdim else ()
    else:
        d = dims[0] if ndim else 0
        rows = movedim(a, d, -1) if ndim else a.reshape(1)
        kept = tuple(1 if k == d else n for k, n in enumerate(a._data.shape))
        if not keepdim:
            kept = kept[:d] + kept[d + 1 :]
    values = sort(rows, -1)[0]  # (..., n)
    below, above, weight = ranks(values._data, qs.astype(a._data.dtype), interpolation, ignore_nan)
    index = wrap(below, a._device)
    result = gather(values, -1, index)  # (..., len(q))
    if interpolation in ("linear", "midpoint"):
        upper = gather(values, -1, wrap(above, a._device))
        result = lerp(result, upper, wrap(weight, a._device))
    if vector:
        result = movedim(result, -1, 0)
    shape = ((qs.size,) if vector else ()) + kept
    return QuantileShape.apply(result, shape)

"""Running extremes (cummax, cummin), logcumsumexp and aminmax, with PyTorch's named tuples;
and the lookups that record no gradient: bucketize, searchsorted and isin.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/scan.py``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from microtorch.api import return_types
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import node as _node
from microtorch.ops.scan import Aminmax, Cummax, Cummin, Logcumsumexp, running_extreme

__all__ = [
    "cummax", "cummin", "logcumsumexp", "aminmax", "bucketize", "searchsorted", "isin",
]  # fmt: skip


def _running(input: Any, dim: Any, op: str, largest: bool) -> Any:  # noqa: A002
    expect_tensor(input, op)
    if dim is None:
        raise TypeError(f'{op}() missing 1 required positional arguments: "dim"')
    (d,) = normalize_dims(dim, input._data.ndim)
    data = input._data
    idx = running_extreme(data, d, largest) if data.ndim else np.zeros((), np.int64)
    fn = Cummax if largest else Cummin
    kind = return_types.cummax if largest else return_types.cummin
    return kind(fn.apply(input, idx, d), _node.plain_tensor(idx, input._device))


@parsed(
    "cummax",
    "Tensor input, int dim, *, Tensor out=None",
)
def cummax(input: Any, dim: Any = None) -> Any:  # noqa: A002
    """(values, indices): the largest value so far along ``dim``, and where it is."""
    return _running(input, dim, "cummax", True)


@parsed(
    "cummin",
    "Tensor input, int dim, *, Tensor out=None",
)
def cummin(input: Any, dim: Any = None) -> Any:  # noqa: A002
    """(values, indices): the smallest value so far along ``dim``, and where it is."""
    return _running(input, dim, "cummin", False)


@parsed(
    "logcumsumexp",
    "Tensor input, int dim, *, Tensor out=None",
)
def logcumsumexp(input: Any, dim: int) -> Any:  # noqa: A002
    """log(cumsum(exp(input))) along ``dim``, computed without overflow."""
    expect_tensor(input, "logcumsumexp")
    (d,) = normalize_dims(dim, input._data.ndim)
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"logcumsumexp_out_cpu\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: "
            "convert first, e.g. x.float())"
        )
    return Logcumsumexp.apply(input, d)


@parsed(
    "aminmax",
    "Tensor input, *, int dim=None, bool keepdim=False, Tensor out=None",
)
def aminmax(input: Any, *, dim: int | None = None, keepdim: bool = False) -> Any:  # noqa: A002
    """(min, max) of all values, or along ``dim``, in one pass."""
    expect_tensor(input, "aminmax")
    n = input._data.ndim
    axes = tuple(range(n)) if dim is None else normalize_dims(dim, n) if n else ()
    if any(input._data.shape[k] == 0 for k in axes) or input._data.size == 0:
        raise RuntimeError(
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
            "identity."
        )
    low, high = Aminmax.apply(input, axes, bool(keepdim) and dim is not None)
    return return_types.aminmax(low, high)


def _as_data(x: Any) -> np.ndarray:
    return x._data if isinstance(x, _node.Tensor) else np.asarray(x)


def _index_dtype(out_int32: bool) -> Any:
    return np.int32 if out_int32 else np.int64


@torch_keywords(("input", "self"), "boundaries")
def bucketize(input: Any, boundaries: Any, *, out_int32: bool = False, right: bool = False) -> Any:  # noqa: A002
    """For each value, the index of its bucket among the sorted 1-d ``boundaries``."""
    expect_tensor(boundaries, "bucketize", "boundaries", 2)
    if boundaries._data.ndim != 1:
        raise RuntimeError(
            f"boundaries tensor must be 1 dimension, but got dim({boundaries._data.ndim})"
        )
    side: Literal["left", "right"] = "right" if right else "left"
    out = np.searchsorted(boundaries._data, _as_data(input), side=side)
    return _node.plain_tensor(np.asarray(out, _index_dtype(out_int32)), boundaries._device)


@torch_keywords("sorted_sequence", ("input", "self"))
def searchsorted(
    sorted_sequence: Any,
    input: Any,  # noqa: A002
    *,
    out_int32: bool = False,
    right: bool = False,
    side: str | None = None,
    sorter: Any = None,
) -> Any:
    """Where each value would go to keep ``sorted_sequence`` sorted (along its last dimension;
    its leading dimensions match ``input``'s)."""
    expect_tensor(sorted_sequence, "searchsorted", "sorted_sequence")
    if side is not None and side not in ("left", "right"):
        raise RuntimeError(
            f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
        )
    if side == "left" and right:
        raise RuntimeError(
            "torch.searchsorted(): side and right can't be set to opposites, got side of left "
            "while right was True"
        )
    where: Literal["left", "right"] = (
        "right" if side == "right" or side is None and right else "left"
    )
    seq, values = sorted_sequence._data, _as_data(input)
    if sorter is not None:
        seq = np.take_along_axis(seq, _as_data(sorter), -1)
    if seq.ndim > 1 and seq.shape[:-1] != values.shape[:-1]:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {list(seq.shape)} and input value tensor {list(values.shape)}"
        )
    if seq.ndim <= 1:
        out = np.searchsorted(seq, values, side=where)
    else:
        rows_seq, rows_val = seq.reshape(-1, seq.shape[-1]), values.reshape(-1, values.shape[-1])
        out = np.stack(
            [np.searchsorted(s, v, side=where) for s, v in zip(rows_seq, rows_val)]
        ).reshape(values.shape)
    return _node.plain_tensor(np.asarray(out, _index_dtype(out_int32)), sorted_sequence._device)


@torch_keywords(("elements", "element"), ("test_elements", "test_element"))
def isin(
    elements: Any, test_elements: Any, *, assume_unique: bool = False, invert: bool = False
) -> Any:
    """True where an element of ``elements`` is among ``test_elements`` (False with invert)."""
    if not isinstance(elements, _node.Tensor) and not isinstance(test_elements, _node.Tensor):
        raise TypeError(
            "isin() received an invalid combination of arguments - got "
            f"({type(elements).__name__}, {type(test_elements).__name__}), but expected one of: "
            "(Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert "
            "= False) (Fix: one of them must be a tensor)"
        )
    device = getattr(elements, "_device", None) or test_elements._device
    out = np.isin(_as_data(elements), _as_data(test_elements), invert=bool(invert))
    return _node.plain_tensor(np.asarray(out), device)

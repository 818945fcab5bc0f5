"""Reading and writing at given places: rot90, take, take_along_dim (a gather), put and put_,
index_put and index_put_, masked_scatter and masked_scatter_, fill_diagonal_ (a write into a
view), fill, and block_diag.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/take_put.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import indexing, scatter
from microtorch.api import shape as shape_ops
from microtorch.api._checks import expect_tensor, written_number
from microtorch.api.arguments import expect_int, parsed
from microtorch.api.inplace import apply_inplace
from microtorch.api.operands import as_operand
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import node as _node
from microtorch.dtypes import promote_types
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.take_put import (
    BlockDiag,
    FillLike,
    FillLikeTensor,
    IndexPutAccumulated,
    MaskedScatter,
    Put,
    Rot90,
    Take,
)

__all__ = [
    "rot90", "take", "take_along_dim", "put", "put_", "index_put", "index_put_",
    "masked_scatter", "masked_scatter_", "fill_diagonal_", "fill", "block_diag",
]  # fmt: skip


@parsed(
    "rot90",
    "Tensor input, int k=1, tuple of ints dims=[0, 1], *, Tensor out=None",
)
def rot90(input: Any, k: int = 1, dims: Any = (0, 1)) -> Any:  # noqa: A002
    """``input`` turned ``k`` quarter turns in the plane of ``dims`` (first towards second)."""
    expect_tensor(input, "rot90")
    expect_int(k, "k")  # (the parser's cue: int(1.5) would turn once)
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input._data.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input._data.ndim}")
    d0, d1 = normalize_dims(dims, input._data.ndim)
    if d0 == d1:
        raise RuntimeError(
            f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}"
        )
    return Rot90.apply(input, int(k) % 4, (d0, d1))


def _long_index(index: Any, op: str) -> np.ndarray:
    if index._dtype.name != "int64":
        raise RuntimeError(
            f"{op}(): Expected a long tensor for index, but got {index._dtype._legacy[:-6]}"
        )
    return index._data


def _in_range(idx: np.ndarray, n: int) -> None:
    bad = idx[(idx >= n) | (idx < -n)]
    if bad.size:
        raise IndexError(
            f"out of range: tried to access index {int(bad.flat[0])} on a tensor of {n} elements."
        )


def take(input: Any, index: Any) -> Any:  # noqa: A002
    """The values of ``input`` (as if flattened) at ``index``, in ``index``'s shape."""
    expect_tensor(input, "take")
    expect_tensor(index, "take", "index", 2)
    idx = _long_index(index, "take")
    _in_range(idx, input._data.size)
    return Take.apply(input, idx)


@parsed(
    "take_along_dim",
    "Tensor input, Tensor indices, int dim=None, *, Tensor out=None",
)
def take_along_dim(input: Any, indices: Any, dim: int | None = None) -> Any:  # noqa: A002
    """The values of ``input`` at ``indices`` along ``dim`` (broadcasting the other
    dimensions); without ``dim``, of the flattened ``input``."""
    expect_tensor(input, "take_along_dim")
    expect_tensor(indices, "take_along_dim", "indices", 2)
    if indices._dtype.name != "int64":
        raise RuntimeError(
            "torch.take_along_dim(): dtype of indices should be Long but got "
            f"{indices._dtype._legacy[:-6]}"
        )
    if dim is None:
        return scatter.gather(shape_ops.view(input, -1), 0, shape_ops.view(indices, -1))
    if input._data.ndim != indices._data.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {input._data.ndim} dimensions for input, and "
            f"{indices._data.ndim} dimensions for indices"
        )
    (d,) = normalize_dims(dim, input._data.ndim)
    a_shape, i_shape = list(input._data.shape), list(indices._data.shape)
    a_shape[d] = i_shape[d] = 1
    try:
        shape = list(np.broadcast_shapes(tuple(a_shape), tuple(i_shape)))
    except ValueError:
        raise broadcast_error(tuple(a_shape), tuple(i_shape)) from None
    a_wanted, i_wanted = list(shape), list(shape)
    a_wanted[d], i_wanted[d] = input._data.shape[d], indices._data.shape[d]
    return scatter.gather(
        shape_ops.expand(input, *a_wanted), d, shape_ops.expand(indices, *i_wanted)
    )


def put(input: Any, index: Any, source: Any, accumulate: bool = False) -> Any:  # noqa: A002
    """``input`` with ``source``'s values written (or added) at the flat places ``index``."""
    expect_tensor(input, "put")
    expect_tensor(index, "put", "index", 2)
    expect_tensor(source, "put", "source", 3)
    idx = _long_index(index, "put_").reshape(-1)  # (index and source of any shape: flat)
    if idx.size != source._data.size:
        raise IndexError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {source._data.size}, index.numel() = {idx.size}"
        )
    if input._dtype is not source._dtype:
        raise RuntimeError(
            "put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{input._dtype._legacy[:-6]} and source.dtype = {source._dtype._legacy[:-6]}"
        )
    _in_range(idx, input._data.size)
    return Put.apply(input, source, idx, bool(accumulate))


def put_(input: Any, index: Any, source: Any, accumulate: bool = False) -> Any:  # noqa: A002
    """``put``, written into ``input``; returns it."""
    expect_tensor(input, "put_")
    return apply_inplace(input, "put_", put, index, source, accumulate)


def _index_key(indices: Any, op: str) -> tuple[Any, ...]:
    if not isinstance(indices, (tuple, list)) or not all(
        isinstance(i, _node.Tensor) or i is None for i in indices
    ):
        raise TypeError(
            f"{op}(): argument 'indices' (position 1) must be tuple of Tensors, not "
            f"{type(indices).__name__}"
        )
    return tuple(indices)


def _index_put_checks(input: Any, key: tuple[Any, ...], values: Any, op: str) -> None:
    expect_tensor(input, op)
    expect_tensor(values, op, "values", 3)
    if input._dtype is not values._dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{input._dtype._legacy[:-6]} for the destination and {values._dtype._legacy[:-6]} "
            "for the source."
        )


def index_put(input: Any, indices: Any, values: Any, accumulate: bool = False) -> Any:  # noqa: A002
    """``input`` with ``values`` written (or added, with ``accumulate``) at ``indices``, a tuple
    of index tensors, as ``input[indices] = values`` does in place."""
    key = _index_key(indices, "index_put")
    _index_put_checks(input, key, values, "index_put")
    if not accumulate:
        return indexing.index_put(input, key, values)
    raw = tuple(k._data if k is not None else slice(None) for k in key)
    selected = input._data[raw].shape
    try:
        np.broadcast_shapes(values._data.shape, selected)
    except ValueError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(values._data.shape)} cannot be "
            f"broadcast to indexing result of shape {list(selected)}"
        ) from None
    return IndexPutAccumulated.apply(input, values, raw)


def index_put_(input: Any, indices: Any, values: Any, accumulate: bool = False) -> Any:  # noqa: A002
    """``index_put``, written into ``input``; returns it."""
    key = _index_key(indices, "index_put_")
    _index_put_checks(input, key, values, "index_put_")
    if not accumulate:
        return apply_inplace(input, "index_put_", indexing.index_put, key, values)
    return apply_inplace(input, "index_put_accumulate_", index_put, list(key), values, True)


def _mask(mask: Any) -> np.ndarray:
    if mask._dtype.name != "bool":
        raise RuntimeError(
            "masked_scatter_ only supports boolean masks, but got mask with dtype "
            f"{mask._dtype._legacy[:-6]}"
        )
    return mask._data


def _same_dtypes(input: Any, source: Any) -> None:  # noqa: A002
    if isinstance(source, _node.Tensor) and input._dtype is not source._dtype:
        raise RuntimeError(
            "masked_scatter: expected self and source to have same dtypes but got"
            f"{input._dtype._legacy[:-6]} and {source._dtype._legacy[:-6]}"
        )


def masked_scatter(input: Any, mask: Any, source: Any) -> Any:  # noqa: A002
    """``input`` with the places where ``mask`` is True filled, in order, from ``source``."""
    expect_tensor(input, "masked_scatter")
    expect_tensor(mask, "masked_scatter", "mask", 2)
    expect_tensor(source, "masked_scatter", "source", 3)
    _same_dtypes(input, source)
    m = _mask(mask)
    try:
        shape = np.broadcast_shapes(input._data.shape, m.shape)
    except ValueError:
        raise broadcast_error(input._data.shape, m.shape) from None
    if np.broadcast_to(m, shape).sum() > source._data.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return MaskedScatter.apply(input, source, m)


def masked_scatter_(input: Any, mask: Any, source: Any) -> Any:  # noqa: A002
    """``masked_scatter``, written into ``input`` (the mask broadcasts to its shape)."""
    expect_tensor(input, "masked_scatter_")
    expect_tensor(mask, "masked_scatter_", "mask", 2)
    _same_dtypes(input, source)  # (PyTorch's order: dtypes, then the mask's shape and dtype)
    if mask._data.ndim > input._data.ndim:
        raise shape_ops.too_few_sizes(mask, input._data.shape)
    return apply_inplace(input, "masked_scatter_", masked_scatter, mask, source)


def fill_diagonal_(input: Any, fill_value: Any, wrap: bool = False) -> Any:  # noqa: A002
    """``fill_value`` written on the main diagonal of ``input`` (all dims of equal length, or
    a matrix; ``wrap``: a tall matrix's diagonal starts again below each square); returns it."""
    expect_tensor(input, "fill_diagonal_")
    shape = input._data.shape
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    if len(shape) > 2 and any(n != shape[0] for n in shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    if len(shape) == 2:
        input.diagonal().fill_(fill_value)
        if wrap and shape[0] > shape[1] + 1:  # (PyTorch's second write: the wrapped rest)
            m = shape[1]
            input.view(-1)[m * (m + 1) :: m + 1].fill_(fill_value)
        return input
    if not input._data.flags.c_contiguous:
        raise NotImplementedError(
            "microtorch's fill_diagonal_ of more than 2 dims needs a contiguous tensor (Fix: "
            "x = x.contiguous() first)"
        )
    step = sum(int(np.prod(shape[k + 1 :])) for k in range(len(shape)))  # one step per dim
    input.view(-1)[0 : step * shape[0] : step].fill_(fill_value)
    return input


def fill(input: Any, value: Any) -> Any:  # noqa: A002
    """A new tensor like ``input`` with ``value`` (a number or a 0-d tensor) everywhere."""
    expect_tensor(input, "fill")
    if isinstance(value, _node.Tensor):
        if value._data.ndim:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value._data.ndim} dimensions."
            )
        return FillLikeTensor.apply(input, value)
    return FillLike.apply(input, written_number(value, input._data.dtype))


def block_diag(*tensors: Any) -> Any:
    """The tensors (each made a matrix: a vector is one row) down the diagonal of a matrix."""
    for i, t in enumerate(tensors):
        expect_tensor(t, "block_diag", "tensors")
        if t._data.ndim > 2:
            raise RuntimeError(
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input "
                f"{i} has {t._data.ndim} dimensions"
            )
    if not tensors:
        return _node.plain_tensor(np.zeros((1, 0), np.float32))
    target = tensors[0]._dtype
    for t in tensors[1:]:
        target = promote_types(target, t._dtype)
    return BlockDiag.apply(*[as_operand(t, target) for t in tensors])

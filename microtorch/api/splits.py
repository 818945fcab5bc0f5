"""More ways to shape, cut and join, made of other ops as PyTorch makes them: atleast_1d/2d/3d
(view and unsqueeze), dstack (cat), tensor_split, hsplit, vsplit, dsplit (slices),
split_with_sizes, fliplr and flipud (flip), unflatten (a view), sum_to_size (a sum and a view)
and diagflat (diag_embed of the flattened input).

Each records the graph PyTorch records, so ``grad_fn`` names agree (``hsplit``'s pieces are
``SliceBackward0``, ``sum_to_size`` is ``ViewBackward0`` over ``SumBackward1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch.api import grids, indexing, join, rearrange
from microtorch.api import shape as shape_ops
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_ints, parsed
from microtorch.api.diagonal import diag_embed
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.api.reduction import sum as reduce_sum
from microtorch.autograd import node as _node

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "dstack", "tensor_split", "hsplit", "vsplit",
    "dsplit", "split_with_sizes", "fliplr", "flipud", "unflatten", "sum_to_size", "diagflat",
    "combinations",
]  # fmt: skip


def _at_least(tensors: tuple[Any, ...], one: Any) -> Any:
    # atleast_nd(x) gives a tensor; atleast_nd(x, y) and atleast_nd([x, y]) give a tuple
    if len(tensors) == 1 and isinstance(tensors[0], _node.Tensor):
        return one(tensors[0])
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for i, t in enumerate(tensors):
        if not isinstance(t, _node.Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}"
            )
    return tuple(one(t) for t in tensors)


def _1d(t: Any) -> Any:
    return shape_ops.reshape(t, 1) if t._data.ndim == 0 else t


def _2d(t: Any) -> Any:
    n = t._data.ndim
    return shape_ops.reshape(t, 1, 1) if n == 0 else shape_ops.unsqueeze(t, 0) if n == 1 else t


def _3d(t: Any) -> Any:
    n = t._data.ndim
    if n == 0:
        return shape_ops.reshape(t, 1, 1, 1)
    if n == 1:
        return shape_ops.unsqueeze(shape_ops.unsqueeze(t, 0), -1)
    return shape_ops.unsqueeze(t, -1) if n == 2 else t


def atleast_1d(*tensors: Any) -> Any:
    """Each tensor with at least 1 dimension (a 0-d one becomes shape (1,))."""
    return _at_least(tensors, _1d)


def atleast_2d(*tensors: Any) -> Any:
    """Each tensor with at least 2 dimensions (a vector becomes one row)."""
    return _at_least(tensors, _2d)


def atleast_3d(*tensors: Any) -> Any:
    """Each tensor with at least 3 dimensions ((n,) -> (1, n, 1); (m, n) -> (m, n, 1))."""
    return _at_least(tensors, _3d)


def dstack(tensors: Any) -> Any:
    """Tensors joined along dimension 2 (depth), each made at least 3-d first."""
    tensors = join.tensor_list(tensors, "dstack")
    if not tensors:
        raise RuntimeError("dstack expects a non-empty TensorList")
    return join.cat([_3d(t) for t in tensors], 2)


def _slices(a: Any, bounds: Sequence[int], d: int) -> tuple[Any, ...]:
    # the pieces between consecutive bounds, as views (SliceBackward0 each)
    n = a._data.shape[d]
    edges = [0] + [min(max(b + n if b < 0 else b, 0), n) for b in bounds] + [n]
    lead = (slice(None),) * d
    return tuple(
        indexing.getitem(a, lead + (slice(lo, max(lo, hi)),)) for lo, hi in zip(edges, edges[1:])
    )


def _sections(n: int, sections: int) -> list[int]:
    # n // sections each, the first n % sections one longer: their end points
    size, extra = divmod(n, sections)
    ends, at = [], 0
    for k in range(sections - 1):
        at += size + (k < extra)
        ends.append(at)
    return ends


@parsed(
    "tensor_split",
    "Tensor input, tuple of ints indices, int dim=0",
    "Tensor input, Tensor tensor_indices_or_sections, int dim=0",
    "Tensor input, int sections, int dim=0",
)
@torch_keywords("input", ("indices", "sections", "tensor_indices_or_sections"), "dim")
def tensor_split(input: Any, indices_or_sections: Any, dim: int = 0) -> tuple[Any, ...]:  # noqa: A002
    """Views of ``input`` cut into ``sections`` nearly equal pieces along ``dim``, or cut
    before each of the given ``indices``."""
    expect_tensor(input, "tensor_split")
    cuts = indices_or_sections
    if isinstance(cuts, _node.Tensor):
        if cuts._dtype.name != "int64":
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have dtype of long, but "
                f"got {cuts._dtype._legacy[:-6]}"
            )
        if cuts._data.ndim > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                f"one-dimensional tensor, but got a tensor with {cuts._data.ndim} dims"
            )
        cuts = int(cuts._data) if cuts._data.ndim == 0 else [int(i) for i in cuts._data]
    if isinstance(cuts, bool) or not isinstance(cuts, (int, list, tuple)):
        raise TypeError(
            "tensor_split() received an invalid combination of arguments - got (Tensor, "
            f"{type(cuts).__name__}), but expected one of: (Tensor input, int sections, int "
            "dim = 0) (Tensor input, tuple of ints indices, int dim = 0)"
        )
    expect_ints(cuts, "indices")  # (the parser's cue)
    if input._data.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    (d,) = normalize_dims(dim, input._data.ndim)
    if isinstance(cuts, int):
        if cuts <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {cuts}")
        cuts = _sections(input._data.shape[d], cuts)
    return _slices(input, [int(i) for i in cuts], d)


_SPLIT_SECTIONS, _SPLIT_INDICES = (
    "Tensor input, int sections",
    "Tensor input, tuple of ints indices",
)


def _split_along(input: Any, cuts: Any, op: str, least: int, dim: int) -> tuple[Any, ...]:
    expect_tensor(input, op)
    n = input._data.ndim
    if n < least:
        raise RuntimeError(
            f"torch.{op} requires a tensor with at least {least} dimension, but got a tensor "
            f"with {n} dimensions!"
        )
    if isinstance(cuts, int) and not isinstance(cuts, bool):
        size = input._data.shape[dim]
        if cuts == 0 or size % cuts:
            raise RuntimeError(
                f"torch.{op} attempted to split along dimension {dim}, but the size of the "
                f"dimension {size} is not divisible by the split_size {cuts}!"
            )
    return tensor_split(input, cuts, dim)


@parsed("hsplit", _SPLIT_SECTIONS, _SPLIT_INDICES)
@torch_keywords("input", ("indices", "sections"))
def hsplit(input: Any, indices_or_sections: Any) -> tuple[Any, ...]:  # noqa: A002
    """tensor_split along dimension 1 (along 0 for a 1-d tensor); sections must divide it."""
    dim = 1 if getattr(input, "ndim", 0) > 1 else 0
    return _split_along(input, indices_or_sections, "hsplit", 1, dim)


@parsed("vsplit", _SPLIT_SECTIONS, _SPLIT_INDICES)
@torch_keywords("input", ("indices", "sections"))
def vsplit(input: Any, indices_or_sections: Any) -> tuple[Any, ...]:  # noqa: A002
    """tensor_split along dimension 0 of a tensor of at least 2 dimensions."""
    return _split_along(input, indices_or_sections, "vsplit", 2, 0)


@parsed("dsplit", _SPLIT_SECTIONS, _SPLIT_INDICES)
@torch_keywords("input", ("indices", "sections"))
def dsplit(input: Any, indices_or_sections: Any) -> tuple[Any, ...]:  # noqa: A002
    """tensor_split along dimension 2 of a tensor of at least 3 dimensions."""
    return _split_along(input, indices_or_sections, "dsplit", 3, 2)


@parsed(
    "split_with_sizes",
    "Tensor input, tuple of ints split_sizes, int dim=0",
)
def split_with_sizes(input: Any, split_sizes: Sequence[int], dim: int = 0) -> tuple[Any, ...]:  # noqa: A002
    """Cut into pieces of the given sizes along ``dim`` (``SplitWithSizesBackward0``)."""
    expect_tensor(input, "split_with_sizes")
    sizes = list(split_sizes)
    if any(isinstance(s, int) and s < 0 for s in sizes):
        raise RuntimeError(
            "split_with_sizes expects split_sizes have only non-negative entries, but got "
            f"split_sizes={sizes}"
        )
    return join.split(input, sizes, dim)


def fliplr(input: Any) -> Any:  # noqa: A002
    """``input`` reversed left to right (along dimension 1)."""
    expect_tensor(input, "fliplr")
    if input._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return rearrange.flip(input, 1)


def flipud(input: Any) -> Any:  # noqa: A002
    """``input`` reversed upside down (along dimension 0)."""
    expect_tensor(input, "flipud")
    if input._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return rearrange.flip(input, 0)


@parsed("unflatten", "Tensor input, int dim, tuple of ints sizes")
def unflatten(input: Any, dim: int, sizes: Sequence[int]) -> Any:  # noqa: A002
    """Dimension ``dim`` unfolded into ``sizes`` (one may be -1), as a view."""
    expect_tensor(input, "unflatten")
    expect_ints(sizes, "sizes")  # (the parser's cue; normalize_dims checks dim)
    sizes = [int(s) for s in sizes]
    if input._data.ndim == 0:
        raise RuntimeError(
            "unflatten got an unexpected error: a 0-d tensor has no dim to unflatten"
        )
    (d,) = normalize_dims(dim, input._data.ndim)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n, shape = input._data.shape[d], input._data.shape
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error: only one dimension can be -1")
    known = 1
    for s in sizes:
        known *= s if s != -1 else 1
    if -1 in sizes and known and n % known == 0:
        sizes[sizes.index(-1)] = n // known
    elif known != n or -1 in sizes:
        raise RuntimeError(
            f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {dim} ({n}) "
            "in the input tensor"
        )
    return shape_ops.view(input, tuple(shape[:d]) + tuple(sizes) + tuple(shape[d + 1 :]))


@parsed("sum_to_size", "Tensor input, tuple of ints size")
@torch_keywords("input", "size")
def sum_to_size(input: Any, *size: Any) -> Any:  # noqa: A002
    """``input`` summed down to ``size`` (the shape it was broadcast from)."""
    target = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple)) else size
    expect_ints(target, "size")
    shape = input._data.shape
    lead = len(shape) - len(target)
    if lead < 0 or any(t != 1 and t != s for t, s in zip(target, shape[lead:])):
        raise RuntimeError(f"size {{{list(target)}}} is not expandable to size {{{list(shape)}}}.")
    dims = list(range(lead)) + [lead + i for i, t in enumerate(target) if t == 1 != shape[lead + i]]
    if not dims:
        return input
    summed = reduce_sum(input, tuple(dims), keepdim=True)
    return shape_ops.view(summed, tuple(target)) if lead else summed


@parsed(
    "diagflat",
    "Tensor input, int offset=0",
)
def diagflat(input: Any, offset: int = 0) -> Any:  # noqa: A002
    """The square matrix with ``input``'s values (flattened) on its ``offset``-th diagonal."""
    expect_tensor(input, "diagflat")
    flat = shape_ops.view(shape_ops.contiguous(input), (-1,))
    return diag_embed(flat, offset)


@parsed(
    "combinations",
    "Tensor input, int r=2, bool with_replacement=False",
)
def combinations(input: Any, r: int = 2, with_replacement: bool = False) -> Any:  # noqa: A002
    """The length-``r`` combinations of a vector's values, one per row (as
    itertools.combinations): picked from an ``r``-fold meshgrid by a mask, then stacked."""
    expect_tensor(input, "combinations")
    if input._data.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input._data.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _node.plain_tensor(np.zeros(0, input._data.dtype), input._device)
    n = input._data.shape[0]
    places = np.meshgrid(*[np.arange(n)] * r, indexing="ij")
    keep = np.ones(places[0].shape, bool)
    for lo, hi in zip(places, places[1:]):  # (non-decreasing with replacement, else rising)
        keep &= lo <= hi if with_replacement else lo < hi
    mask = _node.plain_tensor(keep, input._device)
    chosen = [rearrange.masked_select(g, mask) for g in grids.meshgrid(*[input] * r, indexing="ij")]
    return join.stack(chosen, 1)

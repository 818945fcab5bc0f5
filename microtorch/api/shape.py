"""Shape ops: view/reshape/flatten, squeeze/unsqueeze, expand, transpose/permute, clone, casts.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/shape.py``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch.api import dtype_view
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import NO_DIM, parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.api.reduction import distinct_dims, normalize_dims
from microtorch.api.tensor_options import check_memory_format
from microtorch.autograd.views import as_view
from microtorch.dtypes import dtype as dtype_
from microtorch.ops._layout import preserved_astype
from microtorch.ops.shape import (
    Clone,
    Expand,
    Permute,
    ReshapeAlias,
    Squeeze,
    SqueezeDim,
    SqueezeDims,
    T,
    ToCopy,
    Transpose,
    UnsafeView,
    Unsqueeze,
    View,
)

__all__ = [
    "parse_shape",
    "view",
    "reshape",
    "reshape_function",
    "flatten",
    "squeeze",
    "unsqueeze",
    "expand",
    "transpose",
    "t",
    "permute",
    "clone",
    "contiguous",
    "to_dtype",
]


def parse_shape(shape: Sequence[Any], numel: int) -> tuple[int, ...]:
    """``view(2, -1)`` or ``view((2, -1))`` as a full shape; PyTorch's error if it can't fit."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    if shape and isinstance(shape[0], (bool, np.bool_)):  # (the parser's TypeError)
        raise TypeError("a shape must start with an int, not a bool")
    for i, s in enumerate(shape):
        if not hasattr(s, "__index__"):
            raise TypeError(
                f"a shape must be made of ints, but got {type(s).__name__} {s!r} at position {i} "
                "(Fix: use whole numbers, e.g. n // 2 rather than n / 2)"
            )
    dims = [int(s) for s in shape]
    if dims.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod([d for d in dims if d != -1])  # (Python's ints: no overflow)
    if -1 in dims:
        if known == 0 or numel % known:
            raise RuntimeError(
                f"shape '{_fmt(dims)}' is invalid for input of size {numel} (Fix: the sizes other "
                f"than -1 multiply to {known}, which must divide {numel})"
            )
        dims[dims.index(-1)] = numel // known
    elif known != numel:
        raise RuntimeError(
            f"shape '{_fmt(dims)}' is invalid for input of size {numel} (Fix: the new shape holds "
            f"{known} elements, the tensor {numel}; the sizes must multiply to {numel})"
        )
    return tuple(dims)


def _fmt(dims: list[int]) -> str:
    return "[" + ", ".join(str(d) for d in dims) + "]"


@parsed("view", "Tensor input, torch.dtype dtype", "Tensor input, tuple of ints size")
def view(a: Any, *shape: Any) -> Any:
    """The same memory with a new shape (fails when the strides don't allow it), or read as
    another dtype: ``x.view(torch.int32)``."""
    if not shape:  # (the parser's TypeError: PyTorch needs a size)
        raise TypeError("view() missing its shape")
    if len(shape) == 1 and isinstance(shape[0], dtype_):  # the same bytes read as a dtype
        return dtype_view.view_as_dtype(a, shape[0])
    new = parse_shape(shape, a._data.size)
    try:
        return as_view(View.apply(a, new), a)
    except AttributeError:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None


@parsed("reshape", "Tensor input, int[] shape")
def reshape(a: Any, *shape: Any) -> Any:
    """A view with the new shape when possible, otherwise a copy."""
    if not shape:  # (the parser's TypeError: PyTorch needs a size)
        raise TypeError("reshape() missing its shape")
    new = parse_shape(shape, a._data.size)
    if _viewable(a._data, new):
        # PyTorch records a non-contiguous input's view as ReshapeAliasBackward0
        fn = View if a._data.flags.c_contiguous else ReshapeAlias
        return as_view(fn.apply(a, new), a)
    return UnsafeView.apply(Clone.apply(a, True), new)  # (a row-major copy, viewable)


@parsed("reshape", "Tensor input, int[] shape")
def reshape_function(input: Any, shape: Sequence[int]) -> Any:  # noqa: A002
    """``torch.reshape(x, (2, 3))``: the shape as one sequence (``x.reshape(2, 3)`` takes the
    sizes one by one too)."""
    if not isinstance(shape, (tuple, list)):  # (the parser's TypeError)
        raise TypeError("reshape(): the shape must be a tuple of ints")
    return reshape(input, shape)


def _viewable(data: np.ndarray, shape: tuple[int, ...]) -> bool:
    probe = data.view()
    try:
        probe.shape = shape
    except AttributeError:
        return False
    return True


@parsed("flatten", "Tensor input, int start_dim=0, int end_dim=-1")
@torch_keywords("input", "start_dim", "end_dim")
def flatten(a: Any, start_dim: int = 0, end_dim: int = -1) -> Any:
    """Merge dimensions ``start_dim..end_dim`` into one."""
    shape = a._data.shape
    if not shape:
        normalize_dims((start_dim, end_dim), 0)  # a 0-d tensor accepts only 0 and -1
        return reshape(a, (1,))
    s, e = normalize_dims((start_dim, end_dim), len(shape))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return a
    return reshape(a, (*shape[:s], -1, *shape[e + 1 :]))


@parsed("squeeze", "Tensor input", "Tensor input, int dim", "Tensor input, tuple of ints dim")
@torch_keywords("input", "dim", numpy_aliases=True)
def squeeze(a: Any, dim: Any = NO_DIM) -> Any:
    """Drop size-1 dimensions (all of them, or only ``dim`` if it has size 1)."""
    shape = a._data.shape
    if dim is None:  # (the parser's TypeError: PyTorch has no squeeze(dim=None))
        raise TypeError("squeeze(): dim must be an int or a tuple of ints, not None")
    if dim is NO_DIM:
        axes = tuple(i for i, n in enumerate(shape) if n == 1)
        return as_view(Squeeze.apply(a, axes), a)
    dims = distinct_dims(normalize_dims(dim, len(shape)))
    axes = tuple(d for d in dims if shape and shape[d] == 1)
    fn = SqueezeDims if isinstance(dim, (tuple, list)) else SqueezeDim
    return as_view(fn.apply(a, axes), a)


@parsed("unsqueeze", "Tensor input, int dim")
@torch_keywords("input", "dim", numpy_aliases=True)
def unsqueeze(a: Any, dim: int) -> Any:
    """Insert a size-1 dimension at ``dim``."""
    (d,) = normalize_dims(dim, a._data.ndim + 1)
    return as_view(Unsqueeze.apply(a, d), a)


def too_few_sizes(a: Any, sizes: Sequence[int]) -> RuntimeError:
    """PyTorch's error for expanding ``a`` to fewer dimensions than it has."""
    kind = "CPUBoolType" if a._dtype.name == "bool" else f"microtorch.{a._dtype._legacy}"
    return RuntimeError(
        f"expand({kind}{{{list(a._data.shape)}}}, size={list(sizes)}): the number of sizes "
        f"provided ({len(sizes)}) must be greater or equal to the number of dimensions in the "
        f"tensor ({a._data.ndim})"
    )


@parsed("expand", "Tensor input, tuple of ints size, *, bool implicit=False")
def expand(a: Any, *sizes: Any, implicit: bool = False) -> Any:
    """Repeat size-1 dimensions to ``sizes`` without copying (-1 keeps a size); ``implicit``
    changes nothing (PyTorch's tracer sets it)."""
    if not sizes:  # (the parser's TypeError: expand() needs a size)
        raise TypeError("expand() needs a size")
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    shape = a._data.shape
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise too_few_sizes(a, sizes)
    target = tuple(
        shape[i - lead] if s == -1 and i >= lead else operator.index(s) for i, s in enumerate(sizes)
    )
    for i, n in enumerate(target[:lead]):
        if n < 0:  # (-1 keeps a size: a new leading dimension has none to keep)
            raise RuntimeError(
                f"The expanded size of the tensor ({n}) isn't allowed in a leading, non-existing "
                f"dimension {i}"
            )
    for i, n in enumerate(shape):
        if n != 1 and n != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing "
                f"size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{list(sizes)}.  Tensor sizes: {list(shape)}"
            )
    return as_view(Expand.apply(a, target), a)


@parsed("permute", "Tensor input, tuple of ints dims")
def permute(a: Any, *dims: Any) -> Any:
    """Reorder the dimensions (a view)."""
    if not dims:  # (the parser's TypeError: PyTorch needs a dims)
        raise TypeError("permute() missing its dims")
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    order = normalize_dims(dims, a._data.ndim)
    if len(order) == a._data.ndim and len(set(order)) != len(order):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    if sorted(order) != list(range(a._data.ndim)):
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {a._data.ndim} is "
            f"not equal to len(dims) = {len(dims)}"
        )
    return as_view(Permute.apply(a, order), a)


@parsed("transpose", "Tensor input, int dim0, int dim1")
@torch_keywords("input", "dim0", "dim1")
def transpose(a: Any, dim0: int, dim1: int) -> Any:
    """Swap two dimensions (a view)."""
    d0, d1 = normalize_dims((dim0, dim1), a._data.ndim)
    if a._data.ndim == 0:  # transpose(0, 0) of a 0-d tensor, as PyTorch allows
        return as_view(Transpose.apply(a, ()), a)
    order = list(range(a._data.ndim))
    order[d0], order[d1] = order[d1], order[d0]
    return as_view(Transpose.apply(a, tuple(order)), a)


@torch_keywords("input")
def t(a: Any) -> Any:
    """Transpose of a matrix (1-D and 0-D tensors are returned as they are)."""
    if a._data.ndim > 2:
        raise RuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {a._data.ndim}D"
        )
    return as_view(T.apply(a), a)


@torch_keywords("input")
def clone(a: Any, *, memory_format: Any = None) -> Any:
    """A copy with its own memory; gradients flow back to ``a``."""
    expect_tensor(a, "clone")
    check_memory_format("clone", memory_format)
    return Clone.apply(a)


def contiguous(a: Any) -> Any:
    """``a`` itself if its memory is in row-major order, else a row-major copy."""
    return a if a._data.flags.c_contiguous else Clone.apply(a, True)


def to_dtype(a: Any, dtype: Any, copy: bool = False) -> Any:
    """``a`` converted to ``dtype`` (``a`` itself if it already has it, unless ``copy``)."""
    if a._dtype is dtype and not copy:
        return a
    if a.requires_grad and not dtype.is_floating_point:
        return wrap(preserved_astype(a._data, dtype.numpy))
    return ToCopy.apply(a, dtype.numpy)

"""Everyday functions made of other ops, as PyTorch makes them: broadcast_to (expand),
narrow (a slice), movedim (permute), hstack/vstack/column_stack (cat), outer (a product of
views), count_nonzero, argwhere; and the one-sided clamps and nan_to_num.

Each composite records the graph PyTorch records (``outer`` is ``MulBackward0`` over a
``ViewBackward0``), so ``grad_fn`` names agree.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import elementwise as ew
from microtorch.api import indexing, join, sorting, twins
from microtorch.api import shape as shape_ops
from microtorch.api._checks import expect_number, expect_tensor
from microtorch.api.arguments import alias, parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import _laid_out, as_operand
from microtorch.api.reduction import normalize_dims
from microtorch.api.reduction import sum as reduce_sum
from microtorch.autograd import node as _node
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.bounds import ClampMax, ClampMaxTensor, ClampMin, ClampMinTensor, NanToNum

__all__ = [
    "broadcast_to", "narrow", "movedim", "moveaxis", "hstack", "vstack", "column_stack", "outer",
    "count_nonzero", "argwhere", "clamp_min", "clamp_max", "clamp_min_", "clamp_max_",
    "nan_to_num",
]  # fmt: skip


@parsed(
    "broadcast_to",
    "Tensor input, tuple of ints size",
)
@torch_keywords("input", "size")
def broadcast_to(a: Any, size: Any) -> Any:
    """``a`` expanded to ``size`` (a view: ``a.expand(size)``)."""
    expect_tensor(a, "broadcast_to")
    return shape_ops.expand(a, tuple(size))


@parsed(
    "narrow",
    "Tensor input, int dim, Tensor start, int length",
    "Tensor input, int dim, int start, int length",
)
@torch_keywords("input", "dim", "start", "length")
def narrow(a: Any, dim: int, start: int, length: int) -> Any:
    """``length`` entries of ``a`` from ``start`` along ``dim`` (a view: a slice)."""
    expect_tensor(a, "narrow")
    (d,) = normalize_dims(dim, a._data.ndim)
    size = a._data.shape[d]
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    start = start % size if start < 0 else start
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return indexing.getitem(a, (slice(None),) * d + (slice(start, start + length),))


@parsed(
    "movedim",
    "Tensor input, int source, int destination",
    "Tensor input, tuple of ints source, tuple of ints destination",
)
@torch_keywords("input", "source", "destination")
def movedim(a: Any, source: Any, destination: Any) -> Any:
    """``a`` with dimension(s) ``source`` moved to ``destination`` (a permute)."""
    expect_tensor(a, "movedim")
    n = a._data.ndim
    src = normalize_dims(source, n)
    dst = normalize_dims(destination, n)
    if len(src) != len(dst):
        raise RuntimeError(
            "movedim: Invalid source or destination dims: source "
            f"({list(src)} dims) should contain the same number of dims as destination "
            f"({list(dst)} dims)"
        )
    order = [d for d in range(n) if d not in src]
    for s, t in sorted(zip(dst, src)):
        order.insert(s, t)
    return shape_ops.permute(a, tuple(order))


moveaxis = alias(movedim, "moveaxis")  # (numpy's name; its errors say moveaxis())


def hstack(tensors: Any) -> Any:
    """Tensors joined along dimension 1 (along 0 for 1-d ones)."""
    tensors = _nonempty(tensors, "hstack")
    return join.cat(tensors, 0 if all(t._data.ndim <= 1 for t in tensors) else 1)


def vstack(tensors: Any) -> Any:
    """Tensors joined along dimension 0, 1-d ones as rows."""
    tensors = _nonempty(tensors, "vstack")
    rows = [shape_ops.unsqueeze(t, 0) if t._data.ndim == 1 else t for t in tensors]
    return join.cat(rows, 0)


def row_stack(tensors: Any) -> Any:
    """``vstack``'s other name."""
    return vstack(join.tensor_list(tensors, "row_stack"))


def column_stack(tensors: Any) -> Any:
    """Tensors joined along dimension 1, 1-d ones as columns."""
    tensors = _nonempty(tensors, "column_stack")
    columns = [shape_ops.view(t, (t._data.size, 1)) if t._data.ndim <= 1 else t for t in tensors]
    return join.cat(columns, 1)


def _nonempty(tensors: Any, op: str) -> list[Any]:
    tensors = join.tensor_list(tensors, op)  # (a list or tuple of tensors: PyTorch's errors)
    if not tensors:
        raise RuntimeError(f"{op} expects a non-empty TensorList")
    return tensors


@torch_keywords("input", "vec2", out=True)
def outer(a: Any, b: Any) -> Any:
    """The outer product of two 1-d tensors: ``out[i, j] = a[i] * b[j]``."""
    expect_tensor(a, "outer")
    expect_tensor(b, "outer", "vec2", 2)
    return ew.mul(shape_ops.view(a, (a._data.size, 1)), b)


@parsed(
    "count_nonzero",
    "Tensor input, int dim = None",
    "Tensor input, tuple of ints dim",
)
def count_nonzero(input: Any, dim: Any = None) -> Any:  # noqa: A002 - PyTorch's name
    """How many entries are not 0 (along ``dim``, if given)."""
    expect_tensor(input, "count_nonzero")
    return reduce_sum(ew.ne(input, 0), dim) if dim is not None else reduce_sum(ew.ne(input, 0))


def argwhere(input: Any) -> Any:  # noqa: A002
    """The indices of the entries that are not 0, one row each (``nonzero``)."""
    expect_tensor(input, "argwhere")
    return sorting.nonzero(input)


_NUMBER = "Tensor input, Number {}, *, Tensor out=None"


@parsed("clamp_min", "Tensor input, Tensor min, *, Tensor out=None", _NUMBER.format("min"))
@torch_keywords("input", "min", out=True)
def clamp_min(a: Any, min: Any) -> Any:  # noqa: A002
    """max(a, min), for a number or a tensor ``min`` (broadcast)."""
    if isinstance(min, _node.Tensor):
        return _clamp_by_tensor(ClampMinTensor, a, min, "clamp_min")
    return ClampMin.apply(*_bounded(a, min, "clamp_min"))


@parsed("clamp_max", "Tensor input, Tensor max, *, Tensor out=None", _NUMBER.format("max"))
@torch_keywords("input", "max", out=True)
def clamp_max(a: Any, max: Any) -> Any:  # noqa: A002
    """min(a, max), for a number or a tensor ``max`` (broadcast)."""
    if isinstance(max, _node.Tensor):
        return _clamp_by_tensor(ClampMaxTensor, a, max, "clamp_max")
    return ClampMax.apply(*_bounded(a, max, "clamp_max"))


def _in_place(name: str, function: Any) -> Any:
    """``x.clamp_min_(m)``: ``clamp_min`` written into ``x``, with PyTorch's parser errors."""
    bound = name[6:9]
    signatures = (f"Tensor input, Tensor {bound}", f"Tensor input, Number {bound}")
    return parsed(name, *signatures)(twins.twin(name, function))


clamp_min_, clamp_max_ = _in_place("clamp_min_", clamp_min), _in_place("clamp_max_", clamp_max)


def _bounded(a: Any, bound: Any, op: str) -> tuple[Any, Any]:
    expect_tensor(a, op)
    expect_number(bound, op, op[6:], 2)  # (clamp_min(x, None) would be nan)
    if not a._dtype.is_floating_point:  # an int tensor and a float bound: float32
        a = as_operand(a, result_type(a, bound))
    return a, bound


def _clamp_by_tensor(fn: Any, a: Any, bound: Any, op: str) -> Any:
    # PyTorch's clamp_min.Tensor: computed in the dtype of a and the bound together; an int or
    # bool operand is cast to it (it has no gradient), a float one stays (each float input's
    # gradient comes in its own dtype, and no ToCopyBackward0 node is recorded)
    expect_tensor(a, op)
    dtype = result_type(a, bound)
    a, bound = (x if x._dtype.is_floating_point else as_operand(x, dtype) for x in (a, bound))
    try:
        out = fn.apply(a, bound, dtype.numpy)
    except ValueError:
        raise broadcast_error(a._data.shape, bound._data.shape) from None
    return out if out._data.ndim < 2 else _laid_out(out, a, bound)


def check_replacements(op: str, nan: Any, posinf: Any, neginf: Any) -> None:
    """PyTorch's TypeError for a replacement that is not a float (None means the default),
    worded as for a keyword argument, the usual way to give one."""
    for arg, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        expect_number(value, op, arg, None, "float", none=True)


@torch_keywords("input", "nan", "posinf", "neginf", out=True)
def nan_to_num(
    a: Any, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
) -> Any:
    """``a`` with nan made ``nan``, inf ``posinf`` and -inf ``neginf`` (the dtype's largest
    and smallest finite numbers unless given)."""
    expect_tensor(a, "nan_to_num")
    check_replacements("nan_to_num", nan, posinf, neginf)
    if not a._dtype.is_floating_point:
        return shape_ops.clone(a)
    info = np.finfo(a._data.dtype)
    nan = 0.0 if nan is None else nan
    hi = float(info.max) if posinf is None else posinf
    lo = float(info.min) if neginf is None else neginf
    return NanToNum.apply(a, nan, hi, lo)

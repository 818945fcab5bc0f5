"""diff (differences of neighbours) and repeat_interleave (each element repeated in place).

Both are made of other ops, as PyTorch makes them, so they record PyTorch's graph: diff is
a subtraction of two slices (``SubBackward0``), repeat_interleave by a number an unsqueeze,
expand, copy and view (``ViewBackward0``), by a tensor of counts an index_select.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import elementwise as ew
from microtorch.api import join, rearrange
from microtorch.api import shape as shape_ops
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.composites import narrow
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import node as _node

__all__ = ["diff", "repeat_interleave"]


@parsed(
    "diff",
    (
        "Tensor input, int n=1, int dim=-1, Tensor prepend=None, Tensor append=None, *, "
        "Tensor out=None"
    ),
)
@torch_keywords("input", "n", "dim", "prepend", "append", out=True)
def diff(a: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Any:
    """out[i] = a[i + 1] - a[i] along ``dim``, ``n`` times over; ``prepend``/``append``
    are put before/after ``a`` along ``dim`` first. Bool tensors give a != their neighbour."""
    expect_tensor(a, "diff")
    if a._data.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    (d,) = normalize_dims(dim, a._data.ndim)
    parts = [a]
    for name, extra in (("prepend", prepend), ("append", append)):
        if extra is None:
            continue
        if not isinstance(extra, _node.Tensor):
            raise TypeError(f"diff(): argument '{name}' must be Tensor, not {type(extra).__name__}")
        _check_extra(a, extra, d)
        parts.insert(0 if name == "prepend" else len(parts), extra)
    out = join.cat(parts, d) if len(parts) > 1 else a
    for _ in range(n):
        size = out._data.shape[d]
        if size == 0:
            break
        # (PyTorch's C++ makes the right operand first: so do we, for the same graph order)
        earlier = narrow(out, d, 0, size - 1)
        later = narrow(out, d, 1, size - 1)
        out = ew.ne(later, earlier) if out._dtype.name == "bool" else ew.sub(later, earlier)
    return out


def _check_extra(a: Any, extra: Any, d: int) -> None:
    if extra._data.ndim != a._data.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (m, k) in enumerate(zip(a._data.shape, extra._data.shape)):
        if i != d and m != k:
            raise RuntimeError(
                "diff expects the shape of tensor to prepend or append to match that of input "
                f"except along the differencing dimension; input.size({i}) = {m}, but got "
                f"tensor.size({i}) = {k}"
            )


@parsed(
    "repeat_interleave",
    "Tensor input, Tensor repeats, int dim = None, *, int output_size = None",
    "Tensor repeats, *, int output_size = None",
    "Tensor input, int repeats, int dim = None, *, int output_size = None",
)
@torch_keywords("input", "repeats", "dim")
def repeat_interleave(
    a: Any = None, repeats: Any = None, dim: int | None = None, *, output_size: int | None = None
) -> Any:
    """Each element (each slice along ``dim``) repeated ``repeats`` times in place:
    [1, 2] -> [1, 1, 2, 2]. ``repeats`` a tensor: one count per element. Given only a tensor
    of counts, ``torch.repeat_interleave(counts)`` is the index 0, 0, 1, ... they describe.
    ``output_size``, if given, must be the length of the repeated dimension."""
    if a is None:  # torch.repeat_interleave(repeats=counts)
        a, repeats = repeats, None
    expect_tensor(a, "repeat_interleave")
    out = _repeated(a, repeats, dim)
    n = out._data.shape[0 if dim is None or repeats is None else normalize_dims(dim, out.ndim)[0]]
    if output_size is not None and output_size != n:
        raise RuntimeError(
            f"repeat_interleave: Invalid output_size, expected {n} but got {output_size}"
        )
    return out


def _repeated(a: Any, repeats: Any, dim: int | None) -> Any:
    if repeats is None:  # torch.repeat_interleave(counts): its kernel is chosen by dtype first
        _integral(a)
        return wrap(np.repeat(np.arange(a._data.shape[0]), _counts(a, a._data.shape[0])))
    if dim is None:
        a, d = shape_ops.flatten(a), 0
    else:
        (d,) = normalize_dims(dim, a._data.ndim)
        if a._data.ndim == 0 and not isinstance(repeats, _node.Tensor):  # (PyTorch's, which
            normalize_dims(d + 1, 0)  # unsqueezes the dimension after dim first)
    size = a._data.shape[d] if a._data.ndim else 1
    if isinstance(repeats, _node.Tensor):  # one count per element (or one for all)
        counts = repeats
        if repeats._data.ndim == 0 or repeats._data.shape == (1,):
            counts = wrap(np.full(size, repeats._data.reshape(-1)[0]), repeats._device)
        index = np.repeat(np.arange(size), _counts(counts, size))
        return rearrange.index_select(a, d, wrap(index))
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    if a._data.ndim == 0:
        a = shape_ops.flatten(a)
    shape = list(a._data.shape)
    grown = shape_ops.expand(
        shape_ops.unsqueeze(a, d + 1), *shape[: d + 1], repeats, *shape[d + 1 :]
    )
    shape[d] *= repeats
    return shape_ops.reshape(shape_ops.contiguous(grown), *shape)


def _integral(repeats: Any) -> None:
    if repeats._data.dtype.kind not in "iu":
        name = {"float32": "Float", "float64": "Double", "bool": "Bool"}.get(repeats._dtype.name)
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{name}'")


def _counts(repeats: Any, size: int) -> np.ndarray:
    data = repeats._data
    if data.ndim > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    _integral(repeats)
    if data.shape[0] != size:
        raise RuntimeError(
            "repeats must have the same size as input along dim, but got repeats.size(0) = "
            f"{data.shape[0]} and input.size(0) = {size}"
        )
    if data.size and data.min() < 0:
        raise RuntimeError("repeats can not be negative")
    return data

"""Joining and cutting: cat, stack, split, chunk, unbind.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/join.py``.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch.api.arguments import expect_int, parsed, reraise
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand
from microtorch.api.reduction import normalize_dims
from microtorch.autograd.views import as_view
from microtorch.dtypes import promote_types
from microtorch.ops.join import Cat, Split, SplitWithSizes, Stack, Unbind

__all__ = ["cat", "stack", "split", "chunk", "unbind", "tensor_list"]


@parsed("cat", "tuple of Tensors tensors, int dim=0, *")
@torch_keywords("tensors", "dim", numpy_aliases=True, out=True)
def cat(tensors: Sequence[Any], dim: int = 0) -> Any:
    """Join tensors along an existing dimension."""
    tensors = tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t._data.ndim == 0:
            raise RuntimeError(
                f"zero-dimensional tensor (at position {i}) cannot be concatenated (Fix: use "
                "torch.stack, or unsqueeze it first)"
            )
    if all(t._data.shape == (0,) for t in tensors):  # (PyTorch's legacy: any dim joins them)
        expect_int(dim, "dim")
        return Cat.apply(0, *_promoted(tensors))
    (d,) = normalize_dims(dim, tensors[0]._data.ndim)
    first = tensors[0]._data.shape
    for i, t in enumerate(tensors[1:], 1):
        shape = t._data.shape
        if len(shape) != len(first):
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {len(first)} and {len(shape)}"
            )
        for k, (n0, n) in enumerate(zip(first, shape)):
            if k != d and n0 != n:
                shapes = [list(t._data.shape) for t in tensors]
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {n0} "
                    f"but got size {n} for tensor number {i} in the list. (shapes {shapes}: "
                    f"only dimension {d}, the one joined, may differ)"
                )
    return Cat.apply(d, *_promoted(tensors))


def _promoted(tensors: list[Any]) -> list[Any]:
    # PyTorch's result dtype, which numpy's concatenate gives too, except for integers
    # joined with floats: those take the float's dtype (int64 and float32 give float32).
    target = functools.reduce(promote_types, [t._dtype for t in tensors])
    if np.result_type(*[t._data for t in tensors]) == target.numpy:
        return tensors
    return [t if t._dtype.is_floating_point else as_operand(t, target) for t in tensors]


def tensor_list(tensors: Any, op: str) -> list[Any]:
    """``tensors`` as a list, with PyTorch's errors unless it is a list or tuple of tensors."""
    # (torch.cat(x, y): a tensor, not a list; lists of lists)
    if hasattr(tensors, "_data") or not isinstance(tensors, (list, tuple)):
        raise TypeError(
            f"{op}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
            f"{type(tensors).__name__} (Fix: put the tensors in a list, e.g. torch.{op}([a, b]))"
        )
    for i, t in enumerate(tensors):
        if not hasattr(t, "_data"):
            raise TypeError(
                f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}"
            )
    return list(tensors)


@parsed("stack", "tuple of Tensors tensors, int dim=0, *")
@torch_keywords("tensors", "dim", numpy_aliases=True, out=True)
def stack(tensors: Sequence[Any], dim: int = 0) -> Any:
    """Stack same-shape tensors along a new dimension."""
    tensors = tensor_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    (d,) = normalize_dims(dim, tensors[0]._data.ndim + 1)
    first = tensors[0]._data.shape
    for i, x in enumerate(tensors):
        if x._data.shape != first:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(first)} at entry 0 "
                f"and {list(x._data.shape)} at entry {i}"
            )
    return Stack.apply(d, *_promoted(tensors))


_SPLIT = (
    "Tensor input, int split_size, int dim=0",
    "Tensor input, tuple of ints split_size, int dim=0",
)


@torch_keywords("tensor", ("split_size_or_sections", "split_size"), "dim")
def split(a: Any, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple[Any, ...]:
    """Cut into pieces of a given size (the last may be smaller) or of the given sizes."""
    try:
        return _split(a, split_size_or_sections, dim)
    except Exception as error:  # PyTorch's Tensor.split calls one of two ops, as the size is
        if isinstance(split_size_or_sections, int):
            reraise("split", _SPLIT, (a, split_size_or_sections, dim), {}, error)
        else:
            signature = ("Tensor input, int[] split_sizes, int dim=0",)
            reraise("split_with_sizes", signature, (a, split_size_or_sections, dim), {}, error)
        raise


def _split(a: Any, split_size_or_sections: int | Sequence[int], dim: int) -> tuple[Any, ...]:
    expect_int(dim, "dim")
    if isinstance(split_size_or_sections, bool):  # (the parser's TypeError)
        raise TypeError("split(): split_size must be int, not bool")
    if not isinstance(split_size_or_sections, int):
        for size in split_size_or_sections:
            expect_int(size, "split_sizes")
    if a._data.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    (d,) = normalize_dims(dim, a._data.ndim)
    n = a._data.shape[d]
    if isinstance(split_size_or_sections, int):
        if split_size_or_sections < 0 or split_size_or_sections == 0 and n:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
                if split_size_or_sections == 0
                else f"split expects split_size be non-negative, but got split_size="
                f"{split_size_or_sections}"
            )
        sizes = [split_size_or_sections] * (n // builtins.max(split_size_or_sections, 1))
        if split_size_or_sections and n % split_size_or_sections:
            sizes.append(n % split_size_or_sections)
    else:
        sizes = list(split_size_or_sections)
        if sum(sizes) != n:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size "
                f"at dimension {d}), but got split_sizes={sizes}"
            )
    fn = Split if isinstance(split_size_or_sections, int) else SplitWithSizes
    outs = fn.apply(a, list(np.cumsum(sizes)[:-1]), d)
    outs = outs if isinstance(outs, tuple) else (outs,)
    return tuple(as_view(o, a, multi_output=True) for o in outs)


@parsed("chunk", "Tensor input, int chunks, int dim=0")
@torch_keywords("input", "chunks", "dim")
def chunk(a: Any, chunks: int, dim: int = 0) -> tuple[Any, ...]:
    """Cut into ``chunks`` nearly equal pieces."""
    if a._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if isinstance(chunks, bool) or chunks <= 0:  # (True: the parser's TypeError)
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    (d,) = normalize_dims(dim, a._data.ndim)
    if a._data.shape[d] == 0:  # an empty dimension: `chunks` empty pieces, as in PyTorch
        return split(a, [0] * chunks, d)
    size = -(-a._data.shape[d] // chunks)
    return split(a, max(size, 1), d)


@parsed(
    "unbind",
    "Tensor input, int dim=0",
)
@torch_keywords("input", "dim")
def unbind(a: Any, dim: int = 0) -> tuple[Any, ...]:
    """The slices along ``dim``, as a tuple."""
    if a._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    (d,) = normalize_dims(dim, a._data.ndim)
    outs = Unbind.apply(a, d)
    outs = outs if isinstance(outs, tuple) else (outs,)
    return tuple(as_view(o, a, multi_output=True) for o in outs)

"""Shape ops: view/reshape, squeeze/unsqueeze, expand, transpose/permute, indexing, cat/stack.

Views share memory with their input (``y = x.view(4)`` changes when ``x`` does) and its
version counter; their backward only rearranges the gradient.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch.autograd.function import Function
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._checks import expect_tensor
from microtorch.ops.elementwise import wrap
from microtorch.ops.reduction import normalize_dims

__all__ = [
    "as_view", "parse_shape", "view", "reshape", "flatten", "squeeze", "unsqueeze", "expand",
    "transpose", "t", "permute", "getitem", "cat", "stack", "split", "chunk", "unbind", "clone",
    "contiguous", "to_dtype",
]  # fmt: skip


def as_view(out: Any, base: Any) -> Any:
    """Mark ``out`` as a view of ``base``: one memory, one version counter."""
    out._base = base._base if base._base is not None else base
    out._version_counter = base._version_counter
    return out


def parse_shape(shape: Sequence[Any], numel: int) -> tuple[int, ...]:
    """``view(2, -1)`` or ``view((2, -1))`` as a full shape; PyTorch's error if it can't fit."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    for i, s in enumerate(shape):
        if not hasattr(s, "__index__"):
            raise TypeError(
                f"a shape must be made of ints, but got {type(s).__name__} {s!r} at position {i} "
                "(Fix: use whole numbers, e.g. n // 2 rather than n / 2)"
            )
    dims = [int(s) for s in shape]
    if dims.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = int(np.prod([d for d in dims if d != -1]))
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


class View(Function):
    """z = a viewed with a new shape: the gradient is reshaped back."""

    _raw, node_name = True, "ViewBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        out = a.view()
        out.shape = shape  # raises if a copy would be needed, unlike np.reshape
        return out

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.reshape(ctx.shape)


class UnsafeView(View):
    """z = a (a fresh copy) with a new shape: the gradient is reshaped back."""

    node_name = "UnsafeViewBackward0"


def view(a: Any, *shape: Any) -> Any:
    """The same memory with a new shape; fails when the strides don't allow it."""
    new = parse_shape(shape, a._data.size)
    try:
        return as_view(View.apply(a, new), a)
    except AttributeError:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None


class ReshapeAlias(View):
    """z = a non-contiguous a viewed with a new shape: the gradient is reshaped back."""

    node_name = "ReshapeAliasBackward0"


def reshape(a: Any, *shape: Any) -> Any:
    """A view with the new shape when possible, otherwise a copy."""
    new = parse_shape(shape, a._data.size)
    if _viewable(a._data, new):
        # PyTorch records a non-contiguous input's view as ReshapeAliasBackward0
        fn = View if a._data.flags.c_contiguous else ReshapeAlias
        return as_view(fn.apply(a, new), a)
    return UnsafeView.apply(clone(a), new)


def _viewable(data: np.ndarray, shape: tuple[int, ...]) -> bool:
    probe = data.view()
    try:
        probe.shape = shape
    except AttributeError:
        return False
    return True


def flatten(a: Any, start_dim: int = 0, end_dim: int = -1) -> Any:
    """Merge dimensions ``start_dim..end_dim`` into one."""
    shape = a._data.shape
    if not shape:
        normalize_dims((start_dim, end_dim), 0)  # a 0-d tensor accepts only 0 and -1
        return reshape(a, 1)
    s, e = normalize_dims((start_dim, end_dim), len(shape))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return a
    return reshape(a, *shape[:s], -1, *shape[e + 1 :])


class Squeeze(Function):
    """z = a without some size-1 dims: the gradient gets them back."""

    _raw, node_name = True, "SqueezeBackward0"

    @staticmethod
    def forward(ctx, a, axes):
        ctx.shape = a.shape
        return np.squeeze(a, axis=axes)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.reshape(ctx.shape)


class SqueezeDim(Squeeze):
    """z = a without size-1 dim ``dim``: the gradient gets it back."""

    node_name = "SqueezeBackward1"


def squeeze(a: Any, dim: int | tuple[int, ...] | None = None) -> Any:
    """Drop size-1 dimensions (all of them, or only ``dim`` if it has size 1)."""
    shape = a._data.shape
    if dim is None:
        axes = tuple(i for i, n in enumerate(shape) if n == 1)
        return as_view(Squeeze.apply(a, axes), a)
    axes = tuple(d for d in normalize_dims(dim, len(shape)) if shape and shape[d] == 1)
    return as_view(SqueezeDim.apply(a, axes), a)


class Unsqueeze(Function):
    """z = a with a new size-1 dim: the gradient drops it again."""

    _raw, node_name = True, "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        return np.expand_dims(a, dim)

    @staticmethod
    def backward(ctx, grad_output):
        return np.squeeze(grad_output, axis=ctx.dim)


def unsqueeze(a: Any, dim: int) -> Any:
    """Insert a size-1 dimension at ``dim``."""
    (d,) = normalize_dims(dim, a._data.ndim + 1)
    return as_view(Unsqueeze.apply(a, d), a)


class Expand(Function):
    """z = a repeated along size-1 dims (no copy): the gradient sums over the repeats."""

    _raw, node_name = True, "ExpandBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        return np.broadcast_to(a, shape)

    @staticmethod
    def backward(ctx, grad_output):
        return unbroadcast(grad_output, ctx.shape)


def expand(a: Any, *sizes: Any) -> Any:
    """Repeat size-1 dimensions to ``sizes`` without copying (-1 keeps a size)."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    shape = a._data.shape
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(
            f"expand(microtorch.{a._dtype._legacy}{{{list(shape)}}}, size={list(sizes)}): the "
            f"number of sizes provided ({len(sizes)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(shape)})"
        )
    target = tuple(
        shape[i - lead] if s == -1 and i >= lead else int(s) for i, s in enumerate(sizes)
    )
    for i, n in enumerate(shape):
        if n != 1 and n != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing "
                f"size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{list(sizes)}.  Tensor sizes: {list(shape)}"
            )
    return as_view(Expand.apply(a, target), a)


class Permute(Function):
    """z = a with dims reordered: the gradient is put back in the original order."""

    _raw, node_name = True, "PermuteBackward0"

    @staticmethod
    def forward(ctx, a, order):
        ctx.inverse = tuple(np.argsort(order))
        return np.transpose(a, order)

    @staticmethod
    def backward(ctx, grad_output):
        return np.transpose(grad_output, ctx.inverse)


class Transpose(Permute):
    """z = a with two dims swapped: the gradient is swapped back."""

    node_name = "TransposeBackward0"


class T(Permute):
    """z = a.t(): the gradient is transposed back."""

    node_name = "TBackward0"


def permute(a: Any, *dims: Any) -> Any:
    """Reorder the dimensions (a view)."""
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


def transpose(a: Any, dim0: int, dim1: int) -> Any:
    """Swap two dimensions (a view)."""
    d0, d1 = normalize_dims((dim0, dim1), a._data.ndim)
    if a._data.ndim == 0:  # transpose(0, 0) of a 0-d tensor, as PyTorch allows
        return as_view(Transpose.apply(a, ()), a)
    order = list(range(a._data.ndim))
    order[d0], order[d1] = order[d1], order[d0]
    return as_view(Transpose.apply(a, tuple(order)), a)


def t(a: Any) -> Any:
    """Transpose of a matrix (1-D and 0-D tensors are returned as they are)."""
    if a._data.ndim > 2:
        raise RuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {a._data.ndim}D"
        )
    return as_view(T.apply(a, tuple(range(a._data.ndim))[::-1]), a)


class Select(Function):
    """z = a[..., i, ...] along one dim: the gradient lands at index i, zeros elsewhere."""

    _raw, node_name = True, "SelectBackward0"

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        return a[key]

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros(ctx.shape, grad_output.dtype)
        grad[ctx.key] = grad_output
        return grad


class Slice(Select):
    """z = a[start:stop:step] along one dim: the gradient lands in that slice."""

    node_name = "SliceBackward0"


class Index(Function):
    """z = a[indices] with integer or boolean tensors (a copy): the gradient is scattered
    back, adding up where an index repeats."""

    _raw, node_name = True, "IndexBackward0"

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        # numpy may lay a fancy-indexed result out column-first; PyTorch's is row-major, and
        # that decides whether a later reshape is a view.
        return np.ascontiguousarray(a[key])

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros(ctx.shape, grad_output.dtype)
        np.add.at(grad, ctx.key, grad_output)
        return grad


def _advanced(item: Any) -> bool:
    return isinstance(item, (list, np.ndarray, bool)) or hasattr(item, "_data")


def getitem(a: Any, index: Any) -> Any:
    """``a[index]``: ints, slices, None and ... give views, recorded one dimension at a time
    as PyTorch does (``x[0, 1:]`` is a Select then a Slice); integer or boolean tensors and
    lists give a copy (``IndexBackward0``)."""
    items = index if isinstance(index, tuple) else (index,)
    # a 0-d integer tensor indexes like an int (a view, SelectBackward0), as in PyTorch
    items = tuple(
        int(i._data)
        if hasattr(i, "_data") and i._data.ndim == 0 and i._data.dtype.kind in "iu"
        else i
        for i in items
    )
    if any(_advanced(i) for i in items):
        return _advanced_index(a, items)
    out = _basic_index(a, items)
    if out is not a:
        return out
    # nothing to do: PyTorch records x[:] as a Slice, but x[...] or x[:, :] as an Alias
    if isinstance(index, slice):
        return as_view(Slice.apply(a, (slice(None),)), a)
    return as_view(Alias.apply(a), a)


class Alias(Function):
    """z = a, the same memory under a new name (``x[...]``): the gradient passes through."""

    _raw, node_name = True, "AliasBackward0"

    @staticmethod
    def forward(ctx, a):
        return a.view()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def _basic_index(a: Any, items: tuple[Any, ...]) -> Any:
    ndim = a._data.ndim
    used = sum(1 for i in items if i is not None and i is not Ellipsis)
    if ndim == 0 and used:
        if any(isinstance(i, slice) for i in items):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )
    if used > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    out, d = a, 0
    for item in items:
        if item is Ellipsis:
            d += ndim - used
        elif item is None:
            out, d = as_view(Unsqueeze.apply(out, d), a), d + 1
        elif isinstance(item, slice):
            size = out._data.shape[d]
            if item.step is not None and item.step <= 0:
                raise ValueError("step must be greater than zero")
            if item.indices(size) != (0, size, 1):
                key = (slice(None),) * d + (item,)
                out = as_view(Slice.apply(out, key), a)
            d += 1
        else:
            if not isinstance(item, (int, np.integer)):
                _bad_index(item)
            i, size = int(item), out._data.shape[d]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {d} with size {size}")
            out = as_view(Select.apply(out, (slice(None),) * d + (i,)), a)
    return out


def _bad_index(item: Any) -> None:
    error = IndexError if isinstance(item, (float, complex)) else TypeError
    raise error(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        f"valid indices (got {type(item).__name__})"
    )


def _check_index_arrays(shape: tuple[int, ...], key: tuple[Any, ...]) -> None:
    # PyTorch's errors for float index tensors and for boolean masks of the wrong shape.
    d = 0
    for k in key:
        if isinstance(k, np.ndarray):
            if k.dtype.kind not in "iub":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            if k.dtype == np.bool_ and not any(i is Ellipsis for i in key):
                for j, n in enumerate(k.shape):
                    if d + j < len(shape) and n != shape[d + j]:
                        raise IndexError(
                            f"The shape of the mask {list(k.shape)} at index {j} does not match "
                            f"the shape of the indexed tensor {list(shape)} at index {d + j}"
                        )
                d += k.ndim
                continue
        if k is not None:
            d += 1


def _advanced_index(a: Any, items: tuple[Any, ...]) -> Any:
    # As PyTorch: ints, slices and None are applied first (as views: SelectBackward0 ...),
    # then the integer/boolean arrays index what is left (one IndexBackward0). So x[1, idx]
    # is a Select then an Index, and x[1, :, idx] has PyTorch's shape, not numpy's.
    if not any(isinstance(i, bool) for i in items) and any(_changes_view(i) for i in items):
        basic: list[Any] = []
        rest: list[Any] = []
        for i in items:
            if _advanced(i):
                dims = np.ndim(_value(i)) if _value(i).dtype == np.bool_ else 1
                basic += [slice(None)] * dims
                rest.append(i)
            elif isinstance(i, (slice, type(None))):
                basic.append(i)
                rest.append(slice(None))
            elif i is Ellipsis:
                basic.append(i)
                rest.append(i)
            else:  # an int: its dimension is gone
                basic.append(i)
        a, items = _basic_index(a, tuple(basic)), tuple(rest)
    key = tuple(
        i._data if hasattr(i, "_data") else np.asarray(i) if isinstance(i, list) else i
        for i in items
    )
    _check_index_arrays(a._data.shape, key)
    try:
        return Index.apply(a, key if len(key) > 1 else key[0])
    except IndexError as e:
        text = str(e).replace(" for axis ", " for dimension ")
        raise IndexError(f"{text} (indexing a tensor of shape {list(a._data.shape)})") from None


def _value(item: Any) -> np.ndarray:
    return item._data if hasattr(item, "_data") else np.asarray(item)


def _changes_view(item: Any) -> bool:
    # ints, None and slices other than ``:`` are recorded as view nodes before the Index
    if _advanced(item) or item is Ellipsis:
        return False
    return not (isinstance(item, slice) and item == slice(None))


class Cat(Function):
    """z = the inputs joined along dim: each gets back its own slice of the gradient."""

    _raw, node_name = True, "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        ctx.splits = np.cumsum([t.shape[dim] for t in tensors])[:-1]
        return np.concatenate(tensors, axis=dim)

    @staticmethod
    def backward(ctx, grad_output):
        return tuple(np.split(grad_output, ctx.splits, axis=ctx.dim))


class Stack(Function):
    """z = the inputs stacked along a new dim: each gets back its own slice of the gradient."""

    _raw, node_name = True, "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        return np.stack(tensors, axis=dim)

    @staticmethod
    def backward(ctx, grad_output):
        return tuple(np.moveaxis(grad_output, ctx.dim, 0))


def cat(tensors: Sequence[Any], dim: int = 0) -> Any:
    """Join tensors along an existing dimension."""
    tensors = _tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t._data.ndim == 0:
            raise RuntimeError(
                f"zero-dimensional tensor (at position {i}) cannot be concatenated (Fix: use "
                "torch.stack, or unsqueeze it first)"
            )
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
    return Cat.apply(d, *tensors)


def _tensor_list(tensors: Any, op: str) -> list[Any]:
    # PyTorch's errors for torch.cat(x, y) (a tensor, not a list) and for lists of lists.
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


def stack(tensors: Sequence[Any], dim: int = 0) -> Any:
    """Stack same-shape tensors along a new dimension."""
    tensors = _tensor_list(tensors, "stack")
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
    return Stack.apply(d, *tensors)


class Split(Function):
    """outputs = a cut along dim: the gradient pieces are joined back (zeros for unused ones)."""

    _raw, node_name = True, "SplitBackward0"

    @staticmethod
    def forward(ctx, a, bounds, dim):
        ctx.dim = dim
        return tuple(np.split(a, bounds, axis=dim))

    @staticmethod
    def backward(ctx, *grad_outputs):
        return np.concatenate(grad_outputs, axis=ctx.dim)


class SplitWithSizes(Split):
    """outputs = a cut into pieces of the given sizes: the gradient pieces are joined back."""

    node_name = "SplitWithSizesBackward0"


class Unbind(Function):
    """outputs = the slices of a along dim: the gradients are stacked back."""

    _raw, node_name = True, "UnbindBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        return tuple(np.moveaxis(a, dim, 0))

    @staticmethod
    def backward(ctx, *grad_outputs):
        return np.stack(grad_outputs, axis=ctx.dim)


def split(a: Any, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple[Any, ...]:
    """Cut into pieces of a given size (the last may be smaller) or of the given sizes."""
    if a._data.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    (d,) = normalize_dims(dim, a._data.ndim)
    n = a._data.shape[d]
    if isinstance(split_size_or_sections, int):
        if split_size_or_sections <= 0 and n:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
                if split_size_or_sections == 0
                else f"split expects split_size be non-negative, but got split_size="
                f"{split_size_or_sections}"
            )
        sizes = [split_size_or_sections] * (n // split_size_or_sections)
        if n % split_size_or_sections:
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
    return tuple(as_view(o, a) for o in outs)


def chunk(a: Any, chunks: int, dim: int = 0) -> tuple[Any, ...]:
    """Cut into ``chunks`` nearly equal pieces."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    (d,) = normalize_dims(dim, a._data.ndim)
    size = -(-a._data.shape[d] // chunks)
    return split(a, max(size, 1), d)


def unbind(a: Any, dim: int = 0) -> tuple[Any, ...]:
    """The slices along ``dim``, as a tuple."""
    if a._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    (d,) = normalize_dims(dim, a._data.ndim)
    outs = Unbind.apply(a, d)
    outs = outs if isinstance(outs, tuple) else (outs,)
    return tuple(as_view(o, a) for o in outs)


class Clone(Function):
    """z = a copy of a: the gradient passes through unchanged."""

    _raw, node_name = True, "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.array(a, copy=True, order="C")

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def clone(a: Any) -> Any:
    """A copy with its own memory; gradients flow back to ``a``."""
    expect_tensor(a, "clone")
    return Clone.apply(a)


def contiguous(a: Any) -> Any:
    """``a`` itself if its memory is in row-major order, else a row-major copy."""
    return a if a._data.flags.c_contiguous else clone(a)


class ToCopy(Function):
    """z = a converted to another dtype: the gradient is converted back."""

    _raw, node_name = True, "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, np_dtype):
        ctx.dtype = a.dtype
        return a.astype(np_dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.astype(ctx.dtype)


def to_dtype(a: Any, dtype: Any) -> Any:
    """``a`` converted to ``dtype`` (``a`` itself if it already has it)."""
    if a._dtype is dtype:
        return a
    if a.requires_grad and not dtype.is_floating_point:
        return wrap(a._data.astype(dtype.numpy))
    return ToCopy.apply(a, dtype.numpy)


class IndexPut(Function):
    """z = a with z[key] = v: a gets the gradient outside key, v the gradient inside it."""

    _raw, node_name = True, "torch::autograd::CopySlices"

    @staticmethod
    def forward(ctx, a, v, key):
        ctx.key, ctx.v_shape = key, v.shape
        out = a.copy()
        out[key] = v
        return out

    @staticmethod
    def backward(ctx, grad_output):
        ga = grad_output.copy()
        ga[ctx.key] = 0
        return ga, unbroadcast(grad_output[ctx.key], ctx.v_shape)


class AdvancedIndexPut(IndexPut):
    """z = a with z[indices] = v for integer or boolean indices."""

    node_name = "IndexPutBackward0"


def index_put(a: Any, index: Any, value: Any) -> Any:
    """``a`` with ``a[index] = value`` applied, as a new tensor (``a[index] = v`` uses it)."""
    from microtorch.ops.elementwise import as_operand

    items = index if isinstance(index, tuple) else (index,)
    key = tuple(i._data if hasattr(i, "_data") else i for i in items)
    if not isinstance(value, (int, float, np.ndarray, np.generic)) and not hasattr(value, "_data"):
        raise TypeError(f"can't assign a {type(value).__name__} to a microtorch.{a._dtype._legacy}")
    fn = AdvancedIndexPut if any(_advanced(i) for i in items) else IndexPut
    try:
        selected = a._data[key if len(key) > 1 else key[0]].shape
    except IndexError as e:
        raise IndexError(str(e).replace(" for axis ", " for dimension ")) from None
    given = np.shape(getattr(value, "_data", value))
    lead = len(selected) - len(given)
    for i, n in enumerate(given):
        if n != 1 and (lead + i < 0 or n != selected[lead + i]):
            raise RuntimeError(
                f"The expanded size of the tensor ({selected[lead + i] if lead + i >= 0 else 1}) "
                f"must match the existing size ({n}) at non-singleton dimension {lead + i}.  "
                f"Target sizes: {list(selected)}.  Tensor sizes: {list(given)} (Fix: the value "
                "needs the shape of the part it replaces, or one that broadcasts to it)"
            )
    return fn.apply(a, as_operand(value, a._dtype), key if len(key) > 1 else key[0])

"""Indexing: ``x[0]``, ``x[1:]``, ``x[None]``, ``x[idx]``, ``x[mask]``, and ``x[i] = v``.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/indexing.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import written_number
from microtorch.api.arguments import expect_int, parsed
from microtorch.api.inplace import _needs_grad, copy, fill, index_items, int_key
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand
from microtorch.api.reduction import normalize_dims
from microtorch.api.shape import expand
from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node
from microtorch.autograd.views import as_view
from microtorch.ops.indexing import AdvancedIndexPut, Alias, Index, IndexPut, Select, Slice
from microtorch.ops.shape import Unsqueeze

__all__ = ["getitem", "index_put", "index_items", "select", "bad_index"]


def _advanced(item: Any) -> bool:
    return isinstance(item, (list, range, np.ndarray, bool)) or hasattr(item, "_data")


@parsed("select", "Tensor input, int dim, int index")
@torch_keywords("input", "dim", "index")
def select(a: Any, dim: int, index: int) -> Any:
    """The slice at ``index`` along ``dim``, one dimension fewer (a view: ``x[:, i]``)."""
    expect_int(dim, "dim")
    expect_int(index, "index")
    if a._data.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    (d,) = normalize_dims(dim, a._data.ndim)
    size = a._data.shape[d]
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size "
            f"{list(a._data.shape)} at dimension {d}"
        )
    return getitem(a, (slice(None),) * d + (int(index),))


def getitem(a: Any, index: Any) -> Any:
    """``a[index]``: ints, slices, None and ... give views, recorded one dimension at a time
    as PyTorch does (``x[0, 1:]`` is a Select then a Slice); integer or boolean tensors and
    lists give a copy (``IndexBackward0``)."""
    key = int_key(index, a, slices=True)
    if key is not None and not (grad_mode.state.grad_enabled and _needs_grad(a)):
        # (x[i, j] or x[i:j] of a tensor that records nothing: one numpy view, as Select and
        # Slice one dimension after another would give)
        try:
            data = a._data[key]
        except IndexError:  # (PyTorch's error, from the general path below)
            pass
        else:
            return as_view(_node.plain_tensor(data, a._device, grad_mode.state.inference), a)
    index = index_items(index)
    items = index if isinstance(index, tuple) else (index,)
    if any(_advanced(i) for i in items):
        return _advanced_index(a, items)
    out = _basic_index(a, items)
    if out is not a:
        return out
    # nothing to do: PyTorch records x[:] as a Slice, but x[...] or x[:, :] as an Alias
    if isinstance(index, slice):
        return as_view(Slice.apply(a, (slice(None),)), a)
    return as_view(Alias.apply(a), a)


def _check_step(item: slice) -> None:
    # PyTorch's errors: no reversed slices (x.flip(0) reverses), no step 0
    if item.step == 0:
        raise ValueError("slice step cannot be zero")
    if item.step is not None and item.step < 0:
        raise ValueError(
            "step must be greater than zero\n(Fix: to reverse, index with reversed positions, "
            "e.g. x[torch.arange(len(x) - 1, -1, -1)])"
        )


def _check_count(ndim: int, items: tuple[Any, ...]) -> int:
    # PyTorch's errors for more ints and slices than dimensions; how many there are
    used = sum(1 for i in items if i is not None and i is not Ellipsis)
    if ndim == 0 and used:
        if any(isinstance(i, slice) for i in items):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if len(items) > 1:  # (x[..., 0], x[None, 0]: PyTorch's text)
            raise IndexError("too many indices for tensor of dimension 0")
        if type(items[0]) is int and items[0] != 0:
            raise IndexError(f"index {items[0]} is out of bounds for dimension 0 with size 0")
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )
    if used > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    return used


def _basic_index(a: Any, items: tuple[Any, ...]) -> Any:
    ndim = a._data.ndim
    used = _check_count(ndim, items)
    out, d = a, 0  # d: the dimension of out
    for position, item in enumerate(items):  # (PyTorch's errors name an item's position)
        if item is Ellipsis:
            d += ndim - used
        elif item is None:
            out, d = as_view(Unsqueeze.apply(out, d), a), d + 1
        elif isinstance(item, slice):
            size = out._data.shape[d]
            _check_step(item)
            if item.indices(size) != (0, size, 1):
                key = (slice(None),) * d + (item,)
                out = as_view(Slice.apply(out, key), a)
            d += 1
        else:
            if not isinstance(item, (int, np.integer)):
                bad_index(item)
            i, size = int(item), out._data.shape[d]
            if not -size <= i < size:
                raise IndexError(
                    f"index {i} is out of bounds for dimension {position} with size {size}"
                )
            out = as_view(Select.apply(out, (slice(None),) * d + (i,)), a)
    return out


def bad_index(item: Any) -> None:
    """PyTorch's error for an index that is no int, slice, ellipsis, None or tensor."""
    error = IndexError if isinstance(item, (float, complex)) else TypeError
    raise error(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        f"valid indices (got {type(item).__name__})"
    )


def _check_key(shape: tuple[int, ...], key: tuple[Any, ...]) -> None:
    # PyTorch's errors for a key with arrays that does not fit (numpy's would name arrays).
    used = sum(_dims_used(k) for k in key)
    if used > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    _check_index_arrays(shape, key)
    shapes = [k.shape for k in key if isinstance(k, np.ndarray) and k.ndim]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing tensors could not be broadcast together with shapes "
            + ", ".join(str(list(s)) for s in shapes)
        ) from None


def _dims_used(k: Any) -> int:
    # how many dimensions of the tensor an item of a key indexes (None and ... none)
    if k is None or k is Ellipsis:
        return 0
    return k.ndim if isinstance(k, np.ndarray) and k.dtype == np.bool_ else 1


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
        i._data if hasattr(i, "_data") else _list_index(i) if isinstance(i, (list, range)) else i
        for i in items
    )
    _check_key(a._data.shape, key)
    try:
        return Index.apply(a, key if len(key) != 1 else key[0])
    except IndexError as e:
        text = str(e).replace(" for axis ", " for dimension ")
        raise IndexError(f"{text} (indexing a tensor of shape {list(a._data.shape)})") from None


def _list_index(items: Any) -> np.ndarray:
    # A list (or range) as an index, as PyTorch reads it: ints and bools as they are, a list
    # holding a float as integers rounded toward zero (x[[0.5, 1.9]] is x[[0, 1]]).
    key = np.asarray(items)
    return key.astype(np.int64) if key.dtype.kind == "f" else key


def _write_all(a: Any, value: Any) -> Any:
    # x[...] = v or x[:] = v writes every element: PyTorch records a fill (FillBackward3)
    # for a number or a 0-d tensor into n-d, else a copy (CopyBackwards), not a CopySlices.
    v = value if hasattr(value, "_data") else as_operand(value, a._dtype, a._device)
    if v._data.ndim == 0 and a._data.ndim:
        return fill(a, v)
    return copy(a, _shaped_like(v, a._data.shape))


def _shaped_like(value: Any, shape: tuple[int, ...]) -> Any:
    # PyTorch's setitem (copy_to): a value of another shape (not 0-d) is viewed without its
    # leading size-1 dims (ViewBackward0), then expanded to the slot's shape (ExpandBackward0)
    if value._data.shape == shape or value._data.ndim == 0:
        return value
    given = value._data.shape
    while given[:1] == (1,):
        given = given[1:]
    viewed = value.view(given)
    if given == shape:
        return viewed
    try:
        return expand(viewed, shape)
    except RuntimeError as error:  # (expand's own words, then the fix)
        fix = "the value needs the shape of the part it replaces, or one that broadcasts to it"
        raise RuntimeError(f"{error} (Fix: {fix})") from None


def _broadcasts(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def _value(item: Any) -> np.ndarray:
    return item._data if hasattr(item, "_data") else np.asarray(item)


def _changes_view(item: Any) -> bool:
    # ints, None and slices other than ``:`` are recorded as view nodes before the Index
    if _advanced(item) or item is Ellipsis:
        return False
    return not (isinstance(item, slice) and item == slice(None))


def index_put(a: Any, index: Any, value: Any) -> Any:
    """``a`` with ``a[index] = value`` applied, as a new tensor (``a[index] = v`` uses it)."""

    items = index if isinstance(index, tuple) else (index,)
    key = tuple(
        i._data if hasattr(i, "_data") else _list_index(i) if isinstance(i, list) else i
        for i in items
    )
    if not isinstance(value, (int, float, np.ndarray, np.generic)) and not hasattr(value, "_data"):
        raise TypeError(f"can't assign a {type(value).__name__} to a microtorch.{a._dtype._legacy}")
    value = written_number(value, a._data.dtype)
    advanced = any(_advanced(i) for i in items)
    if advanced:
        _check_key(a._data.shape, tuple(np.asarray(k) if isinstance(k, list) else k for k in key))
    else:
        _check_count(a._data.ndim, items)
    for item in items:
        if isinstance(item, slice):
            _check_step(item)
    try:
        selected = a._data[key if len(key) != 1 else key[0]].shape
    except IndexError as e:
        raise IndexError(str(e).replace(" for axis ", " for dimension ")) from None
    k = key if len(key) != 1 else key[0]
    if advanced:
        return AdvancedIndexPut.apply(a, as_operand(_fits_index(value, selected), a._dtype), k)
    if selected == a._data.shape and None not in items:
        return _write_all(a, value)
    if hasattr(value, "_data"):
        value = _shaped_like(value, selected)
        if value._dtype.is_floating_point and a._dtype.is_floating_point:
            return IndexPut.apply(a, value, k)  # (v's gradient in v's dtype: no ToCopyBackward0)
    return IndexPut.apply(a, as_operand(value, a._dtype), k)


def _fits_index(value: Any, selected: tuple[int, ...]) -> Any:
    # PyTorch's index_put_ views the value without its leading 1s ([1, 2] into a [2] result),
    # then needs it to broadcast to the indexed part
    given = np.shape(getattr(value, "_data", value))
    if given[:1] == (1,) and hasattr(value, "_data"):
        while given[:1] == (1,):
            given = given[1:]
        value = value.view(given)
    if not _broadcasts(given, selected):
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(given)} cannot be broadcast to "
            f"indexing result of shape {list(selected)}"
        )
    return value

"""index_add, index_copy, index_fill (slices along a dimension, at the positions a 1-d index
names) and unfold (sliding windows, a view).

``zeros(3, 2).index_add_(0, torch.tensor([0, 2, 0]), src)`` adds ``src``'s rows 0 and 2 into
row 0 and its row 1 into row 2. The public functions: argument checks and PyTorch's errors
around the formulas in ``microtorch/ops/index_along.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor, type_name
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import node as _node
from microtorch.autograd.views import as_view
from microtorch.ops.index_along import IndexAdd, IndexCopy, IndexFill, IndexFillTensor, Unfold

__all__ = ["index_add", "index_copy", "index_fill", "unfold", "scalar_type"]

_SCALAR_TYPES = {  # (the names PyTorch's messages give dtypes)
    "float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
    "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
}  # fmt: skip


def scalar_type(t: Any) -> str:
    """PyTorch's name for ``t``'s dtype in its C++ messages: Float, Double, Long..."""
    return _SCALAR_TYPES.get(t._dtype.name, t._dtype.name)


def _size(a: Any, d: int) -> int:
    return a._data.shape[d] if a._data.ndim else 1


def _start(a: Any, dim: int, index: Any, op: str, source: Any = None) -> int:
    expect_tensor(a, op)
    expect_tensor(index, op, "index", 3)
    if source is not None:
        expect_tensor(source, op, "source", 4)
    (d,) = normalize_dims(dim, a._data.ndim)
    return d


def _bounds(a: Any, d: int, positions: np.ndarray, error: type, prefix: str = "") -> None:
    size = _size(a, d)
    bad = positions[(positions < 0) | (positions >= size)]
    if bad.size:
        raise error(
            f"{prefix}index {bad.flat[0]} is out of bounds for dimension {d} with size {size}"
        )


def check_vector_index(op: str, a: Any, index: Any, source: Any) -> None:
    """PyTorch's checks of index_add's and index_reduce's index (a vector of int32 or int64)
    and source (a's dtype), in its order; ``op`` starts each message."""
    if index._data.ndim > 1:
        raise IndexError(
            f"{op}: Index is supposed to be a vector, but got dim: {index._data.ndim} with type: "
            f"{scalar_type(index)} and size: {list(index._data.shape)}"
        )
    if index._dtype.name not in ("int64", "int32"):
        raise RuntimeError(
            f"{op}: Expected dtype int32/int64 for index but got: {scalar_type(index)}"
        )
    if source._dtype is not a._dtype:
        raise RuntimeError(
            f"{op}: self ({scalar_type(a)}) and source ({scalar_type(source)}) must have the "
            "same scalar type"
        )


@parsed(
    "index_add",
    "Tensor input, int dim, Tensor index, Tensor source, *, Number alpha=1, Tensor out=None",
)
@torch_keywords("input", "dim", "index", "source", out=True)
def index_add(a: Any, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Any:
    """``a`` with ``alpha * source[i]`` added to its slice ``index[i]`` along ``dim``
    (for ``dim=0``: ``out[index[i]] += alpha * source[i]``; repeated indices add up)."""
    d = _start(a, dim, index, "index_add", source)
    check_vector_index("index_add_()", a, index, source)
    n = index._data.size
    src_shape = source._data.shape
    if source._data.ndim and d >= source._data.ndim:
        raise RuntimeError(
            f"index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim "
            f"{source._data.ndim}"
        )
    if (src_shape[d] if source._data.ndim else 1) != n:
        raise RuntimeError(
            f"index_add_(): Number of indices ({n}) should be equal to source.size(dim): "
            f"({src_shape[d] if source._data.ndim else 1}), for dim: {d}"
        )
    others = [k for k in range(a._data.ndim) if k != d]
    if source._data.ndim != a._data.ndim or any(src_shape[k] != a._data.shape[k] for k in others):
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(a._data.shape)} source.shape = {list(src_shape)}"
        )
    positions = index._data.reshape(-1).astype(np.int64)
    outside = (positions < 0) | (positions >= _size(a, d))
    if a._data.ndim <= 1 and outside.any():  # (PyTorch's kernel for 1-d says it otherwise)
        raise IndexError("index out of range in self")
    _bounds(a, d, positions, RuntimeError)
    if not isinstance(alpha, (bool, int, float)):
        raise TypeError(f"index_add(): argument 'alpha' must be Number, not {type_name(alpha)}")
    return IndexAdd.apply(a, source, positions, d, alpha)


@parsed(
    "index_copy",
    "Tensor input, int dim, Tensor index, Tensor source, *, Tensor out=None",
)
@torch_keywords("input", "dim", "index", "source", out=True)
def index_copy(a: Any, dim: int, index: Any, source: Any) -> Any:
    """``a`` with its slice ``index[i]`` along ``dim`` replaced by ``source[i]``."""
    d = _start(a, dim, index, "index_copy", source)
    if index._dtype.name != "int64":
        raise RuntimeError(
            f"index_copy_(): Expected a long tensor for index, but got {scalar_type(index)}"
        )
    if index._data.ndim > 1:
        raise IndexError(
            f"index_copy_(): Index should have dimension 1 or 0 (got {index._data.ndim})"
        )
    src, dst = source._data, a._data
    if src.ndim != dst.ndim and src.ndim and dst.ndim:
        raise IndexError(
            "index_copy_(): When source and destination are not scalars, their dimensionality "
            f"must match. Source dimensionality ({src.ndim}), destination dimensionality "
            f"({dst.ndim})"
        )
    n = index._data.size
    if (src.shape[d] if src.ndim else 1) != n:
        raise IndexError(
            f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) "
            f"({src.shape[d] if src.ndim else 1})"
        )
    for k in range(dst.ndim if src.ndim else 0):
        if k != d and src.shape[k] != dst.shape[k]:
            raise RuntimeError(
                "index_copy_(): Source/destination tensor must have same slice shapes. "
                f"Destination slice shape: {dst.shape[k]} at dimension {k} and source slice "
                f"shape: {src.shape[k]} at dimension {k}."
            )
    if source._dtype is not a._dtype:
        raise RuntimeError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{scalar_type(a)} and (source) {scalar_type(source)}"
        )
    positions = index._data.reshape(-1).astype(np.int64)
    _bounds(a, d, positions, IndexError, "index_copy_(): ")
    return IndexCopy.apply(a, source, positions, d)


@parsed(
    "index_fill",
    "Tensor input, int dim, Tensor index, Tensor value",
    "Tensor input, int dim, Tensor index, Number value",
)
@torch_keywords("input", "dim", "index", "value")
def index_fill(a: Any, dim: int, index: Any, value: Any) -> Any:
    """``a`` with the slices ``index`` names along ``dim`` set to ``value`` (a number or a
    0-d tensor; negative indices count from the end)."""
    d = _start(a, dim, index, "index_fill")
    if not isinstance(value, (_node.Tensor, bool, int, float)):
        got = type_name(value)
        bad = (
            "      didn't match because some of the arguments have invalid types: (Tensor, "
            f"int, Tensor, !{got}!)\n"
        )
        raise TypeError(
            f"index_fill() received an invalid combination of arguments - got (Tensor, int, "
            f"Tensor, {got}), but expected one of:\n * (Tensor input, int dim, Tensor index, "
            f"Tensor value)\n{bad} * (Tensor input, int dim, Tensor index, Number value)\n{bad}"
        )
    if index._dtype.name != "int64":
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index._data.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, _node.Tensor) and value._data.ndim:
        raise RuntimeError(
            "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value._data.ndim} dimension(s)."
        )
    size = _size(a, d)
    positions = index._data.reshape(-1).astype(np.int64)
    bad = positions[(positions < -size) | (positions >= size)]
    if bad.size:
        raise IndexError(f"index {bad.flat[0]} is out of bounds for dimension {d} with size {size}")
    positions = positions % size
    if isinstance(value, _node.Tensor):
        if value._dtype is not a._dtype:
            value = value.to(a._dtype)
        return IndexFillTensor.apply(a, value, positions, d)
    return IndexFill.apply(a, positions, d, np.asarray(value).astype(a._data.dtype))


def unfold(a: Any, dimension: int, size: int, step: int) -> Any:
    """The view of ``a``'s windows of ``size`` elements along ``dimension``, one every
    ``step``: a new last dimension of ``size``, and ``dimension`` counts the windows."""
    expect_tensor(a, "unfold")
    for name, v in (("dimension", dimension), ("size", size), ("step", step)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise TypeError(f"unfold(): argument '{name}' must be int, not {type_name(v)}")
    (d,) = normalize_dims(dimension, a._data.ndim)
    n = _size(a, d)
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return as_view(Unfold.apply(a, d, int(size), int(step)), a)

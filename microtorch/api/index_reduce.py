"""index_reduce (and Tensor.index_reduce_): each slice of ``source`` along ``dim`` combined
into the slice of the input that ``index`` names, by prod, mean, amax or amin; PyTorch's
argument checks and errors around the formula in ``microtorch/ops/index_reduce.py``."""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor, type_name
from microtorch.api.arguments import expect_bool, parsed
from microtorch.api.index_along import check_vector_index
from microtorch.api.inplace import apply_inplace
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.ops.index_reduce import IndexReduce

__all__ = ["index_reduce", "index_reduce_"]

_SIGNATURE = (
    "Tensor input, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True, "
    "Tensor out=None"
)


def _checked(a: Any, dim: Any, index: Any, source: Any, reduce: Any, include_self: Any) -> int:
    op = "index_reduce_()"
    expect_tensor(a, "index_reduce")
    expect_tensor(index, "index_reduce", "index", 3)
    expect_tensor(source, "index_reduce", "source", 4)
    expect_bool(include_self, "include_self")
    if not isinstance(reduce, str):  # (the parser's own text: its "str" is not checked there)
        raise TypeError(
            f"index_reduce(): argument 'reduce' (position 5) must be str, not {type_name(reduce)}"
        )
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(
            f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    (d,) = normalize_dims(dim, a._data.ndim)
    check_vector_index(op, a, index, source)
    if d != 0 and d >= source._data.ndim:
        raise IndexError(
            f"{op}: Indexing dim {d} is out of bounds of the source tensor with dim "
            f"{source._data.ndim}"
        )
    n = 1 if source._data.ndim == 0 else source.shape[d]
    if index._data.size != n:
        raise RuntimeError(
            f"{op}: Number of indices ({index._data.size}) should be equal to source.size(dim): "
            f"({n}), for dim: {d}"
        )
    a_sizes, source_sizes = list(a.shape), list(source.shape)
    if a_sizes and source_sizes:
        del a_sizes[d], source_sizes[d]
    if a_sizes != source_sizes:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(a.shape)} source.shape = {list(source.shape)}"
        )
    if a._dtype.name == "bool" and a._data.ndim <= 1:  # (PyTorch's kernel for 1-d has no bool)
        raise NotImplementedError("\"index_func_\" not implemented for 'Bool'")
    size = a.shape[d] if a._data.ndim else 1
    if ((index._data < 0) | (index._data >= size)).any():
        raise IndexError("index out of range in self")
    return d


@parsed("index_reduce", _SIGNATURE)
@torch_keywords(out=True)
def index_reduce(
    input: Any,  # noqa: A002 - PyTorch's names
    dim: int,
    index: Any,
    source: Any,
    reduce: str,
    *,
    include_self: bool = True,
) -> Any:
    """A copy of ``input`` with each ``source.select(dim, i)`` combined into
    ``input.select(dim, index[i])`` by ``reduce`` (prod, mean, amax, amin), starting from
    ``input``'s own value unless ``include_self=False``."""
    d = _checked(input, dim, index, source, reduce, include_self)
    idx = index._data.reshape(-1).astype("int64")
    return IndexReduce.apply(input, d, idx, source, reduce, include_self)


@parsed("index_reduce_", _SIGNATURE.replace(", Tensor out=None", ""))
def index_reduce_(
    self: Any, dim: int, index: Any, source: Any, reduce: str, *, include_self: bool = True
) -> Any:
    """``index_reduce``, written into this tensor; returns it."""
    _checked(self, dim, index, source, reduce, include_self)
    return apply_inplace(
        self, "index_reduce_", index_reduce, dim, index, source, reduce, include_self=include_self
    )

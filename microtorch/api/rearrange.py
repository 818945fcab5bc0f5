"""tril, triu, flip, roll, repeat, tile, index_select, masked_select, rsqrt and expm1, and
the dtype facts ``finfo``/``iinfo``.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/rearrange.py``.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_int, expect_ints, parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.api.unary import _float
from microtorch.dtypes import dtype, get_default_dtype
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.rearrange import (
    Expm1,
    Flip,
    IndexSelect,
    MaskedSelect,
    Repeat,
    Roll,
    Rsqrt,
    Tril,
    Triu,
)

__all__ = [
    "rsqrt", "expm1", "tril", "triu", "flip", "roll", "repeat", "tile", "index_select",
    "masked_select", "finfo", "iinfo", "is_floating_point",
]  # fmt: skip


@torch_keywords("input", out=True)
def rsqrt(a: Any) -> Any:
    """1 / sqrt(a)."""
    return Rsqrt.apply(_float(a, "rsqrt"))


@torch_keywords("input", out=True)
def expm1(a: Any) -> Any:
    """exp(a) - 1, accurate for small a."""
    return Expm1.apply(_float(a, "expm1"))


@parsed("tril", "Tensor input, int diagonal=0")
@torch_keywords("input", "diagonal", out=True)
def tril(a: Any, diagonal: int = 0) -> Any:
    """The lower triangle of the last two dimensions (the rest 0): the causal mask
    ``torch.tril(torch.ones(T, T))``."""
    _matrix(a, "tril")
    expect_int(diagonal, "diagonal")
    return Tril.apply(a, diagonal)


@parsed("triu", "Tensor input, int diagonal=0")
@torch_keywords("input", "diagonal", out=True)
def triu(a: Any, diagonal: int = 0) -> Any:
    """The upper triangle of the last two dimensions (the rest 0)."""
    _matrix(a, "triu")
    expect_int(diagonal, "diagonal")
    return Triu.apply(a, diagonal)


def _matrix(a: Any, op: str) -> None:
    expect_tensor(a, op)
    if a._data.ndim < 2:
        raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")


@parsed("flip", "Tensor input, tuple of ints dims")
@torch_keywords("input", "dims")
def flip(a: Any, *dims: Any) -> Any:
    """``a`` reversed along ``dims`` (a copy, as in PyTorch)."""
    expect_tensor(a, "flip")
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = tuple(dims[0])
    expect_ints(dims, "dims")
    dims = _distinct(normalize_dims(dims, a._data.ndim), "flip")
    return Flip.apply(a, dims if a._data.ndim else ())  # (a 0-d a: dim 0 or -1 is a itself)


def _distinct(dims: tuple[int, ...], op: str) -> tuple[int, ...]:
    for k, d in enumerate(dims):
        if d in dims[:k]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims


@parsed("roll", "Tensor input, tuple of ints shifts, tuple of ints dims=[]")
@torch_keywords("input", "shifts", "dims")
def roll(a: Any, shifts: Any, dims: Any = None) -> Any:
    """``a`` shifted along ``dims`` (without ``dims``: flattened, shifted, reshaped back)."""
    expect_tensor(a, "roll")
    shifts = tuple(shifts) if isinstance(shifts, (list, tuple)) else (shifts,)
    expect_ints(shifts, "shifts")
    expect_ints(() if dims is None else dims, "dims")
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return Roll.apply(a, shifts, None)
    dims = tuple(dims) if isinstance(dims, (list, tuple)) else (dims,)
    if len(shifts) != len(dims):
        raise RuntimeError(
            f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}"
        )
    if a._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    return Roll.apply(a, shifts, normalize_dims(dims, a._data.ndim))


@parsed("repeat", "Tensor input, tuple of ints repeats")
@torch_keywords("input", "repeats")
def repeat(a: Any, *sizes: Any) -> Any:
    """``a`` tiled ``sizes[i]`` times along dimension i (``x.repeat(2, 1)``); extra sizes
    add leading dimensions."""
    if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)):
        sizes = tuple(sizes[0])
    expect_ints(sizes, "repeats")
    if len(sizes) < a._data.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions "
            "of tensor"
        )
    if any(s < 0 for s in sizes):
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {min(sizes)}: {list(sizes)}"
        )
    return Repeat.apply(a, tuple(builtins.int(s) for s in sizes))


@parsed("tile", "Tensor input, tuple of ints dims")
@torch_keywords("input", "dims")
def tile(a: Any, *dims: Any) -> Any:
    """``a`` tiled as ``repeat`` does; fewer ``dims`` than dimensions count from the right."""
    expect_tensor(a, "tile")
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = tuple(dims[0])
    expect_ints(dims, "dims")
    return repeat(a, *((1,) * (a._data.ndim - len(dims)) + dims))


@parsed(
    "index_select",
    "Tensor input, int dim, Tensor index, *, Tensor out=None",
)
@torch_keywords("input", "dim", "index", out=True)
def index_select(a: Any, dim: int, index: Any) -> Any:
    """The slices of ``a`` at the positions ``index`` (1-d) names, along ``dim``."""
    expect_tensor(a, "index_select")
    expect_tensor(index, "index_select", "index", 3)
    if index._dtype.name not in ("int64", "int32"):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if index._data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    (d,) = normalize_dims(dim, a._data.ndim)
    size = a._data.shape[d] if a._data.ndim else 1
    positions = index._data.reshape(-1).astype(np.int64)
    bad = positions[(positions < 0) | (positions >= size)]
    if a._data.ndim == 0 and positions.size != 1:
        raise RuntimeError(
            f"index_select(): Index to scalar can have only 1 value, got {positions.size} value(s)"
        )
    if bad.size:
        raise IndexError("index out of range in self")
    return IndexSelect.apply(a, positions, d)


@torch_keywords("input", "mask", out=True)
def masked_select(a: Any, mask: Any) -> Any:
    """The values of ``a`` where ``mask`` (broadcast) is True, in a 1-d tensor (``x[mask]``)."""
    expect_tensor(a, "masked_select")
    expect_tensor(mask, "masked_select", "mask", 2)
    if mask._dtype.name != "bool":
        raise RuntimeError(
            "masked_select: expected BoolTensor for mask (Fix: a comparison such as x > 0)"
        )
    try:
        np.broadcast_shapes(a._data.shape, mask._data.shape)
    except ValueError:
        raise broadcast_error(mask._data.shape, a._data.shape) from None
    return MaskedSelect.apply(a, mask._data)


def is_floating_point(input: Any) -> bool:  # noqa: A002 - PyTorch's name
    """True for a tensor of a float dtype."""
    expect_tensor(input, "is_floating_point")
    return input._dtype.is_floating_point


class finfo:  # noqa: N801 - PyTorch's name
    """Facts about a float dtype: ``torch.finfo(torch.float32).eps``."""

    def __init__(self, type: dtype | None = None) -> None:  # noqa: A002
        d = type or get_default_dtype()
        if not d.is_floating_point:
            raise TypeError(
                "torch.finfo() requires a floating point input type. Use torch.iinfo to "
                "handle 'torch.finfo'"
            )
        info = np.finfo(d.numpy)
        self.dtype = d.name
        self.bits = info.bits
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0**-info.precision

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
            f"eps={self.eps:g}, smallest_normal={self.tiny:g}, tiny={self.tiny:g}, "
            f"dtype={self.dtype})"
        )


class iinfo:  # noqa: N801 - PyTorch's name
    """Facts about an integer dtype: ``torch.iinfo(torch.int64).max``."""

    def __init__(self, type: dtype) -> None:  # noqa: A002
        if type.is_floating_point or type.name == "bool":
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")  # fmt: skip
        info = np.iinfo(type.numpy)  # type: ignore[type-var]
        self.dtype, self.bits = type.name, info.bits
        self.min, self.max = int(info.min), int(info.max)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"

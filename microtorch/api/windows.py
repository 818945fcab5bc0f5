"""The window functions of signal processing (``hann_window``, ``hamming_window``,
``blackman_window``, ``bartlett_window``, ``kaiser_window``) and the index helpers
``tril_indices``, ``triu_indices``, ``unravel_index`` and ``vander``.

A window is computed as PyTorch computes it, one operation at a time in the window's dtype
(``arange``, times a scale, ``cos`` ...), so its float32 values are PyTorch's to the last bit
where the formula gives an exact 0 (``blackman_window(6)[0]`` is -2.98e-08 in both).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_int, parsed
from microtorch.api.operands import wrap
from microtorch.dtypes import dtype, get_default_dtype, int64, promote_types

__all__ = [
    "bartlett_window", "blackman_window", "hamming_window", "hann_window", "kaiser_window",
    "tril_indices", "triu_indices", "unravel_index", "vander",
]  # fmt: skip


# the C++ type names PyTorch's TensorOptions prints
_C_TYPES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char"}
_C_TYPES |= {"uint8": "unsigned char", "bool": "bool"}


def _arange(name: str, window_length: Any, periodic: bool, d: dtype | None) -> np.ndarray:
    """0, 1, ..., N - 1 in the window's dtype (N one more for a periodic window)."""
    if isinstance(window_length, bool) or not isinstance(window_length, int):
        raise TypeError(
            f"{name}(): argument 'window_length' (position 1) must be int, not "
            f"{type(window_length).__name__}"
        )
    d = d or get_default_dtype()
    if not d.is_floating_point:
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype={_C_TYPES[d.name]}, "
            "device=cpu, layout=Strided (default), requires_grad=false (default), "
            "pinned_memory=false, memory_format=(nullopt)) (Fix: dtype=torch.float32)"
        )
    if window_length < 0:
        raise RuntimeError(
            f"{name} requires non-negative window_length, got window_length={window_length}"
        )
    return np.arange(window_length + (1 if periodic and window_length > 1 else 0), dtype=d.numpy)


def _finish(window: np.ndarray, periodic: bool, requires_grad: bool) -> Any:
    if periodic and window.size > 1:
        window = window[:-1]  # a periodic window is one sample of a window one longer
    return wrap(np.ascontiguousarray(window)).requires_grad_(requires_grad)


def _scalar(window: np.ndarray, value: float) -> Any:
    return window.dtype.type(value)  # (PyTorch casts a scalar to the tensor's dtype first)


@parsed(
    "hamming_window",
    (
        "int window_length, *, torch.dtype dtype = None, torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
    (
        "int window_length, bool periodic, *, torch.dtype dtype = None, "
        "torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
    (
        "int window_length, bool periodic, float alpha, *, torch.dtype dtype = None, "
        "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
        "bool requires_grad = False"
    ),
    (
        "int window_length, bool periodic, float alpha, float beta, *, torch.dtype dtype = None, "
        "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
        "bool requires_grad = False"
    ),
)
def hamming_window(
    window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
    dtype: dtype | None = None, layout: Any = None, device: Any = None,
    pin_memory: bool | None = False, requires_grad: bool = False,
) -> Any:  # fmt: skip
    """alpha - beta * cos(2 pi n / (N - 1))."""
    n = _arange("hamming_window", window_length, periodic, dtype)
    if n.size <= 1:
        return _finish(np.ones_like(n), False, requires_grad)
    window = np.cos(n * _scalar(n, 2 * math.pi / (n.size - 1)))
    return _finish(window * _scalar(n, -beta) + _scalar(n, alpha), periodic, requires_grad)


@parsed(
    "hann_window",
    (
        "int window_length, *, torch.dtype dtype = None, torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
    (
        "int window_length, bool periodic, *, torch.dtype dtype = None, "
        "torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
)
def hann_window(
    window_length: int, periodic: bool = True, *, dtype: dtype | None = None,
    layout: Any = None, device: Any = None, pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Any:  # fmt: skip
    """0.5 - 0.5 * cos(2 pi n / (N - 1)): the Hamming window with alpha = beta = 0.5."""
    _arange("hann_window", window_length, periodic, dtype)  # (its own name in the errors)
    return hamming_window(
        window_length, periodic, 0.5, 0.5, dtype=dtype, requires_grad=requires_grad
    )


@parsed(
    "blackman_window",
    (
        "int window_length, *, torch.dtype dtype = None, torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
    (
        "int window_length, bool periodic, *, torch.dtype dtype = None, "
        "torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
)
def blackman_window(
    window_length: int, periodic: bool = True, *, dtype: dtype | None = None,
    layout: Any = None, device: Any = None, pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Any:  # fmt: skip
    """0.42 - 0.5 * cos(2 pi n / (N - 1)) + 0.08 * cos(4 pi n / (N - 1))."""
    n = _arange("blackman_window", window_length, periodic, dtype)
    if n.size <= 1:
        return _finish(np.ones_like(n), False, requires_grad)
    w = n * _scalar(n, math.pi / (n.size - 1))
    four, two = np.cos(w * _scalar(n, 4)) * _scalar(n, 0.08), np.cos(w * _scalar(n, 2))
    return _finish(four - two * _scalar(n, 0.5) + _scalar(n, 0.42), periodic, requires_grad)


@parsed(
    "bartlett_window",
    (
        "int window_length, *, torch.dtype dtype = None, torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
    (
        "int window_length, bool periodic, *, torch.dtype dtype = None, "
        "torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
)
def bartlett_window(
    window_length: int, periodic: bool = True, *, dtype: dtype | None = None,
    layout: Any = None, device: Any = None, pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Any:  # fmt: skip
    """The triangle 2n / (N - 1) up to the middle, 2 - 2n / (N - 1) after it."""
    n = _arange("bartlett_window", window_length, periodic, dtype)
    if n.size <= 1:
        return _finish(np.ones_like(n), False, requires_grad)
    window = n * _scalar(n, 2 / (n.size - 1))
    half = (n.size - 1) // 2 + 1
    window[half:] = -window[half:] + _scalar(n, 2)
    return _finish(window, periodic, requires_grad)


@parsed(
    "kaiser_window",
    (
        "int window_length, *, torch.dtype dtype = None, torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
    (
        "int window_length, bool periodic, *, torch.dtype dtype = None, "
        "torch.layout layout = None, "
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    ),
    (
        "int window_length, bool periodic, float beta, *, torch.dtype dtype = None, "
        "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
        "bool requires_grad = False"
    ),
)
def kaiser_window(
    window_length: int, periodic: bool = True, beta: float = 12.0, *,
    dtype: dtype | None = None, layout: Any = None, device: Any = None,
    pin_memory: bool | None = False, requires_grad: bool = False,
) -> Any:  # fmt: skip
    """I0(beta * sqrt(1 - ((n - a) / a) ** 2)) / I0(beta), a = (N - 1) / 2 (I0 the modified
    Bessel function of order 0)."""
    n = _arange("kaiser_window", window_length, periodic, dtype)
    if n.size <= 1:
        return _finish(np.ones_like(n), False, requires_grad)
    a = (n.size - 1) / 2.0
    inside = np.sqrt(np.abs(1 - ((n.astype(np.float64) - a) / a) ** 2))
    window = (np.i0(beta * inside) / np.i0(beta)).astype(n.dtype)
    return _finish(window, periodic, requires_grad)


def _triangle_indices(name: str, row: int, col: int, offset: int, d: Any, lower: bool) -> Any:
    for arg, value in (("row", row), ("col", col), ("offset", offset)):
        expect_int(value, arg)  # (the parser's cue: numpy would take 3.5 rows as 4)
    d = int64 if d is None else d  # (dtype=None: PyTorch's default, long)
    for arg, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{arg} must be non-negative, got{value}")  # (PyTorch's text)
    if d.name not in ("int32", "int64"):
        raise NotImplementedError(
            f"\"{name}\" not implemented for '{d._legacy[:-6]}' (Fix: dtype=torch.long)"
        )
    pick = np.tril_indices if lower else np.triu_indices
    return wrap(np.stack(pick(row, offset, col)).astype(d.numpy).reshape(2, -1))


@parsed(
    "tril_indices",
    (
        "int row, int col, int offset=0, *, torch.dtype dtype=None, torch.layout layout=None, "
        "torch.device device=None, bool pin_memory=False, bool requires_grad=False"
    ),
)
def tril_indices(
    row: int, col: int, offset: int = 0, *, dtype: dtype = int64, device: Any = None,
    layout: Any = None, pin_memory: bool | None = None, requires_grad: bool = False,
) -> Any:  # fmt: skip
    """The (row, column) places of a row x col matrix's lower triangle (the diagonal
    ``offset`` and below), a 2 x n tensor in row-major order."""
    return _triangle_indices("tril_indices", row, col, offset, dtype, True).requires_grad_(
        requires_grad
    )


@parsed(
    "triu_indices",
    (
        "int row, int col, int offset=0, *, torch.dtype dtype=None, torch.layout layout=None, "
        "torch.device device=None, bool pin_memory=False, bool requires_grad=False"
    ),
)
def triu_indices(
    row: int, col: int, offset: int = 0, *, dtype: dtype = int64, device: Any = None,
    layout: Any = None, pin_memory: bool | None = None, requires_grad: bool = False,
) -> Any:  # fmt: skip
    """The (row, column) places of the upper triangle (the diagonal ``offset`` and above)."""
    return _triangle_indices("triu_indices", row, col, offset, dtype, False).requires_grad_(
        requires_grad
    )


def unravel_index(indices: Any, shape: Any) -> tuple[Any, ...]:
    """The coordinates in ``shape`` of flat (row-major) ``indices``: one int64 tensor per
    dimension. As in PyTorch, an index outside ``shape`` wraps around (-1 is the last)."""
    expect_tensor(indices, "unravel_index", "indices", 1)
    if indices._dtype.name == "bool" or indices._dtype.is_floating_point:
        raise TypeError(
            f"expected 'indices' to be integer dtype, but got torch.{indices._dtype.name}"
        )
    sizes = (shape,) if isinstance(shape, int) else tuple(shape)
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(size)}")
    if any(size < 0 for size in sizes):
        raise ValueError(f"'shape' cannot have negative values, but got {sizes}")
    flat = indices._data.astype(np.int64)
    strides = [math.prod(sizes[i + 1 :]) for i in range(len(sizes))]
    return tuple(wrap(flat // stride % size) for stride, size in zip(strides, sizes))


@parsed(
    "vander",
    "Tensor x, int N=None, bool increasing=False",
)
def vander(x: Any, N: int | None = None, increasing: bool = False) -> Any:  # noqa: N803
    """The Vandermonde matrix: column j is x ** (N - 1 - j) (x ** j if ``increasing``).
    Composed as PyTorch composes it: ones, the columns after the first set to ``x`` and
    replaced by their cumulative product (``CopySlices``), then flipped."""
    expect_tensor(x, "vander", "x", 1)
    if x._data.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x._data.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    d = promote_types(x._dtype, int64)  # (integers become long, as cumprod makes them)
    result = wrap(np.ones((x._data.shape[0], n), d.numpy))
    if n > 1:
        result[:, 1:].copy_(x.unsqueeze(1))
        result[:, 1:].copy_(result[:, 1:].cumprod(1))
    return result if increasing else result.flip([1])

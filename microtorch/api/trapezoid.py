"""trapezoid (and its alias trapz) and cumulative_trapezoid: the trapezoid rule along a
dimension, composed of other ops in PyTorch's order (so the graph has PyTorch's nodes):
with spacing dx, (sum(y) - (y[0] + y[-1]) / 2) * dx; with sample points x,
sum(diff(x) * (y[1:] + y[:-1])) / 2; the cumulative forms cumsum instead of sum.
"""

from __future__ import annotations

from typing import Any

from microtorch.api import cumulative, reduction, sequences
from microtorch.api import elementwise as ew
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.unary import _float
from microtorch.ops.scalar import DivScalar, MulScalar

__all__ = ["cumulative_trapezoid", "trapezoid", "trapz"]


def _prepare(y: Any, dim: int, name: str) -> tuple[Any, int]:
    expect_tensor(y, name)
    if y._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    (dim,) = reduction.normalize_dims(dim, y._data.ndim)
    return _float(y, name), dim


def _pairs(y: Any, dim: int) -> Any:
    # y[1:] + y[:-1] along dim
    n = y.shape[dim]
    return ew.add(y.narrow(dim, 1, n - 1), y.narrow(dim, 0, n - 1))


def _spaced_pairs(y: Any, x: Any, dim: int, name: str) -> Any:
    # (x[1:] - x[:-1]) * (y[1:] + y[:-1]) along dim: twice each trapezoid's area
    expect_tensor(x, name, "x", 2)
    spacing = sequences.diff(x, dim=dim if x._data.ndim > 1 else -1)
    return ew.mul(spacing, _pairs(y, dim))


@parsed(
    "trapezoid",
    "Tensor y, Tensor x, *, int dim = -1",
    "Tensor y, *, Number dx = 1, int dim = -1",
)
def trapezoid(y: Any, x: Any = None, *, dx: Any = None, dim: int = -1) -> Any:
    """The integral of y along ``dim`` by the trapezoid rule, with spacing dx (1 unless
    given) or at sample points x."""
    return _trapezoid(y, x, dx, dim)


def _trapezoid(y: Any, x: Any, dx: Any, dim: int) -> Any:
    # (trapezoid's and trapz's, outside their parsers: each parses its own call)
    y, dim = _prepare(y, dim, "trapezoid")
    if x is not None:
        return DivScalar.apply(reduction.sum(_spaced_pairs(y, x, dim, "trapezoid"), dim), 2.0)
    step = 1.0 if dx is None else float(dx)
    if y.shape[dim] == 0:
        return MulScalar.apply(reduction.sum(y, dim), step)
    ends = ew.add(y.select(dim, 0), y.select(dim, -1))
    return MulScalar.apply(ew.sub(reduction.sum(y, dim), MulScalar.apply(ends, 0.5)), step)


@parsed(
    "trapz",
    "Tensor y, *, float dx = 1, int dim = -1",
    "Tensor y, Tensor x, *, int dim = -1",
)
def trapz(y: Any, x: Any = None, *, dx: Any = None, dim: int = -1) -> Any:
    """The older name of trapezoid."""
    return _trapezoid(y, x, dx, dim)


@parsed(
    "cumulative_trapezoid",
    "Tensor y, Tensor x, *, int dim = -1",
    "Tensor y, *, Number dx = 1, int dim = -1",
)
def cumulative_trapezoid(y: Any, x: Any = None, *, dx: Any = None, dim: int = -1) -> Any:
    """The running integral of y along ``dim`` by the trapezoid rule (one value fewer than
    y has along dim)."""
    y, dim = _prepare(y, dim, "cumulative_trapezoid")
    if x is not None:
        areas = _spaced_pairs(y, x, dim, "cumulative_trapezoid")
        return DivScalar.apply(cumulative.cumsum(areas, dim), 2.0)
    step = 1.0 if dx is None else float(dx)
    return cumulative.cumsum(MulScalar.apply(_pairs(y, dim), step / 2), dim)

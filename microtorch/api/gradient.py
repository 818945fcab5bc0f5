"""torch.gradient: the derivative of sampled values by finite differences along each dim,
composed of other ops as PyTorch composes them (so the graph has PyTorch's nodes and
differentiates):

- inside, the central difference; with spacing h, ``(y[2:] - y[:-2]) / h / 2``; at sample
  points x (steps ``d1``, ``d2`` either side), ``a y[:-2] + b y[1:-1] + c y[2:]`` with
  ``a = -d2 / (d1 (d1 + d2))``, ``b = (d2 - d1) / (d1 d2)``, ``c = d1 / (d2 (d1 + d2))``;
- at the two ends, a one-sided difference: ``edge_order=1`` from two values,
  ``edge_order=2`` from three (``(-1.5 y0 + 2 y1 - 0.5 y2) / h`` with spacing h);
- the three pieces joined by ``cat`` (``CatBackward0``).
"""

from __future__ import annotations

from typing import Any

from microtorch.api import elementwise as ew
from microtorch.api import join
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.composites import narrow
from microtorch.api.reduction import distinct_dims, normalize_dims
from microtorch.api.sequences import diff
from microtorch.autograd import node as _node
from microtorch.ops.scalar import DivScalar, MulScalar

__all__ = ["gradient"]

_SIGNATURES = (
    "Tensor input, *, tuple of ints dim, int edge_order = 1",
    "Tensor input, *, Number spacing, tuple of ints dim, int edge_order = 1",
    "Tensor input, *, Number spacing = None, int dim = None, int edge_order = 1",
    "Tensor input, *, tuple of Scalars spacing, int dim = None, int edge_order = 1",
    "Tensor input, *, tuple of Scalars spacing, tuple of ints dim, int edge_order = 1",
    "Tensor input, *, tuple of Tensors spacing, int dim = None, int edge_order = 1",
    "Tensor input, *, tuple of Tensors spacing, tuple of ints dim, int edge_order = 1",
)


def _slice(y: Any, dim: int, start: int, stop: int | None = None) -> Any:
    """``y[start:stop]`` along ``dim`` (``at::slice``: SliceBackward0)."""
    n = y.shape[dim]
    lo = start % n if start < 0 else start
    hi = n if stop is None else stop % n if stop < 0 else stop
    return narrow(y, dim, lo, hi - lo)


def _times(y: Any, c: float) -> Any:
    # tensor * number as PyTorch's C++ writes it (mul.Scalar: MulBackward1); integer samples
    # take the number's type, as ``mul`` promotes them (no gradient to record)
    return MulScalar.apply(y, c) if y.dtype.is_floating_point else ew.mul(y, c)


def _over(y: Any, c: float) -> Any:
    # tensor / number (div.Scalar: DivBackward1); integer samples give floats
    return DivScalar.apply(y, c) if y.dtype.is_floating_point else ew.div(y, c)


def _with_spacing(y: Any, h: float, d: int, edge_order: int) -> Any:
    def s(start: int, stop: int | None = None) -> Any:
        return _slice(y, d, start, stop)

    center = _over(ew.sub(s(2), s(0, -2)), h)
    if edge_order == 1:
        first = _over(ew.sub(s(1, 2), s(0, 1)), h)
        last = _over(ew.sub(s(-1), s(-2, -1)), h)
    else:
        first = ew.sub(ew.add(_times(s(0, 1), -1.5), _times(s(1, 2), 2)), _times(s(2, 3), 0.5))
        first = _over(first, h)
        last = ew.add(ew.sub(_times(s(-3, -2), 0.5), _times(s(-2, -1), 2)), _times(s(-1), 1.5))
        last = _over(last, h)
    return join.cat([first, _over(center, 2), last], d)


def _at_points(y: Any, x: Any, d: int, edge_order: int) -> Any:
    if x._data.ndim != 1:
        raise RuntimeError(
            "torch.gradient expected each element of spacing to have one dimension, but got an "
            f"element with {x._data.ndim} dimensions!"
        )

    def s(start: int, stop: int | None = None) -> Any:
        return _slice(y, d, start, stop)

    shape = [1] * y._data.ndim
    shape[d] = -1
    dx = diff(x, 1, 0)  # the steps between sample points
    d1, d2 = _slice(dx, 0, 0, -1), _slice(dx, 0, 1)
    a = ew.div(-d2, ew.mul(d1, ew.add(d1, d2))).reshape(shape)
    b = ew.div(ew.sub(d2, d1), ew.mul(d1, d2)).reshape(shape)
    c = ew.div(d1, ew.mul(d2, ew.add(d1, d2))).reshape(shape)
    center = ew.add(ew.add(ew.mul(a, s(0, -2)), ew.mul(b, s(1, -1))), ew.mul(c, s(2)))
    h0, h1, g1, g0 = dx[0], dx[1], dx[-2], dx[-1]  # the first two steps and the last two
    if edge_order == 1:
        first = ew.div(ew.sub(s(1, 2), s(0, 1)), h0)
        last = ew.div(ew.sub(s(-1), s(-2, -1)), g0)
    else:
        a = ew.div(-ew.add(ew.mul(h0, 2.0), h1), ew.mul(h0, ew.add(h0, h1)))
        b = ew.div(ew.add(h0, h1), ew.mul(h0, h1))
        c = ew.div(-h0, ew.mul(h1, ew.add(h0, h1)))
        first = ew.add(ew.add(ew.mul(a, s(0, 1)), ew.mul(b, s(1, 2))), ew.mul(c, s(2, 3)))
        a = ew.div(g0, ew.mul(g1, ew.add(g0, g1)))
        b = ew.div(-ew.add(g0, g1), ew.mul(g0, g1))
        c = ew.div(ew.add(ew.mul(g0, 2), g1), ew.mul(g0, ew.add(g0, g1)))
        last = ew.add(ew.add(ew.mul(a, s(-3, -2)), ew.mul(b, s(-2, -1))), ew.mul(c, s(-1)))
    return join.cat([first, center, last], d)


def _number(value: Any) -> float:
    return value.item() if isinstance(value, _node.Tensor) else value


def _checked_dims(y: Any, spacing: Any, dim: Any, edge_order: int) -> tuple[int, ...]:
    if isinstance(dim, int):
        dims = normalize_dims(dim, y._data.ndim)
    ndim = y._data.ndim
    if y._data.dtype.name == "uint8":
        raise RuntimeError("torch.gradient does not support uint8 input.")
    listed = isinstance(spacing, (tuple, list))
    if listed and dim is None and len(spacing) != ndim:
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
            f"equal to 'self.dim() = {ndim}', since dim argument was not given, but got a list "
            f"of length {len(spacing)}"
        )
    n_dims = 1 if isinstance(dim, int) else None if dim is None else len(dim)
    if listed and n_dims is not None and len(spacing) != n_dims:
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
            f"arguments to have the same length, but got a spacing argument of length "
            f"{len(spacing)} and a dim argument of length {n_dims}."
        )
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dim is None:
        dims = tuple(range(ndim))
    elif not isinstance(dim, int):
        dims = distinct_dims(normalize_dims(tuple(dim), ndim))
    if any(y.shape[d] < edge_order + 1 for d in dims):
        raise RuntimeError(
            "torch.gradient expected each dimension size to be at least edge_order+1"
        )
    return dims


@parsed("gradient", *_SIGNATURES)
def gradient(
    input: Any,  # noqa: A002 - PyTorch's name
    *,
    spacing: Any = None,
    dim: int | tuple[int, ...] | None = None,
    edge_order: int = 1,
) -> tuple[Any, ...]:
    """The derivative of ``input`` along each dim in ``dim`` (every dim if None), one tensor
    each, with unit spacing, spacing ``h`` (one number or one per dim) or at sample points
    (one 1-D tensor per dim); the ends by one-sided differences of ``edge_order`` 1 or 2.

    >>> import microtorch as torch
    >>> torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]))
    (tensor([3., 4., 6., 7.]),)
    """
    expect_tensor(input, "gradient")
    if isinstance(spacing, str) or isinstance(dim, (float, str)):
        raise TypeError("gradient(): an argument of the wrong type")  # (the parser's text)
    dims = _checked_dims(input, spacing, dim, edge_order)
    if not isinstance(spacing, (tuple, list)):
        spacing = [1.0 if spacing is None else _number(spacing)] * len(dims)
    results = []
    for d, h in zip(dims, spacing):
        if isinstance(h, _node.Tensor):
            results.append(_at_points(input, h, d, edge_order))
        else:
            results.append(_with_spacing(input, h, d, edge_order))
    return tuple(results)

"""Histograms: ``histc`` (counts in equal bins) and ``histogram`` (counts and bin edges).

Both count float values only, as PyTorch's CPU kernels do. A value equal to the last edge
falls into the last bin; values outside the range are not counted.
"""

from __future__ import annotations

import builtins
from collections import namedtuple
from typing import Any

import numpy as np

from microtorch.autograd import node as _node
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._checks import expect_tensor
from microtorch.ops.elementwise import wrap

__all__ = ["histc", "histogram"]


class HistogramResult(namedtuple("histogram", ["hist", "bin_edges"])):
    """What ``torch.histogram`` returns: ``(hist, bin_edges)``, also by name."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (
            f"microtorch.return_types.histogram(\nhist={self.hist!r},\n"
            f"bin_edges={self.bin_edges!r})"
        )


HistogramResult.__name__ = HistogramResult.__qualname__ = "histogram"  # PyTorch's type name


def _floats_only(input: Any, kernel: str) -> None:
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{input._dtype._legacy[: -len('Tensor')]}' (Fix: "
            "count floats, e.g. x.float())"
        )


def _counts(values: np.ndarray, edges: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    # Bin i holds edges[i] <= v < edges[i + 1]; the last bin also holds v == edges[-1].
    inside = (values >= edges[0]) & (values <= edges[-1])
    idx = np.searchsorted(edges, values[inside], side="right") - 1
    idx = np.minimum(idx, len(edges) - 2)
    w = None if weights is None else weights[inside]
    return np.bincount(idx, weights=w, minlength=len(edges) - 1).astype(edges.dtype)


def histc(input: Any, bins: int = 100, min: float = 0, max: float = 0) -> Any:  # noqa: A002
    """Counts of ``input`` in ``bins`` equal bins over [min, max] (min = max: the data's range)."""
    expect_tensor(input, "histc")
    _floats_only(input, "histogram_cpu")
    data = input._data.ravel()
    lo, hi = float(min), float(max)
    if lo == hi and data.size:
        lo, hi = float(data.min()), float(data.max())
    if lo == hi:  # all values equal (or none): PyTorch widens the range by 1 each side
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    dt = data.dtype
    # the bin of each value: (v - lo) * bins / (hi - lo), rounded down, as PyTorch computes it
    pos = ((data - dt.type(lo)) * dt.type(bins) / (dt.type(hi) - dt.type(lo))).astype(np.int64)
    keep = (data >= lo) & (data <= hi)
    counts = np.bincount(np.minimum(pos[keep], bins - 1), minlength=bins).astype(dt)
    return wrap(counts, input._device)


class Histogram(NumpyFunction):
    """(hist, bin_edges) = histogram(a): PyTorch defines no derivative, so backward raises."""

    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, a, edges, weight, density):
        hist = _counts(a.ravel(), edges, None if weight is None else weight.ravel())
        if density:  # counts / (total * bin width): the histogram integrates to 1
            hist = hist / (hist.sum() * np.diff(edges))
        return hist.astype(a.dtype), edges.astype(a.dtype)

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise RuntimeError("derivative for aten::histogram is not implemented")


def histogram(
    input: Any,  # noqa: A002 - PyTorch's name
    bins: Any = 100,
    *,
    range: tuple[float, float] | None = None,  # noqa: A002
    weight: Any = None,
    density: bool = False,
) -> HistogramResult:
    """Counts of ``input`` in ``bins`` (a number of equal bins, or a tensor of edges)."""
    expect_tensor(input, "histogram")
    _floats_only(input, "histogramdd")
    data = input._data
    if isinstance(bins, _node.Tensor):
        edges = bins._data.astype(data.dtype)
    else:
        if range is not None:
            lo, hi = builtins.float(range[0]), builtins.float(range[1])
        elif data.size:
            lo, hi = builtins.float(data.min()), builtins.float(data.max())
        else:
            lo, hi = 0.0, 1.0  # (PyTorch's range for no values)
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5  # (numpy's and PyTorch's widening for equal values)
        edges = np.linspace(lo, hi, int(bins) + 1).astype(data.dtype)
    return HistogramResult(*Histogram.apply(input, edges, weight, bool(density)))

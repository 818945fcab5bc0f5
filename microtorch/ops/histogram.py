"""Histograms: ``histc`` (counts in equal bins) and ``histogram`` (counts and bin edges).

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/histogram.py``.

Both count float values only, as PyTorch's CPU kernels do. A value equal to the last edge
falls into the last bin; values outside the range are not counted.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["HistogramResult", "Histogram", "HistogramddResult", "Histogramdd"]


class HistogramResult(namedtuple("histogram", ["hist", "bin_edges"])):
    """What ``torch.histogram`` returns: ``(hist, bin_edges)``, also by name."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (
            f"microtorch.return_types.histogram(\nhist={self.hist!r},\n"
            f"bin_edges={self.bin_edges!r})"
        )


HistogramResult.__name__ = HistogramResult.__qualname__ = "histogram"  # PyTorch's type name


class HistogramddResult(namedtuple("histogramdd", ["hist", "bin_edges"])):
    """What ``torch.histogramdd`` returns: ``(hist, bin_edges)`` (a tuple of tensors, one
    per dimension), also by name."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (
            f"microtorch.return_types.histogramdd(\nhist={self.hist!r},\n"
            f"bin_edges={self.bin_edges!r})"
        )


HistogramddResult.__name__ = HistogramddResult.__qualname__ = "histogramdd"


def _bins(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    # Bin i holds edges[i] <= v < edges[i + 1]; the last bin also holds v == edges[-1]; -1 for
    # a value outside the edges (or nan)
    idx = np.minimum(np.searchsorted(edges, values, side="right") - 1, len(edges) - 2)
    return np.where((values >= edges[0]) & (values <= edges[-1]), idx, -1)


def _counts(values: np.ndarray, edges: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    idx = _bins(values, edges)
    inside = idx >= 0
    w = None if weights is None else weights[inside]
    return np.bincount(idx[inside], weights=w, minlength=len(edges) - 1).astype(edges.dtype)


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


class Histogramdd(NumpyFunction):
    """(hist, *bin_edges) = histogramdd(a): counts of the rows of ``a`` (points of D
    coordinates) in the boxes the D lists of edges make; PyTorch defines no derivative."""

    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, a, weight, density, aten, *edges):
        ctx.aten = aten
        points = a.reshape(-1, a.shape[-1])  # (N, D)
        shape = tuple(len(e) - 1 for e in edges)
        idx = [_bins(points[:, d], e) for d, e in enumerate(edges)]
        inside = np.all([i >= 0 for i in idx], axis=0) if idx else np.ones(len(points), bool)
        flat = np.ravel_multi_index(tuple(i[inside] for i in idx), shape)
        w = None if weight is None else weight.ravel()[inside]
        hist = np.bincount(flat, weights=w, minlength=int(np.prod(shape))).reshape(shape)
        if density:  # counts / (total * box volume): the histogram integrates to 1
            volume = np.ones(shape)
            for d, e in enumerate(edges):
                widths = np.diff(e).reshape([-1 if k == d else 1 for k in range(len(shape))])
                volume = volume * widths
            hist = hist / (hist.sum() * volume)
        return (hist.astype(a.dtype), *(e.astype(a.dtype) for e in edges))

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise RuntimeError(f"derivative for aten::{ctx.aten} is not implemented")

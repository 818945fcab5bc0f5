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

__all__ = ["HistogramResult", "Histogram"]


class HistogramResult(namedtuple("histogram", ["hist", "bin_edges"])):
    """What ``torch.histogram`` returns: ``(hist, bin_edges)``, also by name."""

    __slots__ = ()

    def __repr__(self) -> str:
        return (
            f"microtorch.return_types.histogram(\nhist={self.hist!r},\n"
            f"bin_edges={self.bin_edges!r})"
        )


HistogramResult.__name__ = HistogramResult.__qualname__ = "histogram"  # PyTorch's type name


def _counts(values: np.ndarray, edges: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    # Bin i holds edges[i] <= v < edges[i + 1]; the last bin also holds v == edges[-1].
    inside = (values >= edges[0]) & (values <= edges[-1])
    idx = np.searchsorted(edges, values[inside], side="right") - 1
    idx = np.minimum(idx, len(edges) - 2)
    w = None if weights is None else weights[inside]
    return np.bincount(idx, weights=w, minlength=len(edges) - 1).astype(edges.dtype)


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

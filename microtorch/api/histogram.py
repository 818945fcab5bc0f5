"""Histograms: ``histc`` (counts in equal bins) and ``histogram`` (counts and bin edges).

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/histogram.py``.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.operands import wrap
from microtorch.autograd import node as _node
from microtorch.ops.histogram import Histogram, HistogramResult

__all__ = ["histc", "histogram"]


def _floats_only(input: Any, kernel: str) -> None:
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{input._dtype._legacy[: -len('Tensor')]}' (Fix: "
            "count floats, e.g. x.float())"
        )


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

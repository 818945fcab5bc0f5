"""Histograms: ``histc`` (counts in equal bins), ``histogram`` (counts and bin edges) and
``histogramdd`` (counts of points in the boxes of a grid, and its edges).

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/histogram.py``.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_int, parsed
from microtorch.api.operands import wrap
from microtorch.autograd import node as _node
from microtorch.ops.histogram import Histogram, Histogramdd, HistogramddResult, HistogramResult

__all__ = ["histc", "histogram", "histogramdd"]


def _floats_only(input: Any, kernel: str) -> None:
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{input._dtype._legacy[: -len('Tensor')]}' (Fix: "
            "count floats, e.g. x.float())"
        )


@parsed(
    "histc",
    "Tensor input, int bins=100, Number min=0, Number max=0, *, Tensor out=None",
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


@parsed(
    "histogram",
    "Tensor input, Tensor bins, *, Tensor weight=None, bool density=False, "
    "tuple of Tensors out=None",
    "Tensor input, int bins=100, *, tuple of floats range=None, Tensor weight=None, "
    "bool density=False, tuple of Tensors out=None",
)
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
        expect_int(bins, "bins")  # (the parser's cue)
        if range is not None:
            lo, hi = builtins.float(range[0]), builtins.float(range[1])
        elif data.size:
            lo, hi = builtins.float(data.min()), builtins.float(data.max())
        else:
            lo, hi = 0.0, 1.0  # (PyTorch's range for no values)
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5  # (numpy's and PyTorch's widening for equal values)
        edges = _even_edges(lo, hi, int(bins) + 1).astype(data.dtype)
    return HistogramResult(*Histogram.apply(input, edges, weight, bool(density)))


def _even_edges(lo: float, hi: float, count: int) -> np.ndarray:
    """``count`` edges from ``lo`` to ``hi`` where PyTorch's linspace puts them: the first half
    counted up from ``lo``, the rest down from ``hi`` (np.linspace's middle edges can be an ulp
    off, and a value on an edge then falls in the other bin)."""
    step = (hi - lo) / (count - 1) if count > 1 else 0.0
    k = np.arange(count)
    return np.where(k < count // 2, lo + k * step, hi - (count - 1 - k) * step)


def _histogramdd_checks(input: Any, bins: Any, range: Any, weight: Any) -> None:  # noqa: A002
    if input._data.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = input.shape[-1]
    if len(bins) != n:
        raise RuntimeError(
            "histogramdd: The size of bins must be equal to the innermost dimension of the input."
        )
    for d, b in enumerate(bins):
        if isinstance(b, _node.Tensor):
            if b._dtype is not input._dtype:
                raise RuntimeError(
                    "torch.histogramdd: input tensor and bins tensors should have the same "
                    f"dtype, but got input with dtype {_c_name(input)} and bins for dimension "
                    f"{d} with dtype {_c_name(b)}"
                )
            if b._data.size == 0:
                raise RuntimeError(
                    "torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                    f"elements in the bins tensor for dimension {d}"
                )
        elif b == 0:
            raise RuntimeError(
                f"torch.histogram(): bins must be > 0, but got {b} for dimension {d}"
            )
        elif b < 0:  # (PyTorch makes b + 1 edges, then finds none)
            raise RuntimeError(
                "torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                f"elements in the bins tensor for dimension {d}"
            )
    if weight is not None:
        if weight._dtype is not input._dtype:
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
                f"should have the same dtype, but got input({_c_name(input)}), and "
                f"weight({_c_name(weight)})"
            )
        if tuple(weight.shape) != tuple(input.shape[:-1]):
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided it should have the same shape "
                "as the input tensor excluding its innermost dimension, but got input with "
                f"shape {list(input.shape)} and weight with shape {list(weight.shape)}"
            )
    if range is not None:
        if len(range) != 2 * n:
            raise RuntimeError(
                f"torch.histogramdd: for a {n}-dimensional histogram range should have {2 * n} "
                f"elements, but got {len(range)}"
            )
        for d in builtins.range(n):
            if range[2 * d] > range[2 * d + 1]:
                raise RuntimeError(
                    f"torch.histogramdd: min should not exceed max, but got min "
                    f"{range[2 * d]:g} max {range[2 * d + 1]:g} for dimension {d}"
                )


def _if_grad(weight: Any) -> Any:
    # the weights as an input of the node only if they require grad (as PyTorch's edges)
    return weight if weight is None or weight.requires_grad else weight._data


def _c_name(t: Any) -> str:
    return {"float32": "float", "float64": "double", "float16": "c10::Half"}.get(
        t._dtype.name, t._dtype.name
    )


def histogramdd(
    input: Any,  # noqa: A002 - PyTorch's name
    bins: Any = 10,
    range: Any = None,  # noqa: A002 - (by position too, as PyTorch's Python function takes it)
    weight: Any = None,
    density: bool = False,
) -> HistogramddResult:
    """Counts of the rows of ``input`` (points of ``input.shape[-1]`` coordinates) in the
    boxes of a D-dimensional grid: ``bins`` a number of equal bins (for every dimension or
    one per dimension) or one tensor of edges per dimension."""
    expect_tensor(input, "histogramdd")
    _floats_only(input, "histogramdd")
    if isinstance(bins, int):
        bins = [bins] * (input.shape[-1] if input._data.ndim else 1)
    ints = all(isinstance(b, int) and not isinstance(b, bool) for b in bins)
    if not ints:
        for i, b in enumerate(bins):
            if not isinstance(b, _node.Tensor):
                raise TypeError(
                    f"expected Tensor as element {i} in argument 1, but got {type(b).__name__}"
                )
    _histogramdd_checks(input, bins, range, weight)
    if not ints:
        # (PyTorch's node has an edge for each input that requires grad, none for the others)
        edge_args = [b if b.requires_grad else b._data for b in bins]
        hist, *_ = Histogramdd.apply(
            input, _if_grad(weight), bool(density), "_histogramdd_from_bin_tensors", *edge_args
        )
        return HistogramddResult(hist, tuple(bins))
    points = input._data.reshape(-1, input.shape[-1])
    edges = []
    for d, b in enumerate(bins):
        if range is not None:
            lo, hi = builtins.float(range[2 * d]), builtins.float(range[2 * d + 1])
        elif points.size:
            lo, hi = builtins.float(points[:, d].min()), builtins.float(points[:, d].max())
        else:
            lo, hi = 0.0, 1.0  # (PyTorch's range for no values)
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5  # (PyTorch's widening for equal values)
        edges.append(_even_edges(lo, hi, b + 1).astype(input._data.dtype))
    hist, *bin_edges = Histogramdd.apply(
        input, _if_grad(weight), bool(density), "_histogramdd_from_bin_cts", *edges
    )
    return HistogramddResult(hist, tuple(bin_edges))

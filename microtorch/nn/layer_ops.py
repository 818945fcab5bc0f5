"""The ``Function``s behind the layers that the core ops do not cover: embedding lookup,
leaky ReLU, GELU, constant padding, nearest upsampling, clamp_min and xlogy (for
``normalize`` and ``kl_div``), the recurrent layers' ``unsafe_chunk`` and ``transpose_``,
and the scalar forms PyTorch records inside ``linear`` and ``cross_entropy`` (from
``ops/scalar.py``).

Each op's forward and backward take numpy arrays (``NumpyFunction``), as in the core.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.formula_values import recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import follow_inputs
from microtorch.ops.join import Split
from microtorch.ops.scalar import DivScalar, MulScalar
from microtorch.ops.shape import SqueezeDim, Transpose
from microtorch.ops.special import erf64

__all__ = [
    "Embedding", "LeakyRelu", "LeakyRelu_", "Gelu", "MulScalar", "DivScalar",
    "SqueezeDims", "ConstantPadNd", "Xlogy", "nearest_indices", "UpsampleNearest2d",
    "UpsampleNearest1d", "UnsafeSplit",
    "TransposeInPlace",
]  # fmt: skip


SCALED_TWICE = (
    "embedding(scale_grad_by_freq=True) has no second derivative in microtorch: PyTorch "
    "2.13's (EmbeddingDenseBackwardBackward0) leaves the 1 / count scaling out, so a correct "
    "value would differ from PyTorch's (Fix: scale_grad_by_freq=False for gradients of gradients)"
)


class Embedding(NumpyFunction):
    """z = weight[indices] (row lookup), so dL/dweight[i] = the sum of the gradients of every
    position that looked up row i; the ``padding_idx`` row gets none. With
    ``scale_grad_by_freq``, each position's gradient is first multiplied by 1 / (how many
    times ``indices`` holds its row)."""

    node_name = "EmbeddingBackward0"
    double_backward_name = "EmbeddingDenseBackwardBackward0"

    ctx_fields = ("shape", "padding_idx", "scale")

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq=False):
        ctx.save_for_backward(indices)
        ctx.shape, ctx.padding_idx, ctx.scale = weight.shape, padding_idx, None
        if scale_grad_by_freq:  # 1 / how often each position's row is looked up
            rows = indices.reshape(-1)
            counts = np.bincount(rows, minlength=weight.shape[0])
            ctx.scale = (1 / counts[rows, None]).astype(weight.dtype)
        return weight[indices]

    @staticmethod
    def backward(ctx, grad_output):
        (indices,) = ctx.saved_tensors
        rows, row_size = ctx.shape[0], math.prod(ctx.shape[1:])
        grads = grad_output.reshape(-1, row_size)
        if ctx.scale is not None:
            if recorded(grad_output):  # (a second derivative: create_graph=True)
                raise NotImplementedError(SCALED_TWICE)
            grads = grads * ctx.scale
        grad = np.zeros_like(grad_output, shape=rows * row_size)
        # np.add.at adds once per occurrence: a row used twice gets both gradients. (On the
        # flat gradient, one place per element: numpy's fast loop for one index per value.)
        places = indices.reshape(-1, 1) * np.intp(row_size) + np.arange(row_size)
        np.add.at(grad, places.reshape(-1), grads.reshape(-1))
        grad = grad.reshape(ctx.shape)
        if ctx.padding_idx is not None:
            grad[ctx.padding_idx] = 0
        return grad


class LeakyRelu(NumpyFunction):
    """z = a if a > 0 else slope * a, so dz/da = 1 where a > 0, else slope."""

    node_name = "LeakyReluBackward0"
    double_backward_name = "LeakyReluBackwardBackward0"

    @staticmethod
    def forward(ctx, a, slope):
        positive = a > 0
        ctx.positive, ctx.slope = positive, slope
        ctx.save_for_backward(a)  # (only checked, as PyTorch saves and checks it)
        return np.where(positive, a, a * np.asarray(slope, a.dtype))

    @staticmethod
    def backward(ctx, grad_output):
        ctx.saved_tensors  # noqa: B018 - raises if a changed since, or backward freed it
        slope = np.asarray(ctx.slope, grad_output.dtype)
        return np.where(ctx.positive, grad_output, grad_output * slope)


class LeakyRelu_(LeakyRelu):  # noqa: N801 - PyTorch's trailing underscore for in place
    """The in-place form (``leaky_relu(x, inplace=True)``), recorded as ``LeakyReluBackward1``;
    it saves its result where the other saves its input, as PyTorch's does."""

    node_name = "LeakyReluBackward1"
    double_backward_name = "LeakyReluBackwardBackward0"

    @staticmethod
    def forward(ctx, a, slope):
        positive = a > 0
        ctx.positive, ctx.slope = positive, slope
        result = np.where(positive, a, a * np.asarray(slope, a.dtype))
        ctx.save_for_backward(result)
        return result


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_KAPPA = 0.044715


class Gelu(NumpyFunction):
    """z = a * Phi(a), Phi the standard normal CDF, Phi(a) = (1 + erf(a / sqrt(2))) / 2, so
    dz/da = Phi(a) + a * phi(a) with phi(a) = exp(-a**2 / 2) / sqrt(2 pi).

    ``approximate='tanh'``: z = a / 2 * (1 + tanh(u)), u = sqrt(2 / pi) (a + 0.044715 a**3),
    so dz/da = (1 + tanh(u)) / 2 + a / 2 * (1 - tanh(u)**2) * sqrt(2 / pi) (1 + 3 * 0.044715 a**2).
    Computed in float64 and rounded to the input's dtype.
    """

    node_name = "GeluBackward0"
    double_backward_name = "GeluBackwardBackward0"

    ctx_fields = ("approximate",)

    @staticmethod
    def forward(ctx, a, approximate):
        ctx.save_for_backward(a)
        ctx.approximate = approximate
        x = a.astype(np.float64)
        if approximate == "tanh":
            z = 0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + _KAPPA * x * x * x)))
        else:
            z = 0.5 * x * (1 + erf64(x * math.sqrt(0.5)))
        return follow_inputs(z.astype(a.dtype), a)  # (erf's result is row-major: not a's)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        x = a.astype(np.float64)
        if ctx.approximate == "tanh":
            t = np.tanh(_SQRT_2_OVER_PI * (x + _KAPPA * x * x * x))
            slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _SQRT_2_OVER_PI * (
                1 + 3 * _KAPPA * x * x
            )
        else:
            cdf = 0.5 * (1 + erf64(x * math.sqrt(0.5)))
            slope = cdf + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        return (grad_output * slope).astype(grad_output.dtype)


class SqueezeDims(SqueezeDim):
    """z = a without the listed size-1 dims (``squeeze.dims``, as ``linear`` on a vector
    records it): the gradient gets them back."""

    node_name = "SqueezeBackward4"


class ConstantPadNd(NumpyFunction):
    """z = a with ``value`` around it (``pad`` = (left, right) per dim, last dim first; a
    negative width crops), so dz/da = the gradient's middle, where a sits."""

    node_name = "ConstantPadNdBackward0"

    ctx_fields = ("widths", "shape")

    @staticmethod
    def forward(ctx, a, pad, value):
        ndim = a.ndim
        widths = [(0, 0)] * ndim
        for i in range(len(pad) // 2):
            widths[ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
        grow = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
        out = np.pad(a, grow, constant_values=np.asarray(value).astype(a.dtype))
        # a negative width removes entries at that side
        keep = tuple(slice(-min(lo, 0), out.shape[d] + min(hi, 0))
                     for d, (lo, hi) in enumerate(widths))  # fmt: skip
        ctx.widths = widths
        ctx.shape = a.shape
        return np.ascontiguousarray(out[keep])

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        inner, outer = [], []
        for (lo, hi), n in zip(ctx.widths, ctx.shape):
            # a's index range [-min(lo, 0), n + min(hi, 0)) sits at [max(lo, 0), ...) in z
            start, stop = -min(lo, 0), n + min(hi, 0)
            inner.append(slice(start, stop))
            outer.append(slice(max(lo, 0), max(lo, 0) + max(stop - start, 0)))
        grad[tuple(inner)] = grad_output[tuple(outer)]
        return grad


class Xlogy(NumpyFunction):
    """z = x log(y) (0 where x = 0), so dz/dx = log(y) (0 where x = 0) and dz/dy = x / y."""

    node_name = "XlogyBackward0"

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return np.where((x == 0) & ~np.isnan(y), np.zeros((), x.dtype), x * np.log(y))

    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        gx = np.where(x != 0, np.log(y), np.zeros((), x.dtype)) * grad_output
        return gx, x / y * grad_output


def nearest_indices(n_in: int, n_out: int, scale: float | None) -> np.ndarray:
    """For each output position, the input position nearest upsampling copies: PyTorch's
    floor(i * s) in float32, s = 1 / scale_factor (or n_in / n_out), at most n_in - 1."""
    if n_out == n_in:
        return np.arange(n_out)
    if n_out == 2 * n_in:
        return np.arange(n_out) >> 1
    s = np.float32(1.0 / scale) if scale else np.float32(n_in) / np.float32(n_out)
    picked = np.floor(np.arange(n_out, dtype=np.float32) * s).astype(np.int64)
    return np.minimum(picked, n_in - 1)


class UpsampleNearest2d(NumpyFunction):
    """z[..., i, j] = a[..., r[i], c[j]] (nearest neighbours), so dL/da[..., p, q] = the sum of
    the gradients of every output position that copied it."""

    node_name = "UpsampleNearest2DBackward0"
    double_backward_name = "UpsampleNearest2DBackwardBackward0"

    ctx_fields = ("index", "shape")

    @staticmethod
    def forward(ctx, a, index):
        ctx.index, ctx.shape = index, a.shape
        return a[(Ellipsis,) + np.ix_(*index)]

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        np.add.at(grad, (Ellipsis,) + np.ix_(*ctx.index), grad_output)
        return grad


class UpsampleNearest1d(UpsampleNearest2d):
    """The same along one dimension (``(N, C, L)`` inputs)."""

    node_name = "UpsampleNearest1DBackward0"
    double_backward_name = "UpsampleNearest1DBackwardBackward0"


class UnsafeSplit(Split):
    """``unsafe_chunk``'s pieces (the recurrent layers' gates): a split whose pieces are not
    views of the input; the gradient pieces are joined back."""

    node_name = "UnsafeSplitBackward0"


class TransposeInPlace(Transpose):
    """``transpose_`` (``batch_first`` recurrent layers turn their output back in place):
    the gradient is swapped back."""

    node_name = "TransposeBackward1"

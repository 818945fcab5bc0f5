"""The ``Function``s behind fractional max pooling (Graham, 2014): ``FractionalMaxPool2DBackward0``
and ``FractionalMaxPool3DBackward0``, and where each window is and where its maximum is.

Along a dim of input size n, output size m and kernel k, window i starts at

    start[i] = int((i + u) * alpha) - int(u * alpha),    alpha = (n - k) / (m - 1)

for i < m - 1, and the last one at n - k: steps of floor(alpha) or ceil(alpha) in a random
order fixed by the sample u (one per plane and dim), computed in the input's dtype as
PyTorch computes it. The gradient is max pooling's: each output's goes to its window's winner.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = [
    "interval_starts",
    "fractional_max_indices",
    "FractionalMaxPool2D",
    "FractionalMaxPool3D",
]

INT_MIN = -(2**31)


def _int(v: np.ndarray) -> np.ndarray:
    # C's (int) cast as x86 does it: toward zero, and INT_MIN for NaN, inf or out of range
    wide = v.astype(np.float64)  # (exact; 2**31 does not fit in float16)
    ok = np.isfinite(wide) & (np.abs(wide) < 2.0**31)
    return np.where(ok, np.trunc(np.where(ok, wide, 0)), INT_MIN).astype(np.int64)


def interval_starts(u: np.ndarray, size: int, out: int, kernel: int) -> np.ndarray:
    """Each window's first input position, ``(B, out)``, from one sample per plane ``(B,)``."""
    starts = np.full((u.shape[0], out), size - kernel, np.int64)  # (the last window's)
    if out > 1:
        one = u.dtype.type
        alpha = one(size - kernel) / one(out - 1)
        i = np.arange(out - 1).astype(u.dtype)
        starts[:, :-1] = _int((i + u[:, None]) * alpha) - _int(u * alpha)[:, None]
    # In range for any finite sample of moderate size; a huge one overflows PyTorch's int
    # (it then reads outside the input): kept inside here.
    return np.clip(starts, 0, max(size - kernel, 0))


def fractional_max_indices(
    x: np.ndarray, kernel: tuple[int, ...], out: tuple[int, ...], samples: np.ndarray
) -> np.ndarray:
    """Where each window's maximum is, as a flat position in its plane (``h * W + w``, or
    ``(t * H + h) * W + w``), shape ``(..., *out)``. ``samples`` is ``(B, dims)`` in the
    order the dims come (T, H, W). PyTorch's scan: a value wins if larger than the best so far,
    or NaN, so ties go to the first position and a window holding NaN reports its last NaN."""
    n = len(kernel)
    size = x.shape[-n:]
    planes = x.reshape(-1, math.prod(size))  # (B, P)
    b = planes.shape[0]
    if b == 0 or 0 in out:
        return np.zeros((*x.shape[:-n], *out), np.int64)  # (no window)
    starts = [interval_starts(samples[:, d], size[d], out[d], kernel[d]) for d in range(n)]

    def flat(at: list[np.ndarray]) -> np.ndarray:  # (B, *out) positions in each plane
        index = np.zeros((b,) + (1,) * n, np.int64)
        for d, p in enumerate(at):
            shape = [b] + [1] * n
            shape[1 + d] = out[d]
            index = index * size[d] + p.reshape(shape)
        return np.broadcast_to(index, (b, *out))

    index = flat(starts).copy()
    best = np.full((b, *out), -np.inf, x.dtype)
    for offset in np.ndindex(*kernel):
        at = flat([s + k for s, k in zip(starts, offset)])
        value = np.take_along_axis(planes, at.reshape(b, -1), axis=1).reshape(at.shape)
        wins = (value > best) | np.isnan(value)
        best = np.where(wins, value, best)
        index = np.where(wins, at, index)
    return index.reshape(*x.shape[:-n], *out)


class FractionalMaxPool2D(NumpyFunction):
    """y[..., o] = x[..., idx[o]] (each window's maximum), so the gradient of each output goes
    to the one input position that won its window (summed where windows share a winner)."""

    node_name = "FractionalMaxPool2DBackward0"
    double_backward_name = "FractionalMaxPool2DBackwardBackward0"
    dims = 2
    index_check = "index >= 0 && index < static_cast<int64_t>(inputW) * inputH"
    source = 'FractionalMaxPool2d.cpp":240'

    @classmethod
    def forward(cls, ctx, x, index, empty):
        ctx.save_for_backward(x, index)  # (x for its shape)
        if empty:  # a kernel size of 0: no window holds a value (PyTorch's start, -inf)
            return np.full(index.shape, -np.inf, x.dtype)
        lead, n = x.shape[: x.ndim - cls.dims], cls.dims
        planes = x.reshape(math.prod(lead), math.prod(x.shape[-n:]))  # (B, P)
        picks = index.reshape(planes.shape[0], math.prod(index.shape[-n:]))  # (B, Q)
        return np.take_along_axis(planes, picks, axis=1).reshape(index.shape)

    @classmethod
    def backward(cls, ctx, grad_output):
        x, index = ctx.saved_tensors
        b = math.prod(x.shape[: x.ndim - cls.dims])
        per = math.prod(x.shape[x.ndim - cls.dims :])
        if index.size and (index.min() < 0 or index.max() >= per):  # (only a kernel of 0)
            raise RuntimeError(
                f'{cls.index_check} INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/'
                f"ATen/native/{cls.source}, please report a bug to PyTorch. "
            )
        picks = index.reshape(b, math.prod(index.shape[x.ndim - cls.dims :]))
        flat = (picks + np.arange(b)[:, None] * per).ravel()
        grad = np.zeros_like(grad_output, shape=(b * per,))
        np.add.at(grad, flat, grad_output.ravel())  # (twice where windows share a winner)
        return grad.reshape(x.shape)


class FractionalMaxPool3D(FractionalMaxPool2D):
    """``FractionalMaxPool2D`` over volumes (T, H, W)."""

    node_name = "FractionalMaxPool3DBackward0"
    double_backward_name = "FractionalMaxPool3DBackwardBackward0"
    dims = 3
    index_check = "index >= 0 && index < inputT * inputH * inputW"
    source = 'FractionalMaxPool3d.cpp":280'

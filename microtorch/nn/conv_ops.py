"""The ``Function``s behind convolution and pooling: ``ConvolutionBackward0``,
``ConstantPadNdBackward0``, ``MaxPool2DWithIndicesBackward0``, ``AvgPool2DBackward0`` and
``AdaptiveAvgPool2DBackward0``, as PyTorch records them on the CPU.

Every forward looks at its input through strided windows: ``windows(x, kernel, stride,
dilation)`` is a view (``np.lib.stride_tricks.as_strided``, no copy) whose element
``[n, c, o1, o2, k1, k2]`` is ``x[n, c, o1*s1 + k1*d1, o2*s2 + k2*d2]``. A convolution is then
one matrix product of those windows with the weight (im2col), a pooling a reduction over the
window axes. No Python loop runs over pixels; the backward passes that scatter a gradient
back into overlapping windows loop over the few kernel offsets only.

The ops take arguments already checked and expanded by ``conv_functions.py`` (stride,
padding and dilation as one int per spatial dim).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from numpy.lib.stride_tricks import as_strided

from microtorch.autograd.function import NumpyFunction
from microtorch.autograd.node import gradient_edge

__all__ = [
    "windows", "conv_out_size", "pool_out_size", "Convolution", "ConstantPadNd",
    "MaxPool2DWithIndices", "max_pool2d_indices", "AvgPool2D", "AdaptiveAvgPool2D",
    "OptionalInputs",
]  # fmt: skip


class OptionalInputs(NumpyFunction):
    """A ``NumpyFunction`` whose graph edges are the arguments at ``edges``, each a tensor or
    ``None``: PyTorch records an edge for an optional tensor left out (``bias=None``), so
    ``next_functions`` reads ``(AccumulateGrad, AccumulateGrad, None)`` for a convolution
    without bias. ``backward`` returns one gradient per edge (``None`` for a missing one)."""

    edges: tuple[int, ...] = (0,)

    @classmethod
    def connect(cls, node: Any, args: tuple[Any, ...], inputs: list[Any]) -> None:
        nodes: list[Any] = []
        nrs: list[int] = []
        needs: list[bool] = []
        for i in cls.edges:
            t = args[i]
            if t is None or not t._dtype.is_floating_point:
                nodes.append(None)
                nrs.append(0)
                needs.append(False)
            else:
                nodes.append(gradient_edge(t))
                nrs.append(t._output_nr)
                needs.append(t._rg)
        node._next_nodes, node._next_nrs = tuple(nodes), tuple(nrs)
        node.needs_input_grad = tuple(needs)


def conv_out_size(size: int, kernel: int, stride: int, padding: int, dilation: int) -> int:
    """floor((size + 2 padding - dilation (kernel - 1) - 1) / stride) + 1."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def pool_out_size(
    size: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool
) -> int:
    """PyTorch's pooling output size: as a convolution's, rounded up with ``ceil_mode``,
    where the last window must still start inside the input or its left padding."""
    extra = stride - 1 if ceil_mode else 0
    out = (size + 2 * padding - dilation * (kernel - 1) - 1 + extra) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def windows(
    x: np.ndarray, kernel: tuple[int, ...], stride: tuple[int, ...], dilation: tuple[int, ...],
    out: tuple[int, ...] | None = None,
) -> np.ndarray:  # fmt: skip
    """A read-only view of ``x`` (``(..., *spatial)``) of shape ``(..., *out, *kernel)``:
    ``[..., o, k] = x[..., o * stride + k * dilation]`` per spatial dim."""
    nd = len(kernel)
    lead, spatial = x.shape[:-nd], x.shape[-nd:]
    if out is None:
        out = tuple(
            (n - d * (k - 1) - 1) // s + 1 for n, k, s, d in zip(spatial, kernel, stride, dilation)
        )
    steps = x.strides[-nd:]
    shape = lead + tuple(out) + tuple(kernel)
    strides = (
        x.strides[:-nd]
        + tuple(a * s for a, s in zip(steps, stride))
        + tuple(a * d for a, d in zip(steps, dilation))
    )
    return as_strided(x, shape, strides, writeable=False)


def _pad(
    x: np.ndarray, before: tuple[int, ...], after: tuple[int, ...], value: Any = 0
) -> np.ndarray:
    # Pad the trailing len(before) dims with value (a copy); no padding: x itself.
    if not any(before) and not any(after):
        return x
    nd = len(before)
    spatial = x.shape[-nd:]
    padded = np.full_like(x, value, shape=x.shape[:-nd] + _padded(spatial, before, after))
    padded[(Ellipsis,) + _inside(before, spatial)] = x
    return padded


def _padded(
    size: tuple[int, ...], before: tuple[int, ...], after: tuple[int, ...]
) -> tuple[int, ...]:
    return tuple(b + n + a for n, b, a in zip(size, before, after))


def _inside(before: tuple[int, ...], size: tuple[int, ...]) -> tuple[slice, ...]:
    # Where the input lies in its padded copy.
    return tuple(slice(b, b + n) for b, n in zip(before, size))


def _crop(g: np.ndarray, before: tuple[int, ...], size: tuple[int, ...]) -> np.ndarray:
    # The inverse of _pad for a gradient: the part that lies over the input, copied (laid out
    # row by row, as PyTorch's gradients are), or g itself where nothing was padded.
    if not any(before) and g.shape[-len(size) :] == tuple(size):
        return g
    return g[(Ellipsis,) + _inside(before, size)].copy()


def _offsets(
    kernel: tuple[int, ...], stride: tuple[int, ...], dilation: tuple[int, ...],
    out: tuple[int, ...],
) -> Iterator[tuple[tuple[int, ...], tuple[slice, ...]]]:  # fmt: skip
    """Each kernel offset ``k`` with the slices of the (padded) input that hold
    ``x[o * stride + k * dilation]`` for every output position ``o`` at once."""
    for k in np.ndindex(*kernel):
        where = tuple(
            slice(ki * d, ki * d + s * (o - 1) + 1, s)
            for ki, d, s, o in zip(k, dilation, stride, out)
        )
        yield k, where


def _sum_windows(
    xp: np.ndarray, kernel: tuple[int, ...], stride: tuple[int, ...],
    out: tuple[int, ...],
) -> np.ndarray:  # fmt: skip
    """Each window's sum, ``(..., *out)``: one strided slice of ``xp`` added per kernel
    offset, none per pixel (what ``_scatter_windows`` undoes)."""
    keep = (slice(None),) * (xp.ndim - len(kernel))
    total = np.zeros(xp.shape[: -len(kernel)] + tuple(out), xp.dtype)
    for _, where in _offsets(kernel, stride, (1,) * len(kernel), out):
        total += xp[keep + where]
    return total


def _scatter_windows(
    gwin: np.ndarray, padded: tuple[int, ...], stride: tuple[int, ...],
    dilation: tuple[int, ...],
) -> np.ndarray:  # fmt: skip
    """The adjoint of ``windows``: ``gwin`` is ``(..., *kernel, *out)``; each window's values
    are added back where they were read from, into an array of the padded input's shape
    (``(..., *padded)``). One slice-add per kernel offset, none per pixel."""
    nd = len(padded)
    kernel, out = gwin.shape[-2 * nd : -nd], gwin.shape[-nd:]
    lead = gwin.shape[: -2 * nd]
    grad = np.zeros_like(gwin, shape=lead + tuple(padded))
    keep = (slice(None),) * len(lead)
    for k, where in _offsets(kernel, stride, dilation, out):
        grad[keep + where] += gwin[keep + k]
    return grad


def _im2col(
    xp: np.ndarray, kernel: tuple[int, ...], stride: tuple[int, ...],
    dilation: tuple[int, ...], groups: int,
) -> tuple[np.ndarray, tuple[int, ...]]:  # fmt: skip
    """The windows of the padded input as one matrix per sample and group:
    ``cols[n, g, (c, k), p] = xp[n, g * C/groups + c, p * stride + k * dilation]``. Kernel
    offsets come before positions, so the copy reads whole rows of the image at a time."""
    nd = len(kernel)
    n, c = xp.shape[:2]
    if isinstance(xp, np.ndarray):
        view = windows(xp, kernel, stride, dilation)  # (N, C, *out, *kernel), no copy
        out = view.shape[2 : 2 + nd]
        kernel_first = view.transpose(0, 1, *range(2 + nd, 2 + 2 * nd), *range(2, 2 + nd))
    else:  # create_graph=True: a recorded tensor has no strides to view it through, so the
        # same values come from one strided slice per kernel offset, stacked (N, C, K, *out)
        out = tuple(
            (s - d * (k - 1) - 1) // st + 1
            for s, k, st, d in zip(xp.shape[2:], kernel, stride, dilation)
        )
        every = (slice(None), slice(None))
        offsets = _offsets(kernel, stride, dilation, out)
        kernel_first = np.stack([xp[every + where] for _, where in offsets], axis=2)
    per_row = c // groups * math.prod(kernel)
    cols = kernel_first.reshape(n, groups, per_row, math.prod(out))  # the one copy
    return cols, out


class Convolution(OptionalInputs):
    """y[n, o, p] = b[o] + sum over c, k of w[o, c, k] * x_pad[n, g(o) C/G + c, p s + k d]

    for output position p, kernel offset k, stride s, dilation d, and group g(o) of output
    channel o (each group of output channels sees its own C/G input channels). Computed as a
    matrix product of the weight with the input's windows (im2col), so

        dL/dw[o, c, k] = sum over n, p of dL/dy[n, o, p] * x_pad[n, g(o) C/G + c, p s + k d]
        dL/dx_pad[n, c, q] = sum over o, and p, k with p s + k d = q, of dL/dy[n, o, p] w[o, c, k]
        dL/db[o] = sum over n, p of dL/dy[n, o, p]

    The input gradient is the forward read backwards: for each kernel offset k, the windows
    read x_pad at p s + k d, so w[:, :, k]^T @ dL/dy is added back there (one matrix product
    and one slice per kernel offset, none per pixel).
    """

    node_name = "ConvolutionBackward0"
    double_backward_name: ClassVar[str | None] = "ConvolutionBackwardBackward0"
    edges = (0, 1, 2)

    ctx_fields = ("stride", "padding", "dilation", "groups")

    @staticmethod
    def forward(ctx, x, w, b, stride, padding, dilation, groups):
        ctx.save_for_backward(x, w)
        ctx.stride, ctx.padding, ctx.dilation, ctx.groups = stride, padding, dilation, groups
        co, nd = w.shape[0], w.ndim - 2
        cols, out = _im2col(_pad(x, padding, padding), w.shape[2:], stride, dilation, groups)
        wm = w.reshape(groups, co // groups, -1)  # (G, Co/G, C/G * K)
        y = np.matmul(wm, cols).reshape(x.shape[0], co, *out)  # (N, G, Co/G, P) is (N, Co, *out)
        if b is not None:
            y += b.reshape(co, *(1,) * nd)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        x, w = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        stride, padding, dilation, groups = ctx.stride, ctx.padding, ctx.dilation, ctx.groups
        n, co, *out = grad_output.shape
        nd, kernel = len(out), w.shape[2:]
        gm = grad_output.reshape(n, groups, co // groups, math.prod(out))  # (N, G, Co/G, P)
        gx = gw = gb = None
        if need_w:  # dL/dw = dL/dy @ cols^T, summed over the batch
            cols, _ = _im2col(_pad(x, padding, padding), kernel, stride, dilation, groups)
            gw = np.matmul(gm, cols.swapaxes(-1, -2)).sum(axis=0).reshape(w.shape)
        if need_x:  # per kernel offset k: w[:, :, k]^T @ dL/dy, added where k's windows read
            gxp = np.zeros_like(x, shape=(n, x.shape[1], *_padded(x.shape[2:], padding, padding)))
            every = (slice(None), slice(None))  # all (output or input) channels, all samples
            for k, where in _offsets(kernel, stride, dilation, out):
                wk = w[every + k].reshape(groups, co // groups, -1)
                share = np.matmul(wk.swapaxes(-1, -2), gm)  # (N, G, C/G, P)
                gxp[every + where] += share.reshape(n, x.shape[1], *out)
            gx = _crop(gxp, padding, x.shape[2:])
        if need_b:
            gb = grad_output.sum(axis=(0, *range(2, 2 + nd)))
        return gx, gw, gb


class ConstantPadNd(NumpyFunction):
    """y = x with ``before[i]`` / ``after[i]`` zeros added on either side of its last dims,
    so dL/dx = dL/dy cropped back to x (what ``padding='same'`` records for an even kernel)."""

    node_name = "ConstantPadNdBackward0"

    ctx_fields = ("before", "size")

    @staticmethod
    def forward(ctx, x, before, after):
        ctx.before, ctx.size = before, x.shape[-len(before) :]
        padded = _pad(x, before, after)
        return padded.copy() if padded is x else padded

    @staticmethod
    def backward(ctx, grad_output):
        return _crop(grad_output, ctx.before, ctx.size)  # (it always crops: a copy)


def _flat_planes(x: np.ndarray) -> np.ndarray:
    # (..., H, W) -> (B, H, W): pooling treats every leading index alike.
    return x.reshape(-1, *x.shape[-2:])


def _first_inside(start: np.ndarray, step: int) -> np.ndarray:
    # The first of start, start + step, start + 2 step ... that is not negative.
    return start + -(-np.maximum(-start, 0) // step) * step


def max_pool2d_indices(
    x: np.ndarray, kernel: tuple[int, int], stride: tuple[int, int], padding: tuple[int, int],
    dilation: tuple[int, int], out: tuple[int, int],
) -> np.ndarray:  # fmt: skip
    """Where each window's maximum is, as PyTorch reports it: ``h * W + w`` within its
    (unpadded) plane, shape ``(..., OH, OW)``. PyTorch's loop, run for every window at once,
    one kernel offset at a time: a value wins if it is larger than the best so far or NaN. So
    ties go to the first position, a window holding NaN reports its last NaN, and one whose
    values are all the lowest (``-inf``) its first position inside the input."""
    (ph, pw), (dh, dw), (oh, ow) = padding, dilation, out
    planes = _flat_planes(x)
    h, w = planes.shape[1:]
    # pad with the lowest value, which never wins, far enough right for every (ceil_mode) window
    need = [(o - 1) * s + d * (k - 1) + 1 for o, s, d, k in zip(out, stride, dilation, kernel)]
    after = (max(0, need[0] - h - ph), max(0, need[1] - w - pw))
    low = -np.inf if planes.dtype.kind == "f" else np.iinfo(planes.dtype).min
    xp = _pad(planes, (ph, pw), after, low)
    top = np.arange(oh)[:, None] * stride[0] - ph  # each window's first row and column,
    left = np.arange(ow) * stride[1] - pw  # in the input's coordinates (padding < 0)
    first = _first_inside(top, dh) * w + _first_inside(left, dw)  # where PyTorch's loop starts
    best = np.full((planes.shape[0], oh, ow), low, planes.dtype)
    index = np.broadcast_to(first, best.shape).copy()
    for (i, j), where in _offsets(kernel, stride, dilation, out):
        value = xp[(slice(None),) + where]
        wins = value > best
        if planes.dtype.kind == "f":
            wins |= np.isnan(value)
        np.maximum(best, value, out=best)  # (NaN stays the best, as in PyTorch's loop)
        position = (top + i * dh) * w + left + j * dw  # (OH, OW), h * W + w in the input
        # index = position where wins: np.where without branches, which would mispredict
        # on a mask of random signs and run about three times slower
        index += wins * (position - index)
    return index.reshape(*x.shape[:-2], oh, ow)


class MaxPool2DWithIndices(NumpyFunction):
    """y[..., i, j] = max of x over window (i, j) = x[..., idx[i, j]], so the gradient of each
    output goes to the one input position that won its window:
    dL/dx[q] = sum over windows whose maximum is q of dL/dy (windows can share a winner)."""

    node_name = "MaxPool2DWithIndicesBackward0"
    double_backward_name = "MaxPool2DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(ctx, x, index):
        ctx.save_for_backward(x, index)  # (x for its shape; checked, as PyTorch checks it)
        planes = _flat_planes(x)
        b, h, w = planes.shape
        picks = index.reshape(b, index.shape[-2] * index.shape[-1])
        out = np.take_along_axis(planes.reshape(b, h * w), picks, axis=1)
        return out.reshape(index.shape)

    @staticmethod
    def backward(ctx, grad_output):
        x, index = ctx.saved_tensors
        b = math.prod(x.shape[:-2])
        hw = x.shape[-2] * x.shape[-1]
        per_plane = index.shape[-2] * index.shape[-1]
        flat = (index.reshape(b, per_plane) + np.arange(b)[:, None] * hw).ravel()
        grad = np.zeros_like(grad_output, shape=(b * hw,))
        np.add.at(grad, flat, grad_output.ravel())  # (twice where windows share)
        return grad.reshape(x.shape)


def _avg_divisor(
    size: int, kernel: int, stride: int, padding: int, out: int, count_include_pad: bool
) -> np.ndarray:
    # Per window along one dim: how many positions it covers (within the padding, or within
    # the input only) - PyTorch's divisor, which is the product of the two dims' counts.
    start = np.arange(out) * stride - padding
    end = np.minimum(start + kernel, size + padding)
    if count_include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


class AvgPool2D(NumpyFunction):
    """y[..., i, j] = sum of x over window (i, j) / divisor[i, j], so every position of a
    window gets dL/dy[i, j] / divisor[i, j]: dL/dx[q] = sum over windows covering q of that.

    The divisor is the window's size (``count_include_pad``), the number of its positions
    inside the input (``count_include_pad=False``), or ``divisor_override``; windows are read
    from the input padded with zeros.
    """

    node_name = "AvgPool2DBackward0"
    double_backward_name = "AvgPool2DBackwardBackward0"

    ctx_fields = ("kernel", "stride", "padding", "padded", "divisor")

    @staticmethod
    def forward(ctx, x, kernel, stride, padding, out, count_include_pad, divisor_override):
        planes = _flat_planes(x)
        h, w = planes.shape[1:]
        need = [(o - 1) * s + k for o, s, k in zip(out, stride, kernel)]
        after = (max(0, need[0] - h - padding[0]), max(0, need[1] - w - padding[1]))
        xp = _pad(planes, padding, after)
        total = _sum_windows(xp, kernel, stride, out)
        if divisor_override is not None:
            divisor = np.asarray(divisor_override)
        else:
            dh = _avg_divisor(h, kernel[0], stride[0], padding[0], out[0], count_include_pad)
            dw = _avg_divisor(w, kernel[1], stride[1], padding[1], out[1], count_include_pad)
            divisor = dh[:, None] * dw
        ctx.save_for_backward(x)  # (for its shape; checked, as PyTorch checks it)
        ctx.kernel, ctx.stride, ctx.padding = kernel, stride, padding
        ctx.padded, ctx.divisor = xp.shape[1:], divisor
        if x.dtype.kind != "f":  # integer pooling divides as C++ does (towards zero)
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.trunc(total / divisor).astype(x.dtype).reshape(*x.shape[:-2], *out)
        return (total / divisor.astype(x.dtype)).reshape(*x.shape[:-2], *out)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        g = _flat_planes(grad_output) / ctx.divisor.astype(grad_output.dtype)
        kh, kw = ctx.kernel
        spread = np.broadcast_to(g[:, None, None], (g.shape[0], kh, kw, *g.shape[1:]))
        grad = _scatter_windows(spread, ctx.padded, ctx.stride, (1, 1))
        return _crop(grad, ctx.padding, x.shape[-2:]).reshape(x.shape)


def _adaptive_matrix(size: int, out: int, dtype: Any) -> np.ndarray:
    # Row i averages input positions floor(i size / out) .. ceil((i + 1) size / out) - 1.
    i = np.arange(out)
    start = (i * size) // out
    end = -((-(i + 1) * size) // out)
    pos = np.arange(size)
    inside = (pos >= start[:, None]) & (pos < end[:, None])
    return (inside / (end - start)[:, None]).astype(dtype)


class AdaptiveAvgPool2D(NumpyFunction):
    """y[..., i, j] = mean of x over rows floor(i H / OH) .. ceil((i+1) H / OH) - 1 and the
    same for columns. A rectangle's mean is a row average then a column average, so
    y = A_h x A_w^T with averaging matrices A, and dL/dx = A_h^T (dL/dy) A_w."""

    node_name = "AdaptiveAvgPool2DBackward0"
    double_backward_name = "AdaptiveAvgPool2DBackwardBackward0"

    ctx_fields = ("a_h", "a_w")

    @staticmethod
    def forward(ctx, x, out):
        a_h = _adaptive_matrix(x.shape[-2], out[0], x.dtype)
        a_w = _adaptive_matrix(x.shape[-1], out[1], x.dtype)
        ctx.a_h, ctx.a_w = a_h, a_w
        ctx.save_for_backward(x)  # (only checked, as PyTorch saves and checks it)
        return np.matmul(np.matmul(a_h, x), a_w.T)

    @staticmethod
    def backward(ctx, grad_output):
        ctx.saved_tensors  # noqa: B018 - raises if x changed since, or backward freed it
        return np.matmul(np.matmul(ctx.a_h.T, grad_output), ctx.a_w)

"""``pixel_shuffle``, ``pixel_unshuffle`` and ``channel_shuffle``: rearrangements of channels
into space, space into channels, and channel groups (issue 24). Each is one reshape,
transpose and copy; its backward is the inverse rearrangement of the gradient."""

from __future__ import annotations

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_int, parsed
from microtorch.autograd.function import NumpyFunction
from microtorch.tensor import Tensor

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def _to_space(x: np.ndarray, r: int) -> np.ndarray:
    # (*, C r r, H, W) -> (*, C, H r, W r): out[c, h r + i, w r + j] = x[c r r + i r + j, h, w]
    *lead, c, h, w = x.shape
    split = x.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    moved = split.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)  # (*, C, H, r, W, r)
    return moved.reshape(*lead, c // (r * r), h * r, w * r)  # (the one copy)


def _to_channels(x: np.ndarray, r: int) -> np.ndarray:
    # (*, C, H r, W r) -> (*, C r r, H, W), the inverse of _to_space
    *lead, c, h, w = x.shape
    split = x.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    moved = split.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)  # (*, C, r, r, H, W)
    return moved.reshape(*lead, c * r * r, h // r, w // r)  # (the one copy)


def _shuffle(x: np.ndarray, groups: int) -> np.ndarray:
    # (N, C, *) -> (N, g, C / g, *) -> (N, C / g, g, *): channel k of group j goes to k g + j
    n, c, *rest = x.shape
    split = x.reshape(n, groups, c // groups, *rest)
    return split.swapaxes(1, 2).reshape(x.shape)  # (the one copy)


def _own(out: np.ndarray, x: np.ndarray) -> np.ndarray:
    # a result of its own (r = 1 or one group rearranges nothing: reshape returns a view)
    return out.copy() if np.shares_memory(out, x) else out


class PixelShuffle(NumpyFunction):
    """y[..., c, h r + i, w r + j] = x[..., c r^2 + i r + j, h, w]: a permutation, so
    dL/dx is dL/dy permuted back (``pixel_unshuffle`` of it)."""

    node_name = "PixelShuffleBackward0"
    ctx_fields = ("r",)

    @staticmethod
    def forward(ctx, x, r):
        ctx.r = r
        return _own(_to_space(x, r), x)

    @staticmethod
    def backward(ctx, grad_output):
        return _to_channels(grad_output, ctx.r)


class PixelUnshuffle(NumpyFunction):
    """The inverse permutation of ``PixelShuffle``; dL/dx is ``pixel_shuffle`` of dL/dy."""

    node_name = "PixelUnshuffleBackward0"
    ctx_fields = ("r",)

    @staticmethod
    def forward(ctx, x, r):
        ctx.r = r
        return _own(_to_channels(x, r), x)

    @staticmethod
    def backward(ctx, grad_output):
        return _to_space(grad_output, ctx.r)


class ChannelShuffle(NumpyFunction):
    """y[:, k g + j] = x[:, j C/g + k] (C channels in g groups): a permutation, undone by a
    shuffle into C / g groups, so dL/dx = channel_shuffle(dL/dy, C / g)."""

    node_name = "ChannelShuffleBackward0"
    ctx_fields = ("groups",)

    @staticmethod
    def forward(ctx, x, groups):
        ctx.groups = groups
        return _own(_shuffle(x, groups), x)

    @staticmethod
    def backward(ctx, grad_output):
        return _shuffle(grad_output, grad_output.shape[1] // ctx.groups)


@parsed("pixel_shuffle", "Tensor input, int upscale_factor")
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C r^2, H, W) -> (*, C, H r, W r) with r = ``upscale_factor``."""
    expect_tensor(input, "pixel_shuffle")
    expect_int(upscale_factor, "upscale_factor")
    shape, r = input._data.shape, upscale_factor
    if len(shape) < 3:
        raise RuntimeError(
            "pixel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{len(shape)} dimension(s)"
        )
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    if shape[-3] % (r * r):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={shape[-3]} is not divisible by "
            f"{r * r}"
        )
    return PixelShuffle.apply(input, r)


@parsed("pixel_unshuffle", "Tensor input, int downscale_factor")
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C, H r, W r) -> (*, C r^2, H, W) with r = ``downscale_factor``."""
    expect_tensor(input, "pixel_unshuffle")
    expect_int(downscale_factor, "downscale_factor")
    shape, r = input._data.shape, downscale_factor
    if len(shape) < 3:
        raise RuntimeError(
            "pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
            f"{len(shape)} dimension(s)"
        )
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    for dim, what in ((-2, "height"), (-1, "width")):
        if shape[dim] % r:
            raise RuntimeError(
                f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                f"input.size({dim})={shape[dim]} is not divisible by {r}"
            )
    return PixelUnshuffle.apply(input, r)


@parsed(
    "channel_shuffle",
    "Tensor input, int groups, *, Tensor out=None",
)
def channel_shuffle(input: Tensor, groups: int) -> Tensor:  # noqa: A002
    """Interleave the ``groups`` groups of channels (dim 1): ShuffleNet's shuffle."""
    expect_tensor(input, "channel_shuffle")
    shape = input._data.shape
    if len(shape) <= 2:
        raise RuntimeError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(shape)}"
        )
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    if shape[1] % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {shape[1]} channels and "
            f"{groups} groups."
        )
    return ChannelShuffle.apply(input, groups)

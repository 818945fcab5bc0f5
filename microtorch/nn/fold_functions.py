"""``F.unfold`` (im2col) and ``F.fold`` (col2im): PyTorch 2.13's argument checks and errors,
in its order, in front of ``Im2Col`` and ``Col2Im`` (which take an input without its batch
dim as one sample, recording no other node, as PyTorch's do)."""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.nn.conv_functions import _ints
from microtorch.nn.fold_ops import Col2Im, Im2Col
from microtorch.tensor import Tensor

__all__ = ["unfold", "fold"]


def _pairs(op: str, **values: Any) -> dict[str, tuple[int, int]]:
    # PyTorch's _pair, then the C++ check that each is two ints
    found = {}
    for name, value in values.items():
        v = _ints(value, 2, op, name)
        if len(v) != 2:
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(v)}")
        found[name] = (v[0], v[1])
    return found


def _check(
    kernel: tuple[int, int], dilation: tuple[int, int], padding: tuple[int, int],
    stride: tuple[int, int],
) -> None:  # fmt: skip
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel, dilation, padding, stride
    if kh <= 0 or kw <= 0:
        raise RuntimeError(
            f"kernel size should be greater than zero, but got kernel_height: {kh} "
            f"kernel_width: {kw}"
        )
    if dh <= 0 or dw <= 0:
        raise RuntimeError(
            f"dilation should be greater than zero, but got dilation_height: {dh} "
            f"dilation_width: {dw}"
        )
    if ph < 0 or pw < 0:
        raise RuntimeError(
            f"padding should be non-negative, but got pad_height: {ph} pad_width: {pw}"
        )
    if sh <= 0 or sw <= 0:
        raise RuntimeError(
            f"stride should be greater than zero, but got stride_height: {sh} stride_width: {sw}"
        )


def _blocks(
    size: tuple[int, int], kernel: Any, dilation: Any, padding: Any, stride: Any
) -> tuple[int, int]:
    return tuple(
        (n + 2 * p - d * (k - 1) - 1) // s + 1
        for n, k, d, p, s in zip(size, kernel, dilation, padding, stride)
    )


def unfold(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """Every ``kernel_size`` window of an ``(N, C, H, W)`` image as a column:
    ``(N, C * kh * kw, L)`` with L the number of windows (``Im2ColBackward0``).

    >>> import microtorch as torch
    >>> torch.nn.functional.unfold(torch.arange(9.0).view(1, 1, 3, 3), 2)
    tensor([[[0., 1., 3., 4.],
             [1., 2., 4., 5.],
             [3., 4., 6., 7.],
             [4., 5., 7., 8.]]])
    """
    expect_tensor(input, "im2col")
    p = _pairs("im2col", kernel_size=kernel_size, dilation=dilation, padding=padding,
               stride=stride)  # fmt: skip
    _check(p["kernel_size"], p["dilation"], p["padding"], p["stride"])
    shape = tuple(input._data.shape)
    if len(shape) < 3:
        n = len(shape)
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {n})"
        )
    if len(shape) > 4 or 0 in shape[-3:]:
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
            f"non-zero dimensions for input, but got: {list(shape)}"
        )
    size = (shape[-2], shape[-1])
    out = _blocks(size, p["kernel_size"], p["dilation"], p["padding"], p["stride"])
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(
            f"Given input with spatial size {size}, kernel_size={p['kernel_size']}, "
            f"dilation={p['dilation']}, padding={p['padding']}, calculated shape of the array "
            f"of sliding blocks as {out}, but its components must be at least one."
        )
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"im2col_out_cpu\" not implemented for '{input._dtype._legacy[:-6]}'"
        )
    return Im2Col.apply(input, p["kernel_size"], p["dilation"], p["padding"], p["stride"], out)


def fold(
    input: Tensor,  # noqa: A002
    output_size: Any,
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """The inverse arrangement of ``unfold``: columns ``(N, C * kh * kw, L)`` added back into
    an ``(N, C, *output_size)`` image, overlapping windows summed (``Col2ImBackward0``)."""
    expect_tensor(input, "col2im")
    p = _pairs("col2im", output_size=output_size, kernel_size=kernel_size, dilation=dilation,
               padding=padding, stride=stride)  # fmt: skip
    kernel, dil, pad, st = p["kernel_size"], p["dilation"], p["padding"], p["stride"]
    size = p["output_size"]
    if size[0] <= 0 or size[1] <= 0:
        raise RuntimeError(
            f"Expected output spatial size to be positive, but got: output_size={size}"
        )
    _check(kernel, dil, pad, st)
    shape = tuple(input._data.shape)
    if len(shape) not in (2, 3) or 0 in shape[-2:]:
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
            f"non-zero dimensions for input, but got: {list(shape)}"
        )
    k = kernel[0] * kernel[1]
    if shape[-2] % k:
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={shape[-2]} and kernel_size={kernel}."
        )
    out = _blocks(size, kernel, dil, pad, st)
    if out[0] < 1 or out[1] < 1 or out[0] * out[1] != shape[-1]:
        raise RuntimeError(
            f"Given output_size={size}, kernel_size={kernel}, dilation={dil}, padding={pad}, "
            f"stride={st}, expected size of input's dimension 2 to match the calculated number "
            f"of sliding blocks {out[0]} * {out[1]} = {out[0] * out[1]}, but got "
            f"input.size(2)={shape[-1]}."
        )
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"col2im_out_cpu\" not implemented for '{input._dtype._legacy[:-6]}'"
        )
    return Col2Im.apply(input, size, kernel, dil, pad, st, out)

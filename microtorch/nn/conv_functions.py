"""``conv1d``, ``conv2d``, ``conv3d``, ``max_pool2d``, ``avg_pool2d`` and
``adaptive_avg_pool2d``: the argument handling and error messages of PyTorch 2.13, in
PyTorch's order, in front of the ops of ``conv_ops.py`` (re-exported by ``functional``).

A 3-D input to ``conv2d`` (2-D to ``conv1d``) is one unbatched sample: PyTorch records
``UnsqueezeBackward0``, the convolution, then ``SqueezeBackward1``, and so does this.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api import reduction as red
from microtorch.api._checks import expect_tensor, type_name, views_first
from microtorch.api.arguments import parsed
from microtorch.nn import conv_ops
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["conv1d", "conv2d", "conv3d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d"]

# C++'s names for dtypes, as in "Input type (double) and bias type (float) should be the same"
_CPP_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
    "uint8": "unsigned char", "bool": "bool",
}  # fmt: skip
_same_warned = False  # PyTorch warns once per process (TORCH_WARN_ONCE)


def _ints(value: Any, n: int, op: str, what: str) -> list[int]:
    # An int is repeated n times (PyTorch's int[n] arguments); a tuple or list is kept as is.
    if isinstance(value, (bool, float)) or not isinstance(value, (int, np.integer, Sequence)):
        raise TypeError(
            f"{op}(): argument '{what}' must be tuple of ints, not {type_name(value)} (Fix: "
            f"pass an int or a tuple of {n} ints, e.g. {what}=1)"
        )
    if isinstance(value, (int, np.integer)):
        return [int(value)] * n
    items = list(value)
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in items):
        raise TypeError(
            f"{op}(): argument '{what}' must be tuple of ints, but found element of type "
            f"{type_name(next(v for v in items if not isinstance(v, (int, np.integer))))}"
        )
    return [int(v) for v in items]


def _expand(values: list[int], name: str, dim: int) -> tuple[int, ...]:
    # PyTorch's expand_param_if_needed: one value serves every dim, else one per dim.
    if len(values) == 1:
        return (values[0],) * dim
    if len(values) != dim:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {dim} values to match "
            f"the convolution dimensions, but got {name}={values}"
        )
    return tuple(values)


def _check_tensors(op: str, input: Any, weight: Any, bias: Any) -> None:  # noqa: A002
    got = [input, weight] + ([] if bias is None else [bias])
    if all(isinstance(t, Tensor) for t in got):
        return
    names = ", ".join("Tensor" if isinstance(t, Tensor) else type_name(t) for t in got)
    sig = "(Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
    raise TypeError(
        f"{op}() received an invalid combination of arguments - got ({names}), but expected one "
        f"of:\n * {sig}tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1)\n"
        f' * {sig}str padding = "valid", tuple of ints dilation = 1, int groups = 1)\n'
    )


@parsed(
    "conv1d",
    (
        "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
        "tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1"
    ),
    (
        "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
        'str padding = "valid", tuple of ints dilation = 1, int groups = 1'
    ),
)
def conv1d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """1-D convolution (cross-correlation) of ``(N, C_in, L)`` or ``(C_in, L)`` input with
    ``weight`` of shape ``(C_out, C_in / groups, K)`` (``ConvolutionBackward0``)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


@parsed(
    "conv2d",
    (
        "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
        "tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1"
    ),
    (
        "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
        'str padding = "valid", tuple of ints dilation = 1, int groups = 1'
    ),
)
def conv2d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """2-D convolution (cross-correlation) of ``(N, C_in, H, W)`` or ``(C_in, H, W)`` input
    with ``weight`` of shape ``(C_out, C_in / groups, kH, kW)`` (``ConvolutionBackward0``).

    ``padding`` is an int, a pair, ``'valid'`` (none) or ``'same'`` (output as large as the
    input; stride 1 only)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


@parsed(
    "conv3d",
    (
        "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
        "tuple of ints padding = 0, tuple of ints dilation = 1, int groups = 1"
    ),
    (
        "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, "
        'str padding = "valid", tuple of ints dilation = 1, int groups = 1'
    ),
)
def conv3d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """3-D convolution (cross-correlation) of ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)``
    input with ``weight`` of shape ``(C_out, C_in / groups, kD, kH, kW)``."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3)


# per number of spatial dims: those dims, and the fix for a single sample
_SAMPLES = {1: ("L", "signal of length L"), 2: ("H, W", "grey image (H, W)"),
            3: ("D, H, W", "grey volume (D, H, W)")}  # fmt: skip


def _conv(
    input: Any, weight: Any, bias: Any, stride: Any, padding: Any, dilation: Any,  # noqa: A002
    groups: int, nd: int,
) -> Tensor:  # fmt: skip
    op = f"conv{nd}d"
    _check_tensors(op, input, weight, bias)
    if not isinstance(padding, str):  # PyTorch checks this first (after the string form's checks)
        _check_bias_dtype(input, bias)
    shape = input._data.shape
    if len(shape) not in (nd + 1, nd + 2):
        dims, one = _SAMPLES[nd]
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {op}, but got input "
            f"of size: {list(shape)} (Fix: {op} takes (N, C, {dims}) or (C, {dims}); for one "
            f"{one}, x.view(1, 1, {dims}) adds the batch and channel dims)"
        )
    batched = len(shape) == nd + 2
    x = input if batched else input.unsqueeze(0)
    strides = _ints(stride, nd, op, "stride")
    dilations = _ints(dilation, nd, op, "dilation")
    if isinstance(padding, str):
        out = _conv_padding_string(x, weight, bias, strides, padding, dilations, groups)
    else:
        out = _convolution(x, weight, bias, strides, _ints(padding, nd, op, "padding"),
                           dilations, groups)  # fmt: skip
    return out if batched else out.squeeze(0)


def _conv_padding_string(
    x: Tensor, weight: Tensor, bias: Any, stride: list[int], padding: str,
    dilation: list[int], groups: int,
) -> Tensor:  # fmt: skip
    if padding == "valid":
        return _convolution(x, weight, bias, stride, [0], dilation, groups)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    k = weight._data.ndim
    if k <= 2:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    dim = k - 2
    wshape = list(weight._data.shape)
    if k != x._data.ndim:
        raise RuntimeError(
            f"Expected {k}-dimensional input for {k}-dimensional weight{wshape}, but got "
            f"{x._data.ndim}-dimensional input of size {list(x._data.shape)} instead"
        )
    for name, values in (("stride", stride), ("dilation", dilation)):
        if len(values) not in (1, dim):
            raise RuntimeError(f"{name} cannot broadcast to {dim} dimensions")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dil = _expand(dilation, "dilation", dim)
    total = [d * (kk - 1) for d, kk in zip(dil, wshape[2:])]
    left = [t // 2 for t in total]
    right = [t - t // 2 for t in total]
    if left != right:  # an even kernel: the extra zero goes on the right, as a separate op
        global _same_warned
        if not _same_warned:
            _same_warned = True
            warn(
                "Using padding='same' with even kernel lengths and odd dilation may require a "
                "zero-padded copy of the input be created",
            )
        extra = tuple(r - lf for r, lf in zip(right, left))
        x = conv_ops.ConstantPadNd.apply(x, (0,) * dim, extra)
    return _convolution(x, weight, bias, stride, left, dilation, groups)


def _convolution(
    x: Tensor, weight: Tensor, bias: Any, stride: list[int], padding: list[int],
    dilation: list[int], groups: int,
) -> Tensor:  # fmt: skip
    # PyTorch's at::_convolution and check_shape_forward, check by check.
    k = weight._data.ndim
    if k <= 2:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    dim = k - 2
    s = _expand(stride, "stride", dim)
    p = _expand(padding, "padding", dim)
    d = _expand(dilation, "dilation", dim)
    if any(v < 0 for v in p):
        raise RuntimeError("negative padding is not supported")
    if any(v <= 0 for v in s):
        raise RuntimeError("non-positive stride is not supported")
    if any(v <= 0 for v in d):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(d)}")
    xs, ws = list(x._data.shape), list(weight._data.shape)
    if len(xs) != k:
        raise RuntimeError(
            f"Expected {k}-dimensional input for {k}-dimensional weight {ws}, but got "
            f"{len(xs)}-dimensional input of size {xs} instead"
        )
    if ws[0] < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but "
            f"got weight of size {ws} instead"
        )
    if ws[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size [{ws}] instead"
        )
    if xs[1] != ws[1] * groups:
        fix = (
            f" (Fix: the layer expects {ws[1] * groups} input channels at dim 1; for an image "
            "stored as (H, W, C), permute it to (C, H, W) first)"
        )
        raise RuntimeError(
            f"Given groups={groups}, weight of size {ws}, expected input{xs} to have "
            f"{ws[1] * groups} channels, but got {xs[1]} channels instead{fix}"
        )
    if bias is not None and (bias._data.ndim != 1 or bias._data.shape[0] != ws[0]):
        raise RuntimeError(
            f"Given weight of size {ws}, expected bias to be 1-dimensional with {ws[0]} "
            f"elements, but got bias of size {list(bias._data.shape)} instead"
        )
    padded = [n + 2 * pp for n, pp in zip(xs[2:], p)]
    kernel = [dd * (kk - 1) + 1 for dd, kk in zip(d, ws[2:])]
    if any(a < b for a, b in zip(padded, kernel)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than "
            "actual input size"
        )
    _check_bias_dtype(x, bias)
    if weight._dtype is not x._dtype:
        views_first(x, weight)
        raise RuntimeError(
            f"expected scalar type {x._dtype._legacy[:-6]} but found "
            f"{weight._dtype._legacy[:-6]} (Fix: convert the input, e.g. x.float(), or the "
            f"layer, e.g. model.to(torch.{x._dtype.name}))"
        )
    return conv_ops.Convolution.apply(x, weight, bias, s, p, d, groups)


def _check_bias_dtype(x: Tensor, bias: Any) -> None:
    if bias is not None and bias._dtype is not x._dtype:
        raise RuntimeError(
            f"Input type ({_CPP_NAMES.get(x._dtype.name, x._dtype.name)}) and bias type "
            f"({_CPP_NAMES.get(bias._dtype.name, bias._dtype.name)}) should be the same (Fix: "
            f"convert the input, e.g. x.float(), or the layer, e.g. "
            f"model.to(torch.{x._dtype.name}))"
        )


# --- pooling ------------------------------------------------------------------------------


def _pool_pairs(
    op: str, kernel_size: Any, stride: Any, padding: Any, dilation: Any = 1
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]:
    # PyTorch's int[2] arguments (an int becomes a pair) and its meta function's checks.
    k = _ints(kernel_size, 2, op, "kernel_size")
    if len(k) not in (1, 2):
        raise RuntimeError(f"{op}: kernel_size must either be a single int, or a tuple of two ints")
    s = [] if stride is None else _ints(stride, 2, op, "stride")
    if len(s) not in (0, 1, 2):
        raise RuntimeError(
            f"{op}: stride must either be omitted, a single int, or a tuple of two ints"
        )
    p = _ints(padding, 2, op, "padding")
    if len(p) not in (1, 2):
        raise RuntimeError(f"{op}: padding must either be a single int, or a tuple of two ints")
    d = _ints(dilation, 2, op, "dilation")
    if len(d) not in (1, 2):
        raise RuntimeError(f"{op}: dilation must be either a single int, or a tuple of two ints")
    kh = k[0]
    kw = k[-1]
    sh = s[0] if s else kh
    sw = s[-1] if s else kw
    return (kh, kw), (sh, sw), (p[0], p[-1]), (d[0], d[-1])


def _pool_out(size: int, k: int, pad: int, s: int, d: int, ceil_mode: bool) -> int:
    # PyTorch's pooling_output_shape, with its checks.
    if s == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > ((k - 1) * d + 1) // 2:
        raise RuntimeError(
            f"pad should be at most half of effective kernel size, but got pad={pad}, "
            f"kernel_size={k} and dilation={d}"
        )
    return conv_ops.pool_out_size(size, k, s, pad, d, ceil_mode)


def _pool_shape_check(
    x: Tensor, kernel: tuple[int, int], stride: tuple[int, int], padding: tuple[int, int],
    dilation: tuple[int, int], out: tuple[int, int],
) -> None:  # fmt: skip
    # PyTorch's pool2d_shape_check.
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    shape = x._data.shape
    if kw <= 0 or kh <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sw <= 0 or sh <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(
            f"dilation should be greater than zero, but got dilationH: {dh} dilationW: {dw}"
        )
    ndim = len(shape)
    valid = shape[1] != 0 and shape[2] != 0
    if not ((ndim == 3 and shape[0] != 0 and valid) or (ndim == 4 and valid and shape[3] != 0)):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
            f"got:{list(shape)}"
        )
    if kw // 2 < pw or kh // 2 < ph:
        raise RuntimeError(
            f"pad should be smaller than or equal to half of kernel size, but got padW = {pw}, "
            f"padH = {ph}, kW = {kw}, kH = {kh}"
        )
    if out[0] < 1 or out[1] < 1:
        c, h, w = shape[-3:]
        raise RuntimeError(
            f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
            "Output size is too small"
        )


def _size_at(shape: tuple[int, ...], dim: int) -> int:
    # x.size(dim) for a negative dim, with PyTorch's IndexError.
    if not shape:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if dim < -len(shape):
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-len(shape)}, "
            f"{len(shape) - 1}], but got {dim})"
        )
    return shape[dim]


def max_pool2d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """The largest value of each ``kernel_size`` window (stride defaults to the kernel size;
    ``MaxPool2DWithIndicesBackward0``). With ``return_indices``, also where each maximum was,
    as ``h * W + w`` in its plane."""
    expect_tensor(input, "max_pool2d_with_indices" if return_indices else "max_pool2d")
    op = "max_pool2d"
    kernel, strides, pads, dils = _pool_pairs(op, kernel_size, stride, padding, dilation)
    shape = input._data.shape
    if len(shape) not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    h, w = shape[-2:]
    out = (
        _pool_out(h, kernel[0], pads[0], strides[0], dils[0], ceil_mode),
        _pool_out(w, kernel[1], pads[1], strides[1], dils[1], ceil_mode),
    )
    _pool_shape_check(input, kernel, strides, pads, dils, out)
    if input._dtype.name == "bool":
        raise NotImplementedError("\"max_pool2d\" not implemented for 'Bool'")
    index = conv_ops.max_pool2d_indices(input._data, kernel, strides, pads, dils, out)
    result = conv_ops.MaxPool2DWithIndices.apply(input, index)
    return (result, plain_tensor(index, input._device)) if return_indices else result


def avg_pool2d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """The mean of each ``kernel_size`` window (stride defaults to the kernel size;
    ``AvgPool2DBackward0``); zero padding counts towards the mean unless
    ``count_include_pad=False``."""
    expect_tensor(input, "avg_pool2d")
    op = "avg_pool2d"
    kernel, strides, pads, _ = _pool_pairs(op, kernel_size, stride, padding)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    shape = input._data.shape
    _size_at(shape, -3)
    h, w = shape[-2:]
    out = (
        _pool_out(h, kernel[0], pads[0], strides[0], 1, ceil_mode),
        _pool_out(w, kernel[1], pads[1], strides[1], 1, ceil_mode),
    )
    _pool_shape_check(input, kernel, strides, pads, (1, 1), out)
    if input._dtype.name == "bool":
        raise NotImplementedError("\"avg_pool2d\" not implemented for 'Bool'")
    return conv_ops.AvgPool2D.apply(
        input, kernel, strides, pads, out, count_include_pad, divisor_override
    )


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """Average over ``output_size`` windows that tile the input (``None`` keeps a dim's
    size). Output 1 x 1 is a mean over the last two dims (``MeanBackward1``), as PyTorch
    computes it; any other size ``AdaptiveAvgPool2DBackward0``."""
    expect_tensor(input, "adaptive_avg_pool2d")
    shape = input._data.shape
    if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
        size = [int(output_size)] * 2
    else:
        items = list(output_size)
        if len(shape) <= len(items):
            raise ValueError(f"Input dimension should be at least {len(items) + 1}")
        size = [d if v is None else v for v, d in zip(items, shape[-len(items) :])]
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError(
            "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 "
            f"but received {{{size[0]}, {size[1]}}}"
        )
    if size == [1, 1]:
        return red.mean(input, (-1, -2), keepdim=True)
    if len(shape) not in (3, 4):
        raise RuntimeError(
            f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(shape)}"
        )
    for i in (-2, -1):
        if shape[i] <= 0:
            raise RuntimeError(
                "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                f"dimensions, but input has sizes {list(shape)} with dimension {i + len(shape)} "
                "being empty"
            )
    empty = input._data.size == 0 or 0 in size  # (PyTorch's kernel is not run for these)
    if not input._dtype.is_floating_point and not empty:
        raise NotImplementedError(
            f"\"adaptive_avg_pool2d\" not implemented for '{input._dtype._legacy[:-6]}'"
        )
    return conv_ops.AdaptiveAvgPool2D.apply(input, tuple(size))

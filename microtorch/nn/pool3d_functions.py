"""3-d pooling and the rest of the pooling family (issue 24): ``avg_pool3d``,
``max_pool3d`` (and ``max_pool1d/2d/3d_with_indices``), ``adaptive_avg_pool3d``,
``adaptive_max_pool3d`` (and the ``adaptive_max_pool1d/2d/3d_with_indices``), ``lp_pool1d/2d/3d``
``max_unpool1d/2d/3d`` and ``local_response_norm``, with PyTorch 2.13's main checks and errors.

``lp_pool`` is written with tensor ops, as PyTorch writes it (its graph ends in
``PowBackward0``); ``max_unpool1d`` is ``max_unpool2d`` on a plane one row high.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import reduction as red
from microtorch.api._checks import expect_tensor
from microtorch.nn import conv_functions as cf
from microtorch.nn import pool3d_ops as ops
from microtorch.nn import pool_functions as pf
from microtorch.nn.vector_functions import pad
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "avg_pool3d", "max_pool3d", "max_pool1d_with_indices", "max_pool2d_with_indices",
    "max_pool3d_with_indices", "adaptive_avg_pool3d", "adaptive_max_pool3d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d_with_indices", "lp_pool1d", "lp_pool2d", "lp_pool3d", "max_unpool1d",
    "max_unpool2d", "max_unpool3d", "local_response_norm",
]  # fmt: skip

Triple = tuple[int, int, int]


def _triple(value: Any, op: str, what: str) -> Triple:
    v = cf._ints(value, 3, op, what)
    if len(v) not in (1, 3):
        raise RuntimeError(f"{op}: {what} must either be a single int, or a tuple of three ints")
    return (v[0], v[-2 if len(v) == 3 else 0], v[-1])


def _pool3d_args(
    op: str, input: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any,  # noqa: A002
    ceil_mode: bool,
) -> tuple[Triple, Triple, Triple, Triple, Triple]:  # fmt: skip
    expect_tensor(input, op)
    k = _triple(kernel_size, op, "kernel_size")
    s = k if stride is None or stride == [] else _triple(stride, op, "stride")
    p = _triple(padding, op, "padding")
    d = _triple(dilation, op, "dilation")
    shape = input._data.shape
    if len(shape) not in (4, 5) or 0 in shape[-4:]:
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    out = tuple(
        cf._pool_out(n, ki, pi, si, di, ceil_mode)
        for n, ki, pi, si, di in zip(shape[-3:], k, p, s, d)
    )
    if min(out) < 1:
        c, n1, n2, n3 = shape[-4:]
        raise RuntimeError(
            f"Given input size: ({c}x{n1}x{n2}x{n3}). Calculated output size: "
            f"({c}x{out[0]}x{out[1]}x{out[2]}). Output size is too small"
        )
    return k, s, p, d, (out[0], out[1], out[2])


def avg_pool3d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """The mean of each ``kernel_size`` window over (D, H, W) (``AvgPool3DBackward0``)."""
    k, s, p, _, out = _pool3d_args("avg_pool3d", input, kernel_size, stride, padding, 1,
                                   ceil_mode)  # fmt: skip
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _floats(input, "avg_pool3d_out_frame")
    return ops.AvgPool3D.apply(input, k, s, p, out, count_include_pad, divisor_override)


def _floats(input: Tensor, kernel: str) -> None:  # noqa: A002
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: x.float())"
        )


def max_pool3d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """The largest value of each window over (D, H, W) (``MaxPool3DWithIndicesBackward0``);
    with ``return_indices``, also where, as ``(d * H + h) * W + w`` in its volume."""
    op = "max_pool3d_with_indices" if return_indices else "max_pool3d"
    k, s, p, d, out = _pool3d_args(op, input, kernel_size, stride, padding, dilation, ceil_mode)
    _floats(input, "max_pool3d_cpu")
    index = ops.max_pool3d_indices(input._data, k, s, p, d, out)
    result = ops.MaxPool3DWithIndices.apply(input, index)
    return (result, plain_tensor(index, input._device)) if return_indices else result


def max_pool1d_with_indices(
    input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
    dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False,
) -> tuple[Tensor, Tensor]:  # fmt: skip
    """``max_pool1d(..., return_indices=True)``."""
    expect_tensor(input, "max_pool1d_with_indices")
    return pf.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(
    input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
    dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False,
) -> tuple[Tensor, Tensor]:  # fmt: skip
    """``max_pool2d(..., return_indices=True)``."""
    return cf.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(
    input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
    dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False,
) -> tuple[Tensor, Tensor]:  # fmt: skip
    """``max_pool3d(..., return_indices=True)``."""
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def _adaptive_size(input: Tensor, output_size: Any) -> Triple:  # noqa: A002
    shape = input._data.shape
    if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
        return (int(output_size),) * 3
    items = list(output_size)
    if len(shape) <= len(items):
        raise ValueError(f"Input dimension should be at least {len(items) + 1}")
    size = [n if v is None else v for v, n in zip(items, shape[-len(items) :])]
    if len(size) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    return (size[0], size[1], size[2])


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """Average over ``output_size`` windows that tile (D, H, W) (``None`` keeps a dim's
    size); 1 x 1 x 1 is a mean (``MeanBackward1``), as PyTorch computes it."""
    expect_tensor(input, "adaptive_avg_pool3d")
    size = _adaptive_size(input, output_size)
    if size == (1, 1, 1):
        return red.mean(input, (-1, -2, -3), keepdim=True)
    shape = input._data.shape
    if len(shape) not in (4, 5):
        raise RuntimeError(
            f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(shape)}"
        )
    _floats(input, "adaptive_avg_pool3d_cpu")
    return ops.AdaptiveAvgPool3D.apply(input, size)


def adaptive_max_pool3d(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """The largest value of each of ``output_size`` windows that tile (D, H, W)
    (``AdaptiveMaxPool3DBackward0``); with ``return_indices``, also where."""
    expect_tensor(input, "adaptive_max_pool3d")
    size = _adaptive_size(input, output_size)
    shape = input._data.shape
    if len(shape) not in (4, 5):
        raise RuntimeError(
            f"adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: {list(shape)}"
        )
    _floats(input, "adaptive_max_pool3d_cpu")
    index = ops.adaptive_max_pool3d_indices(input._data, size)
    out = ops.AdaptiveMaxPool3D.apply(input, index)
    return (out, plain_tensor(index, input._device)) if return_indices else out


def adaptive_max_pool1d_with_indices(
    input: Tensor,
    output_size: Any,
    return_indices: bool = False,  # noqa: A002
) -> tuple[Tensor, Tensor]:
    """``adaptive_max_pool1d(..., return_indices=True)``."""
    return pf.adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(
    input: Tensor,
    output_size: Any,
    return_indices: bool = False,  # noqa: A002
) -> tuple[Tensor, Tensor]:
    """``adaptive_max_pool2d(..., return_indices=True)``."""
    return pf.adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool3d_with_indices(
    input: Tensor,
    output_size: Any,
    return_indices: bool = False,  # noqa: A002
) -> tuple[Tensor, Tensor]:
    """``adaptive_max_pool3d(..., return_indices=True)``."""
    return adaptive_max_pool3d(input, output_size, True)


def _lp(out: Tensor, norm_type: float, count: int) -> Tensor:
    # (sign(mean) * relu(|mean|) * window size) ** (1 / p): the p-norm of each window
    return (out.sign() * out.abs().relu()).mul(count).pow(1.0 / norm_type)


def lp_pool1d(
    input: Tensor, norm_type: float, kernel_size: int, stride: Any = None,  # noqa: A002
    ceil_mode: bool = False,
) -> Tensor:  # fmt: skip
    """The p-norm of each window: (sum x^p) ** (1 / p); p = inf is max pooling of |x|."""
    if norm_type == float("inf"):
        return pf.max_pool1d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -pf.max_pool1d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = pf.avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp(out, norm_type, int(np.prod(kernel_size)))


def lp_pool2d(
    input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,  # noqa: A002
    ceil_mode: bool = False,
) -> Tensor:  # fmt: skip
    """The p-norm of each window of the last two dims."""
    k = cf._ints(kernel_size, 2, "lp_pool2d", "kernel_size")
    if norm_type == float("inf"):
        return cf.max_pool2d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -cf.max_pool2d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = cf.avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp(out, norm_type, k[0] * k[-1])


def lp_pool3d(
    input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,  # noqa: A002
    ceil_mode: bool = False,
) -> Tensor:  # fmt: skip
    """The p-norm of each window of the last three dims."""
    kd, kh, kw = _triple(kernel_size, "lp_pool3d", "kernel_size")
    if norm_type == float("inf"):
        return max_pool3d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool3d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp(out, norm_type, kd * kh * kw)


def _unpool_size(
    input: Tensor, n: int, kernel: Any, stride: Any, padding: Any,  # noqa: A002
    output_size: Any, op: str,
) -> tuple[int, ...]:  # fmt: skip
    k = cf._ints(kernel, n, op, "kernel_size")
    s = k if stride is None else cf._ints(stride, n, op, "stride")
    p = cf._ints(padding, n, op, "padding")
    k, s, p = ([v[0]] * n if len(v) == 1 else v for v in (k, s, p))
    spatial = input._data.shape[-n:]
    default = [(size - 1) * si - 2 * pi + ki for size, ki, si, pi in zip(spatial, k, s, p)]
    if output_size is None:
        return tuple(default)
    given = output_size[2:] if len(output_size) == n + 2 else output_size
    if len(given) != n:
        raise ValueError(
            f"output_size should be a sequence containing {n} or {n + 2} elements, but it has "
            f"a length of '{len(output_size)}'"
        )
    size = [int(v) for v in given]
    for i, (want, base) in enumerate(zip(size, default)):
        low, high = base - s[i], base + s[i]
        if not low < want < high:
            raise ValueError(
                f'invalid output_size "{given}" (dim {i} must be between {low} and {high})'
            )
    return tuple(size)


def _unpool(input: Tensor, indices: Tensor, size: tuple[int, ...], op: Any) -> Tensor:  # noqa: A002
    expect_tensor(indices, "max_unpool", "indices", 2)
    if indices._data.dtype != np.int64:
        got = "" if len(size) == 3 else f" but got: {indices._dtype._legacy[:-6]}"  # (as PyTorch)
        raise RuntimeError(f"elements in indices should be type int64{got}")
    if indices._data.shape != input._data.shape:
        raise RuntimeError(
            "Expected shape of indices to be same as that of the input tensor "
            f"({list(input._data.shape)}) but got indices tensor with shape: "
            f"{list(indices._data.shape)}"
        )
    total = int(np.prod(size))
    idx = indices._data
    if idx.size and (idx.min() < 0 or idx.max() >= total):
        bad = int(idx.max()) if idx.max() >= total else int(idx.min())
        volumes = "x".join(str(v) for v in size)
        raise RuntimeError(
            f"Found an invalid max index: {bad} (output volumes are of size {volumes})"
        )
    return op.apply(input, idx, size)


def max_unpool1d(
    input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
    padding: Any = 0, output_size: Any = None,
) -> Tensor:  # fmt: skip
    """Put each value back where ``max_pool1d`` found it, zeros elsewhere."""
    expect_tensor(input, "max_unpool1d")
    size = _unpool_size(input, 1, kernel_size, stride, padding, output_size, "max_unpool1d")
    x = input.unsqueeze(-1)
    out = _unpool(x, indices.unsqueeze(-1), (size[0], 1), ops.MaxUnpool2D)
    return out.squeeze(-1)


def max_unpool2d(
    input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
    padding: Any = 0, output_size: Any = None,
) -> Tensor:  # fmt: skip
    """Put each value back where ``max_pool2d`` found it (``indices``), zeros elsewhere
    (``MaxUnpool2DBackward0``)."""
    expect_tensor(input, "max_unpool2d")
    size = _unpool_size(input, 2, kernel_size, stride, padding, output_size, "max_unpool2d")
    return _unpool(input, indices, size, ops.MaxUnpool2D)


def max_unpool3d(
    input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
    padding: Any = 0, output_size: Any = None,
) -> Tensor:  # fmt: skip
    """Put each value back where ``max_pool3d`` found it, zeros elsewhere
    (``MaxUnpool3DBackward0``)."""
    expect_tensor(input, "max_unpool3d")
    size = _unpool_size(input, 3, kernel_size, stride, padding, output_size, "max_unpool3d")
    return _unpool(input, indices, size, ops.MaxUnpool3D)


def local_response_norm(
    input: Tensor,  # noqa: A002
    size: int,
    alpha: float = 1e-4,
    beta: float = 0.75,
    k: float = 1.0,
) -> Tensor:
    """x / (k + alpha * mean of x^2 over ``size`` neighbouring channels) ** beta (AlexNet's
    normalisation), written with tensor ops as PyTorch writes it."""
    expect_tensor(input, "local_response_norm")
    dim = input.dim()
    if dim < 3:
        raise ValueError(
            "Expected 3D or higher dimensionality                          input (got "
            f"{dim} dimensions)"
        )
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:  # channels as the height of a one-channel image, averaged (size, 1)
        div = pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = cf.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input._data.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div

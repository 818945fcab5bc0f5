"""``max_pool1d``, ``avg_pool1d``, ``adaptive_avg_pool1d``, ``adaptive_max_pool1d`` and
``adaptive_max_pool2d``: PyTorch 2.13's argument checks and errors, in its order.

As in PyTorch, the 1-d poolings are the 2-d ones on ``x.unsqueeze(-2)`` (a plane one row
high), squeezed back: their graphs read ``SqueezeBackward1``, the 2-d node,
``UnsqueezeBackward0``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor, type_name
from microtorch.api.arguments import parsed
from microtorch.autograd.grad_mode import is_grad_enabled
from microtorch.nn import conv_functions as cf
from microtorch.nn import conv_ops, pool_ops
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "max_pool1d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d",
    "adaptive_max_pool2d",
]  # fmt: skip


def _int_list(value: Any, op: str, what: str, position: int) -> list[int]:
    # PyTorch's argument parser for int[1]: an int, or a sequence of ints.
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)]
    if isinstance(value, Sequence) and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value
    ):
        return [int(v) for v in value]
    raise TypeError(
        f"{op}(): argument '{what}' (position {position}) must be tuple of ints, not "
        f"{type_name(value)}"
    )


def _check_dims(input: Tensor, op: str) -> None:  # noqa: A002
    # PyTorch's checkDimRange(2, 4): a 1-d pooling takes (C, L) or (N, C, L).
    n = input._data.ndim
    if n not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {n}-dimensional tensor for argument #1 'self' "
            f"(while checking arguments for {op}) (Fix: {op} takes (N, C, L) or (C, L))"
        )


def _one(values: list[int], op: str, what: str) -> int:
    # PyTorch's check1d.
    if len(values) != 1:
        raise RuntimeError(f"{op}() argument '{what}' should contain one int (got {len(values)})")
    return values[0]


def max_pool1d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """The largest value of each ``kernel_size`` window along the last dim (stride defaults
    to the kernel size); with ``return_indices``, also where each maximum was."""
    op = "max_pool1d"
    expect_tensor(input, op)
    k = _int_list(kernel_size, op, "kernel_size", 2)
    s = k if stride is None else _int_list(stride, op, "stride", 3)
    p = _int_list(padding, op, "padding", 4)
    d = _int_list(dilation, op, "dilation", 5)
    if return_indices:
        _check_dims(input, op)
        k1, s1 = _one(k, op, "kernel_size"), _one(s, op, "stride")
        p1, d1 = _one(p, op, "padding"), _one(d, op, "dilation")
        x = input.unsqueeze(-2)
        out, index = cf.max_pool2d(x, (1, k1), (1, s1), (0, p1), (1, d1), ceil_mode, True)
        return out.squeeze(-2), index.squeeze(-2)
    _check_max_pool1d(input, k, s if stride is not None else [], p, d, ceil_mode)
    if not (input.requires_grad and is_grad_enabled()) and not input._dtype.is_floating_point:
        # (PyTorch runs a kernel without indices where no gradient is wanted)
        raise NotImplementedError(
            f"\"max_pool1d_impl\" not implemented for '{input._dtype._legacy[:-6]}'"
        )
    x = input.unsqueeze(-2)
    return cf.max_pool2d(x, (1, k[0]), (1, s[0]), (0, p[0]), (1, d[0]), ceil_mode).squeeze(-2)


def _check_max_pool1d(
    input: Tensor, k: list[int], s: list[int], p: list[int], d: list[int],  # noqa: A002
    ceil_mode: bool,
) -> None:  # fmt: skip
    # PyTorch's check_max_pool1d, check by check (s is [] for stride=None).
    shape = input._data.shape
    ndim = len(shape)
    if not ((ndim == 2 and 0 not in shape) or (ndim == 3 and 0 not in shape[1:])):
        raise RuntimeError(
            "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
            f"for input, but got:{list(shape)}"
        )
    for values, what, kinds in (
        (k, "kernel_size", "an int, list of ints or tuple of ints"),
        (s, "stride", "None, an int, list of ints, or tuple of ints"),
        (p, "padding", "an int, list of ints, or tuple of ints"),
        (d, "dilation", "an int, list of ints or tuple of ints"),
    ):
        if len(values) != 1 and not (what == "stride" and not values):
            raise RuntimeError(
                f"max_pool1d() {what} must be {kinds} of size 1 but got size {len(values)}"
            )
    kk, ss, pp, dd = k[0], (s or k)[0], p[0], d[0]
    if kk <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {kk}")
    if ss <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {ss}")
    if pp < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {pp}")
    if pp > kk // 2:
        raise RuntimeError(
            "max_pool1d() padding should be at most half of kernel size, but got "
            f"padding={pp} and kernel_size={kk}"
        )
    if dd <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {dd}")
    out = conv_ops.pool_out_size(shape[-1], kk, ss, pp, dd, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")


def avg_pool1d(
    input: Tensor,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """The mean of each ``kernel_size`` window along the last dim (stride defaults to the
    kernel size); zero padding counts towards the mean unless ``count_include_pad=False``."""
    op = "avg_pool1d"
    expect_tensor(input, op)
    k = _int_list(kernel_size, op, "kernel_size", 2)
    s = k if stride is None else _int_list(stride, op, "stride", 3)
    p = _int_list(padding, op, "padding", 4)
    _check_dims(input, op)
    k1, s1, p1 = _one(k, op, "kernel_size"), _one(s, op, "stride"), _one(p, op, "padding")
    x = input.unsqueeze(-2)
    return cf.avg_pool2d(x, (1, k1), (1, s1), (0, p1), ceil_mode, count_include_pad).squeeze(-2)


@parsed(
    "adaptive_avg_pool1d",
    "Tensor input, tuple of ints output_size, *, Tensor out=None",
)
def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """Average over ``output_size`` windows that tile the last dim; output size 1 is a mean
    over it (``MeanBackward1``)."""
    op = "adaptive_avg_pool1d"
    expect_tensor(input, op)
    size = _int_list(output_size, op, "output_size", 2)
    _check_dims(input, op)
    out = cf.adaptive_avg_pool2d(input.unsqueeze(-2), (1, _one(size, op, "output_size")))
    return out.squeeze(-2)


def adaptive_max_pool1d(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """The largest value of each of ``output_size`` windows that tile the last dim; with
    ``return_indices``, also where each maximum was."""
    op = "adaptive_max_pool1d"
    expect_tensor(input, op)
    size = _int_list(output_size, op, "output_size", 2)
    _check_dims(input, op)
    o = _one(size, op, "output_size")
    _check_not_empty(input, op)
    out, index = _adaptive_max(input.unsqueeze(-2), (1, o))
    return (out.squeeze(-2), index.squeeze(-2)) if return_indices else out.squeeze(-2)


def adaptive_max_pool2d(
    input: Tensor,  # noqa: A002
    output_size: Any,
    return_indices: bool = False,
) -> Any:
    """The largest value of each of ``output_size`` windows that tile the last two dims
    (``None`` keeps a dim's size; ``AdaptiveMaxPool2DBackward0``); with ``return_indices``,
    also where each maximum was, as ``h * W + w`` in its plane."""
    shape: Any = input.size()  # (first, as in PyTorch: a list raises its AttributeError here)
    if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
        size = [int(output_size)] * 2
    else:
        if len(shape) <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        size = [n if v is None else v for v, n in zip(output_size, shape[-len(output_size) :])]
    if len(shape) not in (3, 4):
        raise RuntimeError(
            f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(shape)}"
        )
    _check_not_empty(input, "adaptive_max_pool2d")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    out, index = _adaptive_max(input, (size[0], size[1]))
    return (out, index) if return_indices else out


def _check_not_empty(input: Tensor, op: str) -> None:  # noqa: A002
    shape = input._data.shape
    for i in range(1, len(shape)):
        if shape[i] <= 0:
            raise RuntimeError(
                f"{op}(): Expected input to have non-zero size for non-batch dimensions, but "
                f"input has sizes {list(shape)} with dimension {i} being empty"
            )


def _adaptive_max(x: Tensor, size: tuple[int, int]) -> tuple[Tensor, Tensor]:
    if size[0] < 0 or size[1] < 0:
        shape = [*x._data.shape[:-2], *size]
        bad = next(v for v in size if v < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {shape}")
    if not x._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"adaptive_max_pool2d\" not implemented for '{x._dtype._legacy[:-6]}'"
        )
    index = pool_ops.adaptive_max_pool2d_indices(x._data, size)
    return pool_ops.AdaptiveMaxPool2D.apply(x, index), plain_tensor(index, x._device)

"""``Conv1d``, ``Conv2d`` and ``Conv3d``: learnable filters slid over a signal, an image or a
volume."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from microtorch.dtypes import dtype as dtype_
from microtorch.nn import functional as F
from microtorch.nn import init
from microtorch.nn.linear import _empty
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor

__all__ = ["Conv1d", "Conv2d", "Conv3d"]


def _ntuple(value: Any, n: int) -> tuple[Any, ...]:
    # PyTorch's _single / _pair: an iterable becomes a tuple, anything else is repeated.
    if isinstance(value, Iterable) and not isinstance(value, str):
        return tuple(value)
    return (value,) * n


class _ConvNd(Module):
    """What ``Conv1d``, ``Conv2d`` and ``Conv3d`` share: PyTorch's checks, parameters, init
    and repr."""

    _dims = 0

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        n = self._dims
        kernel_size, stride, dilation = (_ntuple(v, n) for v in (kernel_size, stride, dilation))
        if not isinstance(padding, str):
            padding = _ntuple(padding, n)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        # (sets built as PyTorch builds them, so the messages list them in the same order)
        if isinstance(padding, str):
            strings = {"same", "valid"}
            if padding not in strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in modes:
            raise ValueError(
                f"padding_mode must be one of {modes}, but got padding_mode='{padding_mode}'"
            )
        if padding_mode != "zeros":
            raise NotImplementedError(
                f"microtorch does not cover padding_mode='{padding_mode}' of torch.nn."
                f"{type(self).__name__} (use the default padding_mode='zeros', or pad the input "
                "yourself with torch.cat before a convolution with padding=0)"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = False
        self.output_padding = (0,) * n
        self.groups = groups
        self.padding_mode = padding_mode
        shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(_empty(shape, dtype, device))
        if bias:
            self.bias = Parameter(_empty((out_channels,), dtype, device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: weight by ``kaiming_uniform_(a=sqrt(5))``, which is
        U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in = in_channels / groups * kernel
        elements; the bias from the same range."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_channels // self.groups * math.prod(self.kernel_size)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNd):
    """y[n, o, t] = bias[o] + sum over c, k of w[o, c, k] x[n, c, t s + k d] (stride s,
    dilation d, after zero padding): ``(N, C_in, L)`` to ``(N, C_out, L')``."""

    _dims = 1

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        return F.conv1d(
            input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )


class Conv2d(_ConvNd):
    """y[n, o, i, j] = bias[o] + sum over c, a, b of w[o, c, a, b] x[n, c, i s + a d, j s + b d]
    (stride s, dilation d, after zero padding): ``(N, C_in, H, W)`` to ``(N, C_out, H', W')``.

    >>> import microtorch as torch
    >>> torch.nn.Conv2d(1, 6, 5)
    Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
    """

    _dims = 2

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.conv2d(
            input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )


class Conv3d(_ConvNd):
    """``Conv2d`` over three spatial dims: ``(N, C_in, D, H, W)`` to ``(N, C_out, D', H', W')``."""

    _dims = 3

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.conv3d(
            input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )

"""``ConvTranspose1d``, ``ConvTranspose2d`` and ``ConvTranspose3d``: learnable transposed
convolutions (the gradient of a convolution with respect to its input), which upsample."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from microtorch.dtypes import dtype as dtype_
from microtorch.nn import conv_transpose_functions as ctf
from microtorch.nn import init
from microtorch.nn.conv import _ntuple
from microtorch.nn.linear import _empty
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Size, Tensor

__all__ = ["ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]


class _ConvTransposeNd(Module):
    """What the three share: PyTorch's checks, parameters (``weight`` is
    ``(in_channels, out_channels / groups, *kernel_size)``), init, repr and ``output_size``."""

    _dims = 0

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: Any = 1,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__()
        n = self._dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride, n)
        self.padding = _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.transposed = True
        self.output_padding = _ntuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        shape = (in_channels, out_channels // groups, *self.kernel_size)
        self.weight = Parameter(_empty(shape, dtype, device))
        if bias:
            self.bias = Parameter(_empty((out_channels,), dtype, device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: weight by ``kaiming_uniform_(a=sqrt(5))``, the bias from
        U(-1/sqrt(fan_in), 1/sqrt(fan_in)), where fan_in is the weight's (its dim 1 times the
        kernel elements: out_channels / groups * kernel elements)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.out_channels // self.groups * math.prod(self.kernel_size)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def _output_padding(self, input: Tensor, output_size: Sequence[int] | None) -> list[int]:  # noqa: A002
        # PyTorch's: the output_padding that gives output_size, which must be reachable.
        if output_size is None:
            return list(self.output_padding)
        n = self._dims
        lead = 2 if input.dim() == n + 2 else 1
        size = list(output_size)
        if len(size) == lead + n:
            size = size[lead:]
        if len(size) != n:
            raise ValueError(
                f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} "
                f"or {lead + n} elements (got {len(size)})"
            )
        low = [
            (input.shape[i + lead] - 1) * s - 2 * p + d * (k - 1) + 1
            for i, (s, p, d, k) in enumerate(
                zip(self.stride, self.padding, self.dilation, self.kernel_size)
            )
        ]
        high = [lo + s - 1 for lo, s in zip(low, self.stride)]
        for want, lo, hi in zip(size, low, high):
            if want < lo or want > hi:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from "
                    f"{low} to {high} (for an input of {Size(input.shape[lead:])})"
                )
        return [want - lo for want, lo in zip(size, low)]

    def forward(self, input: Tensor, output_size: Sequence[int] | None = None) -> Tensor:  # noqa: A002
        output_padding = self._output_padding(input, output_size)
        return ctf._conv_transpose(
            input, self.weight, self.bias, self.stride, self.padding, output_padding,
            self.groups, self.dilation, self._dims,
        )  # fmt: skip

    def extra_repr(self) -> str:
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class ConvTranspose1d(_ConvTransposeNd):
    """y[n, o, i s + k d - p] += x[n, c, i] w[c, o, k]: ``(N, C_in, L)`` to ``(N, C_out, L')``
    with L' = (L - 1) s - 2 p + d (K - 1) + output_padding + 1."""

    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """``ConvTranspose1d`` over two spatial dims: ``(N, C_in, H, W)`` to ``(N, C_out, H', W')``;
    with stride 2 it doubles an image's size, as in a decoder or a GAN's generator.

    >>> import microtorch as torch
    >>> torch.nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1)
    ConvTranspose2d(16, 8, kernel_size=(4, 4), stride=(2, 2), padding=(1, 1))
    """

    _dims = 2


class ConvTranspose3d(_ConvTransposeNd):
    """``ConvTranspose1d`` over three spatial dims: ``(N, C_in, D, H, W)`` to
    ``(N, C_out, D', H', W')``."""

    _dims = 3

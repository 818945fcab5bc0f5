"""More lazy layers (issue 24): ``LazyConv3d``, ``LazyConvTranspose1d``/``2d``/``3d``,
``LazyBatchNorm3d`` and ``LazyInstanceNorm1d``/``2d``/``3d``, built as ``lazy.py``'s are:
uninitialized weights until the first input gives the channel count, then the plain layer."""

from __future__ import annotations

from typing import Any

from microtorch.autograd.grad_mode import no_grad
from microtorch.dtypes import dtype as dtype_
from microtorch.nn.conv import Conv3d
from microtorch.nn.conv_transpose import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from microtorch.nn.lazy import LazyModuleMixin, _features, _LazyConvNd, _LazyNormBase
from microtorch.nn.normalization import BatchNorm3d
from microtorch.nn.normalization_more import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from microtorch.nn.parameter import UninitializedParameter
from microtorch.tensor import Tensor

__all__ = [
    "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d",
    "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d",
]  # fmt: skip


class LazyConv3d(_LazyConvNd, Conv3d):
    """``Conv3d`` whose ``in_channels`` is the channel count of the first input."""

    cls_to_become = Conv3d


class _LazyConvTransposeNd(LazyModuleMixin):
    _dims: int
    weight: Any
    bias: Any
    groups: int
    kernel_size: tuple[int, ...]

    def __init__(
        self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
        output_padding: Any = 0, groups: int = 1, bias: bool = True, dilation: Any = 1,
        padding_mode: str = "zeros", device: Any = None, dtype: dtype_ | None = None,
    ) -> None:  # fmt: skip
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                         dilation, padding_mode)  # fmt: skip
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()  # type: ignore[misc]

    def initialize_parameters(self, input: Tensor, *args: Any) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            with no_grad():
                batched = isinstance(input, Tensor) and input._data.ndim == self._dims + 2
                self.in_channels = _features(input, 1 if batched else 0)
                if self.in_channels % self.groups != 0:
                    raise ValueError("in_channels must be divisible by groups")
                # (a transposed convolution's weight is (in, out / groups, *kernel))
                shape = (self.in_channels, self.out_channels // self.groups, *self.kernel_size)
                self.weight.materialize(shape)
                if self.bias is not None:
                    self.bias.materialize((self.out_channels,))
                self.reset_parameters()


class LazyConvTranspose1d(_LazyConvTransposeNd, ConvTranspose1d):
    """``ConvTranspose1d`` whose ``in_channels`` is the channel count of the first input."""

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTransposeNd, ConvTranspose2d):
    """``ConvTranspose2d`` whose ``in_channels`` is the channel count of the first input."""

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTransposeNd, ConvTranspose3d):
    """``ConvTranspose3d`` whose ``in_channels`` is the channel count of the first input."""

    cls_to_become = ConvTranspose3d


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """``BatchNorm3d`` whose ``num_features`` is the channel count of the first input."""

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """``InstanceNorm1d`` whose ``num_features`` is ``input.size(1)`` of the first input
    (as in PyTorch, also for an unbatched input)."""

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """``InstanceNorm2d`` whose ``num_features`` is ``input.size(1)`` of the first input."""

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """``InstanceNorm3d`` whose ``num_features`` is ``input.size(1)`` of the first input."""

    cls_to_become = InstanceNorm3d

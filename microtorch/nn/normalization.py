"""Normalization layers: ``BatchNorm1d``, ``BatchNorm2d``, ``LayerNorm`` and ``GroupNorm``.

Batch norm keeps running estimates of each channel's mean and variance as buffers
(``running_mean``, ``running_var``, ``num_batches_tracked``): saved in ``state_dict``, moved by
``.to()``, but not learnable. Training updates them; ``eval()`` uses them instead of the
batch's statistics.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from microtorch.device import as_device
from microtorch.dtypes import dtype as dtype_
from microtorch.dtypes import get_default_dtype
from microtorch.nn import functional as F
from microtorch.nn import init
from microtorch.nn.linear import _empty
from microtorch.nn.module import Module
from microtorch.nn.norm_functions import check_batch_norm
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm", "BatchNorm3d"]  # (3d: walkc)


def register_affine(
    module: Module, shape: tuple[int, ...], affine: bool, bias: bool, dtype: dtype_ | None,
    device: Any,
) -> None:  # fmt: skip
    """The learnable ``weight`` and ``bias`` of a normalization layer (each ``None`` where
    left out), uninitialized until ``reset_affine``."""
    weight = Parameter(_empty(shape, dtype, device)) if affine else None
    module.register_parameter("weight", weight)
    module.register_parameter(
        "bias", Parameter(_empty(shape, dtype, device)) if affine and bias else None
    )


def reset_affine(module: Module) -> None:
    """Weight 1 and bias 0 (PyTorch's default), where the layer has them."""
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class _BatchNorm(Module):
    """What ``BatchNorm1d`` and ``BatchNorm2d`` share (PyTorch's ``_NormBase``/``_BatchNorm``)."""

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        register_affine(self, (num_features,), affine, bias, dtype, device)
        if track_running_stats:
            where = as_device(device)
            floats = (dtype or get_default_dtype()).numpy
            self.register_buffer(
                "running_mean", plain_tensor(np.zeros(num_features, floats), where)
            )
            self.register_buffer("running_var", plain_tensor(np.ones(num_features, floats), where))
            count = plain_tensor(np.array(0, np.int64), where)
            self.register_buffer("num_batches_tracked", count)
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """Running mean 0, running variance 1, no batches seen."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """Fresh running statistics; weight 1 and bias 0 (PyTorch's default)."""
        self.reset_running_stats()
        reset_affine(self)

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        self._check_input_dim(input)
        # batch statistics in training, and in eval when there are no running ones
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        mean = self.running_mean if keep else None
        var = self.running_var if keep else None
        # (checked before the batch is counted: unlike PyTorch's, a call that fails changes
        # nothing)
        check_batch_norm(input, mean, var, self.weight, self.bias, use_batch, self.eps)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative moving average: every batch counts alike
                factor = 1.0 / float(self.num_batches_tracked)
        return F.batch_norm(input, mean, var, self.weight, self.bias, use_batch, factor, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(_BatchNorm):
    """Normalize each feature of ``(N, C)`` (or ``(N, C, L)``) input over the batch, then
    scale and shift it: y = (x - mean) / sqrt(var + eps) * weight + bias."""

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Normalize each channel of ``(N, C, H, W)`` input over the batch and the positions,
    then scale and shift it: y = (x - mean) / sqrt(var + eps) * weight + bias.

    >>> import microtorch as torch
    >>> torch.nn.BatchNorm2d(6)
    BatchNorm2d(6, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    """

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Normalize each channel of ``(N, C, D, H, W)`` input over the batch and the voxels,
    then scale and shift it."""

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class LayerNorm(Module):
    """Normalize each sample over its last dims (``normalized_shape``), then scale and shift
    element-wise: y = (x - mean) / sqrt(var + eps) * weight + bias."""

    def __init__(
        self,
        normalized_shape: Any,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        register_affine(self, self.normalized_shape, elementwise_affine, bias, dtype, device)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight 1 and bias 0 (PyTorch's default)."""
        reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}"
        )


class GroupNorm(Module):
    """Normalize each sample's groups of channels (``num_groups`` groups of
    ``num_channels / num_groups``), then scale and shift each channel: no running statistics,
    the same in training and evaluation."""

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        register_affine(self, (num_channels,), affine, bias, dtype, device)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight 1 and bias 0 (PyTorch's default)."""
        reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
            f"bias={self.bias is not None}"
        )

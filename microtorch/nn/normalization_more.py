"""``RMSNorm`` and ``InstanceNorm1d/2d/3d``: normalization per sample (over its last dims)
and per sample and channel (over its spatial dims)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.device import as_device
from microtorch.dtypes import dtype as dtype_
from microtorch.dtypes import get_default_dtype
from microtorch.nn import init
from microtorch.nn import norm_more_functions as nmf
from microtorch.nn.linear import _empty
from microtorch.nn.module import Module
from microtorch.nn.normalization import register_affine, reset_affine
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["RMSNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


class RMSNorm(Module):
    """y = x / sqrt(mean(x^2) + eps) * weight over the last dims (``normalized_shape``);
    ``weight`` starts at 1. ``eps=None`` uses the dtype's machine epsilon."""

    def __init__(
        self, normalized_shape: int | Sequence[int], eps: float | None = None,
        elementwise_affine: bool = True, device: Any = None, dtype: dtype_ | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            self.normalized_shape: tuple[int, ...] = (int(normalized_shape),)
        else:
            self.normalized_shape = tuple(normalized_shape)  # type: ignore[arg-type]
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_empty(self.normalized_shape, dtype, device))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight 1 (PyTorch's default)."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return nmf.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
        )


class _InstanceNorm(Module):
    """What the three instance norms share (PyTorch's ``_InstanceNorm``): no affine
    parameters and no running statistics unless asked for."""

    _spatial = 0

    def __init__(
        self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
        affine: bool = False, track_running_stats: bool = False, device: Any = None,
        dtype: dtype_ | None = None, *, bias: bool = True,
    ) -> None:  # fmt: skip
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
        """Fresh running statistics; weight 1 and bias 0."""
        self.reset_running_stats()
        reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        ndim = input.dim()
        if ndim not in (self._spatial + 1, self._spatial + 2):
            raise ValueError(
                f"expected {self._spatial + 1}D or {self._spatial + 2}D input (got {ndim}D input)"
            )
        feature_dim = ndim - (self._spatial + 1)
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({self.num_features}), but got: {input.size(feature_dim)}."
                )
            warn(
                f"input's size at dim={feature_dim} does not match num_features. You can "
                "silence this warning by not passing in num_features, which is not used because "
                "affine=False",
            )
        unbatched = ndim == self._spatial + 1
        x = input.unsqueeze(0) if unbatched else input
        out = nmf.instance_norm(
            x, self.running_mean, self.running_var, self.weight, self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0, self.eps,
        )  # fmt: skip
        return out.squeeze(0) if unbatched else out

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )


class InstanceNorm1d(_InstanceNorm):
    """Each channel of each ``(N, C, L)`` (or ``(C, L)``) sample normalized over its length."""

    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """Each channel of each ``(N, C, H, W)`` sample normalized over its pixels (style
    transfer's normalization).

    >>> import microtorch as torch
    >>> torch.nn.InstanceNorm2d(3, affine=True)
    InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)
    """

    _spatial = 2


class InstanceNorm3d(_InstanceNorm):
    """Each channel of each ``(N, C, D, H, W)`` sample normalized over its voxels."""

    _spatial = 3

"""Lazy layers: ``LazyLinear``, ``LazyConv1d``, ``LazyConv2d``, ``LazyBatchNorm1d``,
``LazyBatchNorm2d``. They learn their input size from the first batch they see.

Until then the weights are ``UninitializedParameter``s (printed ``<UninitializedParameter>``).
The first call materializes them with the size of the batch's features. It draws their
initial values as the layer's ``reset_parameters`` does, and then the module becomes the
plain layer: ``LazyLinear(10)`` is a ``Linear(in_features=20, ...)``. ``load_state_dict``
sizes them from the saved tensors instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd.grad_mode import no_grad
from microtorch.dtypes import dtype as dtype_
from microtorch.nn.conv import Conv1d, Conv2d
from microtorch.nn.linear import Linear
from microtorch.nn.module import Module
from microtorch.nn.normalization import BatchNorm1d, BatchNorm2d
from microtorch.nn.parameter import UninitializedBuffer, UninitializedParameter
from microtorch.nn.parameter import UninitializedTensorMixin as Uninitialized
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyBatchNorm1d",
    "LazyBatchNorm2d",
]  # fmt: skip


def _infer_parameters(module: Any, args: tuple[Any, ...]) -> None:
    # The forward pre-hook of a lazy module: size the weights from the first input, then
    # become the plain layer (and drop this hook).
    module.initialize_parameters(*args)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    module._initialize_hook.remove()
    del module._initialize_hook
    module.__class__ = module.cls_to_become


class LazyModuleMixin:
    """What every lazy layer shares: the hook that initializes it on its first call."""

    cls_to_become: type[Module]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters)  # type: ignore[attr-defined]

    def has_uninitialized_params(self) -> bool:
        """True while a parameter or buffer still waits for its shape."""
        tensors = [*self._parameters.values(), *self._buffers.values()]  # type: ignore[attr-defined]
        return any(isinstance(t, Uninitialized) for t in tensors)

    def initialize_parameters(self, *args: Any) -> None:
        """Materialize the weights for an input like ``args[0]`` (each layer its own)."""
        raise NotImplementedError


def _features(input: Tensor, dim: int) -> int:  # noqa: A002
    if not isinstance(input, Tensor) or input._data.ndim <= dim:
        raise IndexError("tuple index out of range")
    return int(input._data.shape[dim])


class LazyLinear(LazyModuleMixin, Linear):
    """``Linear`` whose ``in_features`` is the last size of the first input.

    >>> import microtorch as torch
    >>> layer = torch.nn.LazyLinear(3)
    >>> layer.weight
    <UninitializedParameter>
    >>> layer(torch.ones(2, 4)).shape, layer
    (microtorch.Size([2, 3]), Linear(in_features=4, out_features=3, bias=True))
    """

    cls_to_become = Linear
    weight: Any
    bias: Any

    def __init__(
        self, out_features: int, bias: bool = True, device: Any = None, dtype: dtype_ | None = None
    ) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args: Any) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = _features(input, -1)
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:  # sized by load_state_dict: the input must fit
            if input._data.shape[-1] != self.weight._data.shape[-1]:
                raise AssertionError(
                    f"The in_features inferred from input: {input._data.shape[-1]} is not "
                    f"equal to in_features from self.weight: {self.weight._data.shape[-1]}"
                )
            self.in_features = input._data.shape[-1]


class _LazyConvNd(LazyModuleMixin):
    _dims: int
    weight: Any
    bias: Any
    groups: int
    kernel_size: tuple[int, ...]

    def __init__(
        self,
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
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode)
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
                # (N, C, ...) or, unbatched, (C, ...)
                batched = isinstance(input, Tensor) and input._data.ndim == self._dims + 2
                self.in_channels = _features(input, 1 if batched else 0)
                if self.in_channels % self.groups != 0:
                    raise ValueError("in_channels must be divisible by groups")
                shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
                self.weight.materialize(shape)
                if self.bias is not None:
                    self.bias.materialize((self.out_channels,))
                self.reset_parameters()


class LazyConv1d(_LazyConvNd, Conv1d):
    """``Conv1d`` whose ``in_channels`` is the channel count of the first input."""

    cls_to_become = Conv1d


class LazyConv2d(_LazyConvNd, Conv2d):
    """``Conv2d`` whose ``in_channels`` is the channel count of the first input."""

    cls_to_become = Conv2d


class _LazyNormBase(LazyModuleMixin):
    weight: Any
    bias: Any

    def __init__(
        self,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__(0, eps, momentum, False, False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = plain_tensor(np.array(0, np.int64))

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()  # type: ignore[misc]

    def initialize_parameters(self, input: Tensor, *args: Any) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            self.num_features = _features(input, 1)
            for t in (self.weight, self.bias, self.running_mean, self.running_var):
                if isinstance(t, Uninitialized):
                    t.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """``BatchNorm1d`` whose ``num_features`` is the channel count of the first input."""

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """``BatchNorm2d`` whose ``num_features`` is the channel count of the first input."""

    cls_to_become = BatchNorm2d

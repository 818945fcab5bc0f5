"""More pooling layers (issue 24): ``AvgPool3d``, ``MaxPool3d``, ``AdaptiveAvgPool3d``,
``AdaptiveMaxPool3d``, ``LPPool1d``/``2d``/``3d``, ``MaxUnpool1d``/``2d``/``3d``, and
``LocalResponseNorm``."""

from __future__ import annotations

from typing import Any

from microtorch.nn import pool3d_functions as p3
from microtorch.nn.conv import _ntuple
from microtorch.nn.module import Module
from microtorch.nn.pooling import _AdaptiveAvgPoolNd, _AdaptiveMaxPoolNd, _MaxPoolNd
from microtorch.tensor import Tensor

__all__ = [
    "AvgPool3d", "MaxPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d",
    "LPPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "LocalResponseNorm",
]  # fmt: skip


class AvgPool3d(Module):
    """The mean of each ``kernel_size`` window over (D, H, W)."""

    def __init__(
        self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
        count_include_pad: bool = True, divisor_override: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return p3.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                             self.count_include_pad, self.divisor_override)  # fmt: skip

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool3d(_MaxPoolNd):
    """The largest value of each ``kernel_size`` window over (D, H, W)."""

    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return p3.max_pool3d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )  # fmt: skip


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Average pooling of (D, H, W) to a fixed ``output_size``."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return p3.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling of (D, H, W) to a fixed ``output_size``."""

    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return p3.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _LPPoolNd(Module):
    def __init__(
        self, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
    ) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
            f"ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPoolNd):
    """The p-norm (sum x^p) ** (1 / p) of each window along the last dim."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return p3.lp_pool1d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """The p-norm of each window of the last two dims."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return p3.lp_pool2d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool3d(_LPPoolNd):
    """The p-norm of each window of the last three dims."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return p3.lp_pool3d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class _MaxUnpoolNd(Module):
    _dims = 0

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self._dims)
        self.stride = _ntuple(stride if stride is not None else kernel_size, self._dims)
        self.padding = _ntuple(padding, self._dims)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """The inverse of ``MaxPool1d(return_indices=True)``: values back in place, zeros around."""

    _dims = 1

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        return p3.max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding,
                               output_size)  # fmt: skip


class MaxUnpool2d(_MaxUnpoolNd):
    """The inverse of ``MaxPool2d(return_indices=True)``."""

    _dims = 2

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        return p3.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding,
                               output_size)  # fmt: skip


class MaxUnpool3d(_MaxUnpoolNd):
    """The inverse of ``MaxPool3d(return_indices=True)``."""

    _dims = 3

    def forward(self, input: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        return p3.max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding,
                               output_size)  # fmt: skip


class LocalResponseNorm(Module):
    """Each value divided by (k + alpha * mean square over ``size`` neighbouring channels)
    ** beta."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return p3.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"

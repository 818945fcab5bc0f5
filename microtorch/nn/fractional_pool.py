"""``nn.FractionalMaxPool2d`` and ``nn.FractionalMaxPool3d`` (issue 24): max pooling at random
fractional steps (see ``fractional_pool_functions.py``), with PyTorch 2.13's checks."""

from __future__ import annotations

from typing import Any

from microtorch.nn import fractional_pool_functions as fp
from microtorch.nn.conv import _ntuple
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = ["FractionalMaxPool2d", "FractionalMaxPool3d"]


class _FractionalMaxPoolNd(Module):
    _dims = 0

    def __init__(
        self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
        return_indices: bool = False, _random_samples: Tensor | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        n, name = self._dims, type(self).__name__
        self.kernel_size = _ntuple(kernel_size, n)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)  # (fixed windows, if given)
        self.output_size = _ntuple(output_size, n) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(
                f"{name} requires specifying either an output size, or a pooling ratio"
            )
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(
            0 < self.output_ratio[d] < 1 for d in range(n)
        ):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """The largest value of ``kernel_size`` windows at random fractional steps over (H, W)."""

    _dims = 2

    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return fp.fractional_max_pool2d(
            input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
            _random_samples=self._random_samples,
        )  # fmt: skip


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """``FractionalMaxPool2d`` over (T, H, W)."""

    _dims = 3

    def __init__(
        self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
        return_indices: bool = False, _random_samples: Tensor | None = None,
    ) -> None:  # fmt: skip
        if (isinstance(kernel_size, int) and kernel_size <= 0) or (
            isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size)
        ):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        super().__init__(kernel_size, output_size, output_ratio, return_indices, _random_samples)

    def forward(self, input: Tensor) -> Any:  # noqa: A002
        return fp.fractional_max_pool3d(
            input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
            _random_samples=self._random_samples,
        )  # fmt: skip

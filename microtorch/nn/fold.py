"""``Unfold`` and ``Fold``: sliding windows of an image as columns (im2col), and back."""

from __future__ import annotations

from typing import Any

from microtorch.nn import fold_functions
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = ["Fold", "Unfold"]


class Unfold(Module):
    """``(N, C, H, W)`` -> ``(N, C * kh * kw, L)``: each sliding window as a column."""

    def __init__(
        self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
    ) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return fold_functions.unfold(input, self.kernel_size, self.dilation, self.padding,
                                     self.stride)  # fmt: skip

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
            f"stride={self.stride}"
        )


class Fold(Module):
    """``(N, C * kh * kw, L)`` -> ``(N, C, *output_size)``: columns summed back into place."""

    def __init__(
        self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
        stride: Any = 1,
    ) -> None:  # fmt: skip
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return fold_functions.fold(input, self.output_size, self.kernel_size, self.dilation,
                                   self.padding, self.stride)  # fmt: skip

    def extra_repr(self) -> str:
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
            f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}"
        )

"""``Linear`` (y = x W^T + b) and ``Identity``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch.api.arguments import parser_error
from microtorch.device import as_device
from microtorch.dtypes import dtype as dtype_
from microtorch.dtypes import get_default_dtype
from microtorch.nn import init
from microtorch.nn.linear_functions import linear
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["Linear", "Identity"]


def _empty(shape: tuple[int, ...], dtype: dtype_ | None, device: Any) -> Tensor:

    message = parser_error("empty", ["tuple of ints size"], (shape,), {})  # (torch.empty's)
    if message is not None:  # Linear(4, 4.0): "... but found element of type float at pos 0"
        raise TypeError(message)
    if min(shape) < 0:
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}"
        )
    data = np.zeros(shape, (dtype or get_default_dtype()).numpy)
    return plain_tensor(data, as_device(device))


class Linear(Module):
    """y = x @ weight.T + bias, with ``weight`` of shape (out_features, in_features).

    Initialised as PyTorch does: weight ~ U(-1/sqrt(in), 1/sqrt(in)) via
    ``kaiming_uniform_(a=sqrt(5))``, and the same range for the bias.
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_empty((out_features, in_features), dtype, device))
        if bias:
            self.bias = Parameter(_empty((out_features,), dtype, device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh initial values (PyTorch's default scheme)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Identity(Module):
    """Returns its input unchanged (a placeholder layer)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return input

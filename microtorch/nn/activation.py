"""Activation layers: ``ReLU``, ``LeakyReLU``, ``GELU``, ``Sigmoid``, ``Tanh``, ``Softmax`` ..."""

from __future__ import annotations

from microtorch.api import unary
from microtorch.nn import functional as F
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = ["ReLU", "LeakyReLU", "GELU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax"]


class ReLU(Module):
    """max(x, 0) element-wise."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """x where x > 0, else ``negative_slope * x``."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """x * Phi(x), Phi the standard normal CDF; ``approximate='tanh'`` uses PyTorch's tanh
    formula for Phi. The transformer's activation."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Sigmoid(Module):
    """1 / (1 + exp(-x)) element-wise."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return unary.sigmoid(input)  # torch.sigmoid, as in PyTorch (F.sigmoid is x.sigmoid())


class Tanh(Module):
    """tanh(x) element-wise."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return unary.tanh(input)


class Softmax(Module):
    """exp(x) / sum(exp(x)) along ``dim``: each slice becomes probabilities."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """log(softmax(x)) along ``dim``, computed stably."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.log_softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"

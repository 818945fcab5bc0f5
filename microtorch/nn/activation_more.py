"""Activation layers ``GLU``, ``Hardshrink``, ``Softshrink``, ``Threshold``, ``RReLU`` and
``Softmax2d`` (issue 24)."""

from __future__ import annotations

from microtorch.api import reduction as red
from microtorch.nn import shrink_functions as sf
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = ["GLU", "Hardshrink", "Softshrink", "Threshold", "RReLU", "Softmax2d"]


class GLU(Module):
    """a * sigmoid(b) for the two halves a, b of the input along ``dim``."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        return sf.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Hardshrink(Module):
    """x where |x| > lambd, else 0."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return sf.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return sf.softshrink(input, self.lambd)


class Threshold(Module):
    """x where x > threshold, else value."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return sf.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace}"


class RReLU(Module):
    """Leaky ReLU with a random slope in [lower, upper] per element while training, and
    (lower + upper) / 2 in ``eval()`` mode."""

    def __init__(
        self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False
    ) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return sf.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace}"


class Softmax2d(Module):
    """Softmax over the channels at each position of a ``(N, C, H, W)`` or ``(C, H, W)``
    input (dim -3)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.dim() not in (3, 4):
            raise ValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead"
            )
        return red.softmax(input, -3, None)

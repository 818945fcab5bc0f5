"""Padding and distance layers: ``ZeroPad1d``, ``ZeroPad2d``, ``ConstantPad1d``,
``ConstantPad2d``, ``CosineSimilarity`` and ``PairwiseDistance`` (each calls its
``nn.functional`` counterpart)."""

from __future__ import annotations

from typing import Any

from microtorch.nn import functional as F
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = [
    "ConstantPad1d", "ConstantPad2d", "ZeroPad1d", "ZeroPad2d", "CosineSimilarity",
    "PairwiseDistance",
]  # fmt: skip


class _ConstantPadNd(Module):
    _widths = 0  # numbers in ``padding``: 2 per padded dimension

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__()
        self.padding = (padding,) * self._widths if isinstance(padding, int) else tuple(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """``value`` on both sides of the last dimension: ``padding`` is n or (left, right)."""

    _widths = 2


class ConstantPad2d(_ConstantPadNd):
    """``value`` around the last two dimensions: ``padding`` is n or (left, right, top,
    bottom)."""

    _widths = 4


class ZeroPad1d(ConstantPad1d):
    """Zeros on both sides of the last dimension."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Zeros around the last two dimensions (an image's border)."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class CosineSimilarity(Module):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """||x1 - x2 + eps||_p along the last dimension."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)

"""Padding and distance layers: ``ZeroPad1d``, ``ZeroPad2d``, ``ConstantPad1d``,
``ConstantPad2d``, ``ReflectionPad1d`` ... ``ReplicationPad3d`` ... ``CircularPad3d``,
``CosineSimilarity`` and ``PairwiseDistance`` (each calls its ``nn.functional``
counterpart)."""

from __future__ import annotations

from typing import Any

from microtorch.nn import functional as F
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = [
    "ConstantPad1d", "ConstantPad2d", "ZeroPad1d", "ZeroPad2d", "CosineSimilarity",
    "PairwiseDistance", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
    "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d", "CircularPad2d",
    "CircularPad3d",
    # --- walkc
    "ConstantPad3d", "ZeroPad3d",
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


class ConstantPad3d(_ConstantPadNd):
    """``value`` around the last three dimensions: ``padding`` is n or (left, right, top,
    bottom, front, back)."""

    _widths = 6


class ZeroPad3d(ConstantPad3d):
    """Zeros around the last three dimensions."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CopyPadNd(Module):
    """Padding that copies input values into the border (``F.pad``'s other modes)."""

    _widths = 0  # numbers in ``padding``: 2 per padded dimension
    _mode = ""

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = (padding,) * self._widths if isinstance(padding, int) else tuple(padding)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_CopyPadNd):
    """Mirror the last dimension at its ends (without repeating the edge value)."""

    _widths, _mode = 2, "reflect"


class ReflectionPad2d(_CopyPadNd):
    """Mirror an image at its borders: ``padding`` is n or (left, right, top, bottom)."""

    _widths, _mode = 4, "reflect"


class ReflectionPad3d(_CopyPadNd):
    """Mirror the last three dimensions at their ends."""

    _widths, _mode = 6, "reflect"


class ReplicationPad1d(_CopyPadNd):
    """Repeat the edge values of the last dimension."""

    _widths, _mode = 2, "replicate"


class ReplicationPad2d(_CopyPadNd):
    """Repeat an image's border pixels outwards."""

    _widths, _mode = 4, "replicate"


class ReplicationPad3d(_CopyPadNd):
    """Repeat the edge values of the last three dimensions."""

    _widths, _mode = 6, "replicate"


class _CircularPadNd(_CopyPadNd):
    _mode = "circular"

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        low = self._widths // 2 + 1  # (unbatched) dims PyTorch's layer accepts
        if input.dim() not in (low, low + 1):
            raise ValueError(f"expected {low}D or {low + 1}D input (got {input.dim()}D input)")
        return F.pad(input, self.padding, self._mode)


class CircularPad1d(_CircularPadNd):
    """Wrap the last dimension around: the left border is the right end's values."""

    _widths = 2


class CircularPad2d(_CircularPadNd):
    """Wrap an image around at its borders (a torus)."""

    _widths = 4


class CircularPad3d(_CircularPadNd):
    """Wrap the last three dimensions around."""

    _widths = 6


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

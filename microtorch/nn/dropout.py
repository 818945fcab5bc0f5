"""``Dropout`` and ``Dropout1d``/``2d``/``3d``: randomly zero activations (or whole channels)
while training; do nothing in ``eval()`` mode."""

from __future__ import annotations

from microtorch.nn import functional as F
from microtorch.nn.alpha_dropout import alpha_dropout, feature_alpha_dropout
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = [
    "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
    # --- walkc
    "AlphaDropout", "FeatureAlphaDropout",
]  # fmt: skip


class Dropout(Module):
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p).

    The scaling keeps the expected value unchanged, so ``eval()`` can simply pass the input
    through.
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout2d(Dropout):
    """Zero each whole channel (``x[n, c]``, a feature map) with probability ``p`` and scale
    the rest by 1 / (1 - p): neighbouring pixels are correlated, so dropping single ones
    would hardly regularize a convolutional network."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout1d(Dropout):
    """Zero each whole channel of ``(N, C, L)`` or ``(C, L)`` input with probability ``p``
    and scale the rest by 1 / (1 - p)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout3d(Dropout):
    """Zero each whole channel of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input with
    probability ``p`` and scale the rest by 1 / (1 - p)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.dropout3d(input, self.p, self.training, self.inplace)


# --- walkc
class AlphaDropout(Dropout):
    """Dropout for SELU networks: dropped values become SELU's saturation value and the
    result is rescaled to keep the input's mean and variance (training only)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(Dropout):
    """``AlphaDropout`` of whole channels ``x[n, c]`` (training only)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return feature_alpha_dropout(input, self.p, self.training)

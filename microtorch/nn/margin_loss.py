"""Margin and embedding loss modules: ``MarginRankingLoss``, ``HingeEmbeddingLoss``,
``CosineEmbeddingLoss``, ``TripletMarginLoss``, ``SoftMarginLoss``, ``MultiMarginLoss`` and
``MultiLabelMarginLoss``. Each calls its ``nn.functional`` counterpart with its settings."""

from __future__ import annotations

from microtorch.nn import margin_loss_functions as mlf
from microtorch.nn.loss import _Loss, _WeightedLoss
from microtorch.tensor import Tensor

__all__ = [
    "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
    "SoftMarginLoss", "MultiMarginLoss", "MultiLabelMarginLoss",
]  # fmt: skip


class MarginRankingLoss(_Loss):
    """max(0, -y (x1 - x2) + margin)."""

    def __init__(
        self, margin: float = 0.0, size_average: bool | None = None, reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:  # fmt: skip
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return mlf.margin_ranking_loss(input1, input2, target, self.margin,
                                       reduction=self.reduction)  # fmt: skip


class HingeEmbeddingLoss(_Loss):
    """x where y = 1, max(0, margin - x) where y = -1."""

    def __init__(
        self, margin: float = 1.0, size_average: bool | None = None, reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:  # fmt: skip
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return mlf.hinge_embedding_loss(input, target, self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1."""

    def __init__(
        self, margin: float = 0.0, size_average: bool | None = None, reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:  # fmt: skip
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return mlf.cosine_embedding_loss(input1, input2, target, self.margin,
                                         reduction=self.reduction)  # fmt: skip


class TripletMarginLoss(_Loss):
    """max(0, d(anchor, positive) - d(anchor, negative) + margin), d the p-norm distance."""

    def __init__(
        self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6, swap: bool = False,
        size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean",
    ) -> None:  # fmt: skip
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead"
            )
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return mlf.triplet_margin_loss(anchor, positive, negative, self.margin, self.p,
                                       self.eps, self.swap, reduction=self.reduction)  # fmt: skip


class SoftMarginLoss(_Loss):
    """log(1 + exp(-y x)) for targets y of +-1."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return mlf.soft_margin_loss(input, target, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """The multi-class hinge loss (``p`` 1 or 2; ``weight`` per class, a buffer)."""

    def __init__(
        self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
        size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean",
    ) -> None:  # fmt: skip
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(
                f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D "
                "instead"
            )
        self.p, self.margin = p, margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return mlf.multi_margin_loss(input, target, self.p, self.margin, self.weight,
                                     reduction=self.reduction)  # fmt: skip


class MultiLabelMarginLoss(_Loss):
    """Target classes (listed before the first -1) should score 1 above all the others."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return mlf.multilabel_margin_loss(input, target, reduction=self.reduction)

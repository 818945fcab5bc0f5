"""Loss modules: ``MSELoss``, ``L1Loss``, ``SmoothL1Loss``, ``HuberLoss``, ``CrossEntropyLoss``,
``NLLLoss``, ``BCELoss``, ``BCEWithLogitsLoss``. Each calls its ``nn.functional`` counterpart
with its settings."""

from __future__ import annotations

from microtorch.nn import functional as F
from microtorch.nn.loss_functions import legacy_reduction
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = [
    "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
    "BCEWithLogitsLoss", "KLDivLoss",
]  # fmt: skip


class _Loss(Module):
    def __init__(
        self, size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean"
    ) -> None:
        super().__init__()
        # the deprecated size_average/reduce become a reduction, with PyTorch's warning
        self.reduction = legacy_reduction(size_average, reduce, reduction)


class _WeightedLoss(_Loss):
    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)  # saved in state_dict, as in PyTorch
        self.weight: Tensor | None


class MSELoss(_Loss):
    """Mean squared error: mean((input - target)**2)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error: mean(|input - target|)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error for small differences (|d| < beta), absolute error beyond."""

    def __init__(
        self,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
        beta: float = 1.0,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error for small differences (|d| <= delta), delta times absolute error beyond."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of the target classes, on log-probabilities."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        ignore_index: int = -100,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.nll_loss(
            input, target, self.weight, ignore_index=self.ignore_index, reduction=self.reduction
        )


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy on raw scores (logits): ``log_softmax`` then ``nll_loss``."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        ignore_index: int = -100,
        reduce: bool | None = None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.cross_entropy(
            input,
            target,
            self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    """Binary cross entropy on probabilities (after a sigmoid)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy on raw scores, with the sigmoid built in (numerically stable)."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)
        self.weight: Tensor | None
        self.pos_weight: Tensor | None

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, reduction=self.reduction, pos_weight=self.pos_weight
        )


class KLDivLoss(_Loss):
    """KL divergence of the target distribution from the input's (log-probabilities)."""

    def __init__(
        self,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
        log_target: bool = False,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)

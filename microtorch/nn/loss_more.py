"""Loss modules ``PoissonNLLLoss``, ``GaussianNLLLoss``, ``MultiLabelSoftMarginLoss``,
``TripletMarginWithDistanceLoss``, ``CTCLoss`` and the deprecated ``NLLLoss2d`` (issue 24)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from microtorch._warn import warn
from microtorch.nn import ctc_functions
from microtorch.nn import loss_more_functions as lmf
from microtorch.nn.loss import NLLLoss, _Loss, _WeightedLoss
from microtorch.nn.padding import PairwiseDistance
from microtorch.tensor import Tensor

__all__ = [
    "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss",
    "TripletMarginWithDistanceLoss", "NLLLoss2d", "CTCLoss",
]  # fmt: skip


class PoissonNLLLoss(_Loss):
    """Negative log-likelihood of a Poisson target: exp(input) - target * input."""

    def __init__(
        self, log_input: bool = True, full: bool = False, size_average: bool | None = None,
        eps: float = 1e-8, reduce: bool | None = None, reduction: str = "mean",
    ) -> None:  # fmt: skip
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return lmf.poisson_nll_loss(log_input, target, log_input=self.log_input,
                                    full=self.full, eps=self.eps,
                                    reduction=self.reduction)  # fmt: skip


class GaussianNLLLoss(_Loss):
    """Negative log-likelihood of a Gaussian target: (log var + (input - target)^2 / var) / 2."""

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:  # noqa: A002
        return lmf.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                     reduction=self.reduction)  # fmt: skip


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Binary cross entropy of each class's logit, averaged over the classes."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return lmf.multilabel_soft_margin_loss(input, target, weight=self.weight,
                                               reduction=self.reduction)  # fmt: skip


class TripletMarginWithDistanceLoss(_Loss):
    """max(0, d(a, p) - d(a, n) + margin) for a distance function d (default
    ``PairwiseDistance()``, registered as a submodule when it is a module, as in PyTorch)."""

    def __init__(
        self, *, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0, swap: bool = False, reduction: str = "mean",
    ) -> None:  # fmt: skip
        super().__init__(None, None, reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                f"{margin} instead"
            )
        self.distance_function: Any = (
            distance_function if distance_function is not None else PairwiseDistance()
        )
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return lmf.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction,
        )  # fmt: skip


class NLLLoss2d(NLLLoss):
    """Deprecated: ``NLLLoss`` under its old name, with PyTorch's FutureWarning."""

    def __init__(
        self, weight: Tensor | None = None, size_average: bool | None = None,
        ignore_index: int = -100, reduce: bool | None = None, reduction: str = "mean",
    ) -> None:  # fmt: skip
        warn(
            "`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in "
            "replacement and see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for "
            "more details.",
            FutureWarning,
        )
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class CTCLoss(_Loss):
    """The Connectionist Temporal Classification loss (``F.ctc_loss``) as a layer."""

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(
        self, log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any
    ) -> Tensor:
        return ctc_functions.ctc_loss(log_probs, targets, input_lengths, target_lengths,
                                      self.blank, self.reduction, self.zero_infinity)  # fmt: skip

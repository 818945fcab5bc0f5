"""``torch.kl_div``, ``torch.dropout``, ``torch.rrelu``, ``torch.threshold`` ...: the losses,
dropouts and activations as PyTorch's ``torch`` namespace has them, with its own (aten)
signatures.

They differ from ``nn.functional``'s in their arguments only: ``reduction`` is an int (0 none,
1 mean, 2 sum; any other number means none, as in PyTorch), ``torch.dropout(input, p, train)``
needs all three and raises ``RuntimeError`` for a bad ``p``, and ``torch.kl_div``'s mean gives
no warning. Each one calls ``nn.functional``'s function, so the values, gradients and
``grad_fn`` names are its.
"""

from __future__ import annotations

import warnings
from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.inplace import apply_inplace
from microtorch.nn import ctc_functions, loss_more_functions, margin_loss_functions, shrink_ops
from microtorch.nn import functional as F
from microtorch.nn import shrink_functions as shrink
from microtorch.tensor import Tensor

__all__ = [
    "alpha_dropout", "alpha_dropout_", "binary_cross_entropy_with_logits",
    "cosine_embedding_loss", "ctc_loss", "dropout", "dropout_", "feature_alpha_dropout",
    "feature_alpha_dropout_", "hinge_embedding_loss", "kl_div", "margin_ranking_loss",
    "poisson_nll_loss", "rrelu", "rrelu_", "threshold", "threshold_", "triplet_margin_loss",
]  # fmt: skip

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}
# PyTorch's schemas say ``int reduction=1`` (Mean), but its Python binding reads that default
# as 0: an omitted reduction gives the losses element by element. microtorch does the same.
_OMITTED = 0
_MISSING: Any = object()  # (an argument PyTorch requires, so its own error can be raised)


def _required(op: str, **given: Any) -> None:
    """PyTorch's TypeError (its words, its plural) for required arguments not given."""
    missing = [name for name, value in given.items() if value is _MISSING]
    if missing:
        plural = "s" if len(missing) == 1 else ""  # (sic: PyTorch's text)
        names = ", ".join(f'"{name}"' for name in missing)
        raise TypeError(
            f"{op}() missing {len(missing)} required positional argument{plural}: {names}"
        )


def _reduction(reduction: Any, op: str, position: int) -> str:
    """aten's int reduction as F's string (PyTorch reads any other int as none)."""
    if isinstance(reduction, bool) or not isinstance(reduction, int):
        raise TypeError(
            f"{op}(): argument 'reduction' (position {position}) must be int, not "
            f"{type(reduction).__name__} (Fix: 0 for 'none', 1 for 'mean', 2 for 'sum')"
        )
    return _REDUCTIONS.get(reduction, "none")


@parsed(
    "binary_cross_entropy_with_logits",
    (
        "Tensor input, Tensor target, Tensor weight=None, Tensor pos_weight=None, int reduction=1, "
        "*, Tensor out=None"
    ),
)
def binary_cross_entropy_with_logits(
    input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
    pos_weight: Tensor | None = None, reduction: int = _OMITTED,
) -> Tensor:  # fmt: skip
    """``F.binary_cross_entropy_with_logits``."""
    mode = _reduction(reduction, "binary_cross_entropy_with_logits", 5)
    return F.binary_cross_entropy_with_logits(
        input, target, weight, reduction=mode, pos_weight=pos_weight
    )


@parsed(
    "cosine_embedding_loss",
    "Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1",
)
def cosine_embedding_loss(
    input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, reduction: int = _OMITTED
) -> Tensor:
    """``F.cosine_embedding_loss``."""
    mode = _reduction(reduction, "cosine_embedding_loss", 5)
    return margin_loss_functions.cosine_embedding_loss(
        input1, input2, target, margin, reduction=mode
    )


@parsed("ctc_loss", *ctc_functions.SIGNATURES)
def ctc_loss(
    log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any, blank: int = 0,
    reduction: int = _OMITTED, zero_infinity: bool = False,
) -> Tensor:  # fmt: skip
    """``F.ctc_loss``; lengths as lists of ints or as integer tensors."""
    return ctc_functions.aten_ctc_loss(
        log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity
    )


@parsed(
    "hinge_embedding_loss",
    "Tensor input, Tensor target, float margin=1., int reduction=1",
)
def hinge_embedding_loss(
    input: Tensor,
    target: Tensor,
    margin: float = 1.0,
    reduction: int = _OMITTED,  # noqa: A002
) -> Tensor:
    """``F.hinge_embedding_loss``."""
    mode = _reduction(reduction, "hinge_embedding_loss", 4)
    return margin_loss_functions.hinge_embedding_loss(input, target, margin, reduction=mode)


@parsed(
    "margin_ranking_loss",
    "Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1",
)
def margin_ranking_loss(
    input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, reduction: int = _OMITTED
) -> Tensor:
    """``F.margin_ranking_loss``."""
    mode = _reduction(reduction, "margin_ranking_loss", 5)
    return margin_loss_functions.margin_ranking_loss(input1, input2, target, margin, reduction=mode)


@parsed(
    "triplet_margin_loss",
    (
        "Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2., "
        "float eps=9.9999999999999995e-07, bool swap=False, int reduction=1"
    ),
)
def triplet_margin_loss(
    anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2.0,
    eps: float = 1e-6, swap: bool = False, reduction: int = _OMITTED,
) -> Tensor:  # fmt: skip
    """``F.triplet_margin_loss``."""
    mode = _reduction(reduction, "triplet_margin_loss", 8)
    return margin_loss_functions.triplet_margin_loss(
        anchor, positive, negative, margin, p, eps, swap, reduction=mode
    )


@parsed(
    "poisson_nll_loss",
    "Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction",
)
def poisson_nll_loss(
    input: Tensor, target: Tensor, log_input: bool = _MISSING,  # noqa: A002
    full: bool = _MISSING, eps: float = _MISSING, reduction: int = _MISSING,
) -> Tensor:  # fmt: skip
    """``F.poisson_nll_loss`` (every argument required, as in PyTorch)."""
    _required("poisson_nll_loss", log_input=log_input, full=full, eps=eps, reduction=reduction)
    mode = _reduction(reduction, "poisson_nll_loss", 6)
    return loss_more_functions.poisson_nll_loss(
        input, target, log_input, full, eps=eps, reduction=mode
    )


@parsed(
    "kl_div",
    "Tensor input, Tensor target, int reduction=1, *, bool log_target=False",
)
def kl_div(
    input: Tensor,
    target: Tensor,
    reduction: int = _OMITTED,
    *,
    log_target: bool = False,  # noqa: A002
) -> Tensor:
    """``F.kl_div``; its 'mean' (reduction=1) without F's warning about 'batchmean'."""
    mode = _reduction(reduction, "kl_div", 3)
    with warnings.catch_warnings():  # (F warns about its string default; torch.kl_div does not)
        warnings.simplefilter("ignore", UserWarning)
        return F.kl_div(input, target, reduction=mode, log_target=log_target)


def _dropout_args(op: str, input: Any, p: Any, train: Any) -> None:  # noqa: A002
    """PyTorch's checks of a ``torch.*dropout(input, p, train)``, in its order."""
    expect_tensor(input, op)
    _required(op, p=p, train=train)
    if not 0.0 <= p <= 1.0:
        # (C++ prints the double as %g does: 2.0 as 2)
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")


def dropout(
    input: Tensor,
    p: float = _MISSING,
    train: bool = _MISSING,  # noqa: A002
) -> Tensor:
    """``F.dropout(input, p, train)``; not training, ``input`` itself."""
    _dropout_args("dropout", input, p, train)
    return F.dropout(input, p, train)


def dropout_(
    input: Tensor,
    p: float = _MISSING,
    train: bool = _MISSING,  # noqa: A002
) -> Tensor:
    """``dropout``, written into ``input``; returns it."""
    _dropout_args("dropout_", input, p, train)
    return F.dropout(input, p, train, inplace=True)


def alpha_dropout(
    input: Tensor,
    p: float = _MISSING,
    train: bool = _MISSING,  # noqa: A002
) -> Tensor:
    """``F.alpha_dropout(input, p, train)``."""
    _dropout_args("alpha_dropout", input, p, train)
    return F.alpha_dropout(input, p, train)


def alpha_dropout_(
    input: Tensor,
    p: float = _MISSING,
    train: bool = _MISSING,  # noqa: A002
) -> Tensor:
    """``alpha_dropout``, written into ``input``; returns it."""
    _dropout_args("alpha_dropout_", input, p, train)
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout(
    input: Tensor,
    p: float = _MISSING,
    train: bool = _MISSING,  # noqa: A002
) -> Tensor:
    """``F.feature_alpha_dropout(input, p, train)``: whole channels."""
    _dropout_args("feature_alpha_dropout", input, p, train)
    return F.feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(
    input: Tensor,
    p: float = _MISSING,
    train: bool = _MISSING,  # noqa: A002
) -> Tensor:
    """``feature_alpha_dropout``, written into ``input``; returns it."""
    _dropout_args("feature_alpha_dropout_", input, p, train)
    return F.feature_alpha_dropout(input, p, train, inplace=True)


def rrelu(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
    training: bool = False, generator: Any = None,
) -> Tensor:  # fmt: skip
    """``F.rrelu``, its slopes drawn from ``generator`` (default: the seeded generator)."""
    expect_tensor(input, "rrelu")
    noise = shrink.rrelu_noise(input, lower, upper, training, generator)
    return shrink_ops.RreluWithNoise.apply(input, noise)


def rrelu_(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
    training: bool = False, generator: Any = None,
) -> Tensor:  # fmt: skip
    """``rrelu``, written into ``input``; returns it."""
    expect_tensor(input, "rrelu_")
    noise = shrink.rrelu_noise(input, lower, upper, training, generator)
    return apply_inplace(input, "rrelu_", shrink_ops.RreluWithNoise_.apply, noise)


def threshold(
    input: Tensor,
    threshold: float = _MISSING,
    value: float = _MISSING,  # noqa: A002
) -> Tensor:
    """``F.threshold``: x where x > threshold, else value."""
    _required("threshold", threshold=threshold, value=value)
    return F.threshold(input, threshold, value)


def threshold_(
    input: Tensor,
    threshold: float = _MISSING,
    value: float = _MISSING,  # noqa: A002
) -> Tensor:
    """``threshold``, written into ``input``; returns it."""
    _required("threshold_", threshold=threshold, value=value)
    return F.threshold_(input, threshold, value)

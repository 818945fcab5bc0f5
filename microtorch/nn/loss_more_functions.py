"""``poisson_nll_loss``, ``gaussian_nll_loss``, ``multilabel_soft_margin_loss``,
``triplet_margin_with_distance_loss`` and ``pdist`` (issue 24).

The losses are written with tensor ops, as PyTorch writes them, so they record the same
nodes; ``pdist`` is one node, ``PdistBackward0``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from microtorch.api import elementwise as ew
from microtorch.api._checks import expect_tensor
from microtorch.autograd.function import NumpyFunction
from microtorch.autograd.grad_mode import no_grad
from microtorch.nn import activation_functions as af
from microtorch.nn.loss_functions import legacy_reduction
from microtorch.nn.margin_loss_functions import _reduced
from microtorch.nn.vector_functions import pairwise_distance
from microtorch.ops.linalg_factor import pnorm_grad
from microtorch.ops.scalar import AddScalar
from microtorch.tensor import Tensor

__all__ = [
    "poisson_nll_loss", "gaussian_nll_loss", "multilabel_soft_margin_loss",
    "triplet_margin_with_distance_loss", "pdist",
]  # fmt: skip


def poisson_nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average: bool | None = None,
    eps: float = 1e-8,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """exp(input) - target * input (``log_input``), or input - target * log(input + eps);
    ``full`` adds Stirling's term target log target - target + log(2 pi target) / 2 where
    target > 1."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):  # (checked in Python: no 'elementwise_mean')
        raise ValueError(f"{reduction} is not a valid value for reduction")
    expect_tensor(input, "poisson_nll_loss")
    expect_tensor(target, "poisson_nll_loss", "target", 2)
    if log_input:
        loss = input.exp() - target * input
    else:  # (eps added as a number: AddBackward1, as in PyTorch)
        loss = input - target * AddScalar.apply(input, eps).log()
    if full:
        stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduced(loss, reduction)


def gaussian_nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    var: Tensor | float,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """(log(var) + (input - target)^2 / var) / 2, var clamped below at eps (outside the
    graph); ``full`` adds log(2 pi) / 2. ``var`` may lack the last dim or have size 1 in
    one dim (one variance shared)."""
    if not isinstance(var, Tensor):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        v = ew.mul(input.new_ones(input.shape), var)  # (var * torch.ones_like(input))
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    else:
        v = var
    if v.shape != input.shape:
        if tuple(input.shape[:-1]) == tuple(v.shape):
            v = v.unsqueeze(-1)
        elif input.dim() != v.dim() or sum(b for a, b in zip(input.shape, v.shape) if a != b) != 1:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    v = v.clone()
    with no_grad():
        v.clamp_(min=eps)
    loss = (v.log() + (input - target) ** 2 / v) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


def multilabel_soft_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """-(y log sigmoid(x) + (1 - y) log sigmoid(-x)), averaged over the classes (last dim)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    loss = -(target * af.logsigmoid(input) + (1 - target) * af.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduced(loss, reduction)


def triplet_margin_with_distance_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    *,
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """max(0, d(a, p) - d(a, n) + margin) for any distance function d (default
    ``pairwise_distance``); ``swap`` uses min(d(a, n), d(p, n))."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, p, n = anchor.dim(), positive.dim(), negative.dim()
    if not a == p == n:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {a}D, positive {p}D, and negative {n}D inputs"
        )
    distance = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = ew.minimum(dist_neg, distance(positive, negative))
    return _reduced((margin + dist_pos - dist_neg).clamp_min(0), reduction)


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    # the rows i < j of each pair, in pdist's order (row by row of the upper triangle)
    return np.triu_indices(n, 1)


def _norms(diff: np.ndarray, p: float) -> np.ndarray:
    if p == 0:
        return (diff != 0).sum(-1).astype(diff.dtype)
    if math.isinf(p):
        return np.abs(diff).max(-1, initial=0)
    return (np.abs(diff) ** p).sum(-1) ** (1 / p)


class Pdist(NumpyFunction):
    """d_k = ||x_i - x_j||_p for the k-th pair i < j, so dd_k/dx_i = sign(diff) |diff|^(p-1)
    / d^(p-1) (diff = x_i - x_j; 0 where d = 0 or p = 0; for p = inf, sign(diff) where
    |diff| = d) and dd_k/dx_j is its negative (see ``pnorm_grad``)."""

    node_name = "PdistBackward0"
    # PyTorch has no second derivative of it: differentiating the gradient raises its error
    double_backward_name = "PdistBackwardBackward0"
    missing_derivative = "'_pdist_backward'"
    ctx_fields = ("p",)

    @staticmethod
    def forward(ctx, x, p):
        ctx.save_for_backward(x)
        ctx.p = p
        i, j = _pairs(x.shape[0])
        return _norms(x[i] - x[j], p)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        p = ctx.p
        i, j = _pairs(x.shape[0])
        diff = x[i] - x[j]  # (pairs, M)
        g = pnorm_grad(grad_output[:, None], diff, _norms(diff, p)[:, None], p)
        grad = np.zeros_like(x)
        np.add.at(grad, i, g)
        np.add.at(grad, j, -g)
        return grad


def pdist(input: Tensor, p: float = 2) -> Tensor:  # noqa: A002
    """The p-norm distances between all pairs of rows of an (N, M) input, i < j, row by row:
    N (N - 1) / 2 values."""
    expect_tensor(input, "pdist")
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input._dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes (Fix: x.float())")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return Pdist.apply(input, float(p))

"""``F.gumbel_softmax``: a differentiable sample from a categorical distribution."""

from __future__ import annotations

from microtorch._warn import warn
from microtorch.api._checks import expect_tensor
from microtorch.tensor import Tensor

__all__ = ["gumbel_softmax"]


def gumbel_softmax(
    logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1
) -> Tensor:
    """softmax((logits + g) / tau) with Gumbel noise g = -log(E), E ~ Exponential(1), drawn
    as PyTorch draws it (``exponential_`` then ``log``; the numbers are microtorch's own).
    ``hard=True`` returns the one-hot of the sample's largest entry, with the soft sample's
    gradient (straight-through: y_hard - y_soft.detach() + y_soft)."""
    expect_tensor(logits, "empty_like")  # (where PyTorch first needs a tensor)
    if eps != 1e-10:
        warn("`eps` parameter is deprecated and has no effect.")
    gumbels = -logits.new_empty(logits.shape).exponential_().log()  # ~Gumbel(0, 1)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = logits.new_zeros(logits.shape).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft

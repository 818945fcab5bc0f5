"""The margin and embedding losses of ``nn.functional``: ``margin_ranking_loss``,
``hinge_embedding_loss``, ``cosine_embedding_loss``, ``triplet_margin_loss``,
``soft_margin_loss``, ``multi_margin_loss`` and ``multilabel_margin_loss``.

The first four are written with tensor ops, as PyTorch writes them in C++, so they record
the same nodes (``ClampMinBackward0``, ``WhereBackward0``...); the last three are one node
each (``margin_loss_ops.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import elementwise as ew
from microtorch.api import reduction as red
from microtorch.api._checks import expect_tensor
from microtorch.nn import margin_loss_ops
from microtorch.nn.loss_functions import _check_reduction, legacy_reduction
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.scalar import AddScalar, SubScalar
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss", "triplet_margin_loss",
    "soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss",
]  # fmt: skip


def _reduced(losses: Tensor, reduction: str) -> Tensor:
    # PyTorch's apply_loss_reduction: MeanBackward0, SumBackward0, or the losses themselves
    if reduction == "mean":
        return red.mean(losses)
    return red.sum(losses) if reduction == "sum" else losses


def _reduction(size_average: Any, reduce: Any, reduction: str) -> str:
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    return reduction


def _scalar_like(value: float, like: Tensor) -> Tensor:
    # a 0-d constant, as PyTorch's C++ ``scalar - tensor`` wraps one (its SubBackward0 has
    # an edge for it: None)
    return plain_tensor(plain_tensor(value)._data.astype(like._data.dtype), like._device)


def _distance(x1: Tensor, x2: Tensor, p: float, eps: float) -> Tensor:
    # F.pairwise_distance as PyTorch's C++ writes it: eps added as a number (AddBackward1)
    return AddScalar.apply(x1 - x2, eps).norm(p, -1)


def margin_ranking_loss(
    input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
    size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """max(0, -y (x1 - x2) + margin): ranks x1 above x2 where y = 1, below where y = -1."""
    reduction = _reduction(size_average, reduce, reduction)
    if not input1.dim() == input2.dim() == target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} "
        )
    losses = AddScalar.apply(-target * (input1 - input2), margin).clamp_min(0)
    return _reduced(losses, reduction)


def hinge_embedding_loss(
    input: Tensor, target: Tensor, margin: float = 1.0,  # noqa: A002
    size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """x where y = 1, max(0, margin - x) where y = -1 (x a distance, y whether the pair is
    alike)."""
    reduction = _reduction(size_average, reduce, reduction)
    expect_tensor(input, "hinge_embedding_loss")
    expect_tensor(target, "hinge_embedding_loss", "target", 2)
    zeros = input.new_zeros(input.shape)
    margin_clamp = (_scalar_like(margin, input) - input).clamp_min(0)
    output_margin = ew.where(target != 1, margin_clamp, zeros)
    output_self = ew.where(target != -1, input, zeros)
    return _reduced(output_margin + output_self, reduction)


def cosine_embedding_loss(
    input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
    size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1 (cos along the
    last dim, its norms kept above 0 by adding 1e-12 to the squared norms)."""
    reduction = _reduction(size_average, reduce, reduction)
    for t, name in ((input1, "input1"), (input2, "input2"), (target, "target")):
        expect_tensor(t, "cosine_embedding_loss", name)
    dim = target.dim()
    if dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if (
        dim == 1
        and (input1.dim() != 2 or input2.dim() != 2)
        or dim == 0
        and (input1.dim() != 1 or input2.dim() != 1)
    ):
        raise RuntimeError(
            f"{dim + 1}D target tensor expects {dim + 1}D input tensors, but found inputs with "
            f"sizes {list(input1.shape)} and {list(input2.shape)}."
        )
    eps = 1e-12
    prod_sum = red.sum(input1 * input2, dim)
    mag_square1 = AddScalar.apply(red.sum(input1 * input1, dim), eps)
    mag_square2 = AddScalar.apply(red.sum(input2 * input2, dim), eps)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt()
    zeros = cos.new_zeros(cos.shape)
    pos = _scalar_like(1, cos) - cos
    neg = SubScalar.apply(cos, margin).clamp_min(0)
    output_pos = ew.where(target == 1, pos, zeros)
    output_neg = ew.where(target == -1, neg, zeros)
    return _reduced(output_pos + output_neg, reduction)


def triplet_margin_loss(
    anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
    eps: float = 1e-6, swap: bool = False, size_average: bool | None = None,
    reduce: bool | None = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """max(0, d(a, p) - d(a, n) + margin) with d the p-norm distance along the last dim
    (``swap``: d(a, n) replaced by d(p, n) where that is smaller)."""
    reduction = _reduction(size_average, reduce, reduction)
    for t, name in ((anchor, "anchor"), (positive, "positive"), (negative, "negative")):
        expect_tensor(t, "triplet_margin_loss", name)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, pd, nd = anchor.dim(), positive.dim(), negative.dim()
    if not a == pd == nd:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {a}D, positive {pd}D, and negative {nd}D inputs"
        )
    dist_pos = _distance(anchor, positive, p, eps)
    dist_neg = _distance(anchor, negative, p, eps)
    if swap:
        dist_neg = ew.minimum(dist_neg, _distance(positive, negative, p, eps))
    return _reduced((AddScalar.apply(dist_pos, margin) - dist_neg).clamp_min(0), reduction)


def soft_margin_loss(
    input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
    reduce: bool | None = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """log(1 + exp(-y x)) for targets y of +-1: a smooth hinge (``SoftMarginLossBackward0``)."""
    reduction = _reduction(size_average, reduce, reduction)
    expect_tensor(input, "soft_margin_loss")
    expect_tensor(target, "soft_margin_loss", "target", 2)
    x, y = input._data.shape, target._data.shape
    try:
        shape = np.broadcast_shapes(x, y)
    except ValueError:
        raise broadcast_error(x, y) from None
    if shape != x:
        raise NotImplementedError(
            f"microtorch does not cover soft_margin_loss with a target of shape {list(y)} "
            f"larger than the input's {list(x)} (expand the input first)"
        )
    return margin_loss_ops.SoftMarginLoss.apply(input, target.expand(*x), reduction)


def multi_margin_loss(
    input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,  # noqa: A002
    weight: Tensor | None = None, size_average: bool | None = None,
    reduce: bool | None = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """The multi-class hinge loss: sum over wrong classes i of max(0, margin - x[y] + x[i])^p,
    divided by the number of classes (``MultiMarginLossBackward0``)."""
    reduction = _reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    expect_tensor(input, "multi_margin_loss")
    expect_tensor(target, "multi_margin_loss", "target", 2)
    shape = list(input.shape)
    if input.dim() > 2:
        raise RuntimeError(
            f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {shape}"
        )
    n = shape[0] if input.dim() == 2 else 1
    if target.dim() > 1 or target.numel() != n:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{n}], but got "
            f"{list(target.shape)}. Input has shape {shape}."
        )
    if target.dtype.is_floating_point or target.dtype.name == "bool":
        raise RuntimeError(f"expected scalar type Long but found {target.dtype._legacy[:-6]}")
    c = shape[-1] if shape else 1
    if target.numel() and (target._data.min() < 0 or target._data.max() >= c):
        raise RuntimeError("target out of range")
    w = None if weight is None else weight._data.astype(input._data.dtype)
    return margin_loss_ops.MultiMarginLoss.apply(input, target, p, float(margin), w, reduction)


def multilabel_margin_loss(
    input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
    reduce: bool | None = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """Each sample's target classes (``target``'s entries before its first -1) should score
    at least 1 above every other class: sum of max(0, 1 - x[j] + x[i]) / C
    (``MultilabelMarginLossBackward0``)."""
    reduction = _reduction(size_average, reduce, reduction)
    expect_tensor(input, "multilabel_margin_loss")
    expect_tensor(target, "multilabel_margin_loss", "target", 2)
    if input.dim() > 2 or input.shape != target.shape:
        raise RuntimeError(
            f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}"
        )
    if target.dtype.is_floating_point or target.dtype.name == "bool":
        raise RuntimeError(f"expected scalar type Long but found {target.dtype._legacy[:-6]}")
    c = input.shape[-1] if input.dim() else 1
    if target.numel() and (target._data.min() < -1 or target._data.max() >= c):
        raise RuntimeError("argument #2 'target' is out of range")
    return margin_loss_ops.MultilabelMarginLoss.apply(input, target, reduction)

"""The loss functions of ``nn.functional``: cross entropy, NLL, MSE, L1 and binary cross entropy.

Each builds the graph PyTorch 2.13 builds: ``cross_entropy`` is ``NllLossBackward0`` over
``LogSoftmaxBackward0``, ``mse_loss`` one ``MseLossBackward0``, ``l1_loss`` a mean of ``abs``.
"""

from __future__ import annotations

import numpy as np

from microtorch._warn import warn
from microtorch.api import elementwise as ew
from microtorch.api import reduction as red
from microtorch.api import unary
from microtorch.api._checks import expect_tensor
from microtorch.api.operands import as_operand
from microtorch.dtypes import result_type
from microtorch.nn import layer_ops, loss_ops
from microtorch.ops._broadcast import broadcast_error
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
    "binary_cross_entropy", "binary_cross_entropy_with_logits",
]  # fmt: skip

_REDUCTIONS = ("mean", "sum", "none")


def legacy_reduction(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    """``reduction`` from the deprecated ``size_average``/``reduce``, as PyTorch maps them
    (both default True: mean; reduce alone: sum; reduce=False: none), with its warning."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    warn(
        f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
    )
    return ret


def _check_reduction(reduction: str) -> str:
    """``reduction``, PyTorch's ValueError for one it does not know, and its warning for the
    old name of "mean" (_Reduction.get_enum: 'elementwise_mean' still works)."""
    if reduction == "elementwise_mean":
        warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
        return "mean"
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _check_class_weight(weight: Tensor | None, input: Tensor) -> None:  # noqa: A002
    # PyTorch's errors: a class weight is data, not something to differentiate, and must
    # have the scores' dtype.
    if weight is None:
        return
    if weight.requires_grad:
        raise RuntimeError(
            "The function 'nll_loss_forward' is not differentiable with respect to argument "
            "'weight'. This input cannot have requires_grad True. (Fix: pass weight.detach().)"
        )
    if weight._dtype is not input._dtype:
        want, got = (d._legacy.removesuffix("Tensor") for d in (input._dtype, weight._dtype))
        raise RuntimeError(
            f"expected scalar type {want} but found {got} (Fix: convert the weight, e.g. "
            "weight.to(scores.dtype))"
        )


def _values(weight: Tensor | None) -> np.ndarray | None:
    return None if weight is None else weight._data


def _constant(value: np.ndarray) -> Tensor:
    return plain_tensor(np.asarray(value))


def _same_size(input: Tensor, target: Tensor) -> None:  # noqa: A002
    for value in (input, target):
        if not isinstance(value, Tensor):  # PyTorch fails here with this AttributeError too
            raise AttributeError(
                f"'{type(value).__name__}' object has no attribute 'size' (Fix: the loss needs "
                "tensors: make it one first, e.g. torch.tensor([1.0, 2.0]))"
            )
    if target._data.shape != input._data.shape:
        warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
        )


def nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """-input[i, target[i]] averaged: the loss on log-probabilities (after ``log_softmax``)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    expect_tensor(input, "nll_loss_nd")
    expect_tensor(target, "nll_loss_nd", "target", 2)
    t, shape = target._data, input._data.shape
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {target._dtype._legacy[:-6]} "
            "(Fix: class-index targets are integers, e.g. target.long())"
        )
    if len(shape) == 2 and t.ndim > 1:
        raise RuntimeError(
            "0D or 1D target tensor expected, multi-target not supported (Fix: the target holds "
            f"one class index per row, shape [{shape[0]}]; e.g. target.view(-1))"
        )
    if len(shape) >= 2 and (t.ndim == 0 or t.shape[0] != shape[0]):
        raise ValueError(
            f"Expected input batch_size ({shape[0]}) to match target batch_size "
            f"({t.shape[0] if t.ndim else 0})."
        )
    if len(shape) > 2 and t.shape[1:] != shape[2:]:
        raise RuntimeError(f"Expected target size {[shape[0], *shape[2:]]}, got {list(t.shape)}")
    _check_class_weight(weight, input)
    args = (_values(weight), reduction, ignore_index)
    if len(shape) <= 2:
        return loss_ops.NllLoss.apply(input, t, *args)
    if len(shape) == 4:
        return loss_ops.NllLoss2d.apply(input, t, *args)
    # Other ranks go through the 4-D form, as in PyTorch: (N, C, 1, -1), then back.
    n, c = shape[:2]
    out = loss_ops.NllLoss2d.apply(input.reshape(n, c, 1, -1), t.reshape(n, 1, -1), *args)
    return out.view(n, *shape[2:]) if reduction == "none" else out


def _along(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    # Per-class weights shaped to broadcast along the class dimension.
    shape = [1] * ndim
    shape[class_dim] = weight._data.shape[0]
    return _constant(weight._data.reshape(shape))


def cross_entropy(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """``nll_loss(log_softmax(input, 1), target)``: the classification loss on raw logits.

    ``target`` holds class indices, or class probabilities with the input's shape.
    """
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    expect_tensor(input, "cross_entropy_loss")
    expect_tensor(target, "cross_entropy_loss", "target", 2)
    if label_smoothing > 1.0:  # (C++'s way of printing a double: 2.0 as "2")
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
    if not label_smoothing > 0.0:  # PyTorch smooths only above 0: -1 (or NaN) is no smoothing
        label_smoothing = 0.0
    class_dim = 0 if input._data.ndim == 1 else 1
    logp = red.log_softmax(input, class_dim)  # stable: the max is subtracted first
    n_classes = input._data.shape[class_dim]
    if target._data.shape == input._data.shape and target._dtype.is_floating_point:
        return _cross_entropy_probs(logp, target, weight, reduction, label_smoothing, class_dim)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return nll
    # PyTorch's label smoothing: mix the NLL with the average of -log p over all classes.
    ignore = target._data == ignore_index
    weighted = logp if weight is None else ew.mul(logp, _along(weight, logp.ndim, class_dim))
    smooth = ew.masked_fill(unary.neg(red.sum(weighted, class_dim)), ignore, 0.0)
    if reduction == "mean":
        if weight is None:
            count = (~ignore).sum()
        else:
            count = weight._data[np.where(ignore, 0, target._data)][~ignore].sum()
        smooth = ew.div(red.sum(smooth), _constant(count))
    elif reduction == "sum":
        smooth = red.sum(smooth)
    return ew.add(
        layer_ops.MulScalar.apply(nll, 1 - label_smoothing),
        layer_ops.MulScalar.apply(smooth, label_smoothing / n_classes),
    )


def _cross_entropy_probs(
    logp: Tensor,
    target: Tensor,
    weight: Tensor | None,
    reduction: str,
    label_smoothing: float,
    class_dim: int,
) -> Tensor:
    # -(sum over classes of p * log q), PyTorch's composite for probability targets.
    n_classes = logp._data.shape[class_dim]
    if label_smoothing > 0:
        target = ew.add(ew.mul(target, 1 - label_smoothing), label_smoothing / n_classes)
    product = ew.mul(logp, target)
    if weight is not None:
        product = ew.mul(product, _along(weight, logp.ndim, class_dim))
    if reduction == "none":
        return unary.neg(red.sum(product, class_dim))
    total = unary.neg(red.sum(product))
    if reduction == "sum":
        return total
    return layer_ops.DivScalar.apply(total, logp._data.size / n_classes)


def mse_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """The mean of (input - target)**2 (``MseLossBackward0``)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    _same_size(input, target)
    both_float = input._dtype.is_floating_point and target._dtype.is_floating_point
    if target._dtype is not input._dtype and not both_float:  # (two floats: numpy promotes)
        common = result_type(input, target)
        input, target = as_operand(input, common), as_operand(target, common)
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"mse_cpu\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: the loss needs "
            "floats, e.g. mse_loss(pred.float(), target.float()))"
        )
    try:
        return loss_ops.MseLoss.apply(input, target, reduction)
    except ValueError:
        raise broadcast_error(input._data.shape, target._data.shape) from None


def l1_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """The mean of |input - target| (a mean of ``AbsBackward0``, as in PyTorch)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    _same_size(input, target)
    losses = unary.abs(ew.sub(input, target))
    if reduction == "none":
        return losses
    return red.sum(losses) if reduction == "sum" else red.mean(losses)


def _broadcastable(input: Tensor, target: Tensor) -> None:  # noqa: A002
    try:
        np.broadcast_shapes(input._data.shape, target._data.shape)
    except ValueError:
        raise broadcast_error(input._data.shape, target._data.shape) from None


def smooth_l1_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta, for d = input - target, then
    averaged (``SmoothL1LossBackward0``); ``beta=0`` is ``l1_loss``, as in PyTorch."""
    _same_size(input, target)
    reduction = legacy_reduction(size_average, reduce, reduction)
    _broadcastable(input, target)
    reduction = _check_reduction(reduction)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    common = result_type(input, target)
    if not common.is_floating_point:
        raise NotImplementedError(
            f"\"smooth_l1_cpu\" not implemented for '{common._legacy[:-6]}' (Fix: the loss "
            "needs floats, e.g. smooth_l1_loss(pred.float(), target.float()))"
        )
    if not (input._dtype.is_floating_point and target._dtype.is_floating_point):
        input, target = as_operand(input, common), as_operand(target, common)
    return loss_ops.SmoothL1Loss.apply(input, target, reduction, float(beta))


def huber_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """0.5 d**2 where |d| <= delta, else delta (|d| - 0.5 delta), for d = input - target,
    then averaged (``HuberLossBackward0``); the losses keep the input's dtype, as in PyTorch.
    ``smooth_l1_loss`` with ``beta=delta`` is this divided by delta."""
    _same_size(input, target)
    _broadcastable(input, target)
    if weight is None:
        reduction = _check_reduction(reduction)
    elif weight._data.shape != input._data.shape:
        raise ValueError("Weights and input must have the same size.")
    common = result_type(input, target)
    if not common.is_floating_point:
        raise NotImplementedError(
            f"\"huber_cpu\" not implemented for '{common._legacy[:-6]}' (Fix: the loss needs "
            "floats, e.g. huber_loss(pred.float(), target.float()))"
        )
    if not input._dtype.is_floating_point:
        raise RuntimeError(
            f"result type {common._legacy[:-6]} can't be cast to the desired output type "
            f"{input._dtype._legacy[:-6]} (Fix: the input needs floats, e.g. pred.float())"
        )
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if not target._dtype.is_floating_point:
        target = as_operand(target, input._dtype)
    if weight is None:
        return loss_ops.HuberLoss.apply(input, target, reduction, float(delta))
    # with weights, PyTorch weighs the unreduced losses, then reduces them
    weighted = ew.mul(loss_ops.HuberLoss.apply(input, target, "none", float(delta)), weight)
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return red.sum(weighted)
    if reduction == "mean":
        return red.mean(weighted)
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def binary_cross_entropy(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """-(y log p + (1 - y) log(1 - p)) on probabilities p (after a sigmoid)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    if target._data.shape != input._data.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    if weight is not None and weight.requires_grad:
        raise RuntimeError(
            "The function 'binary_cross_entropy' is not differentiable with respect to argument "
            "'weight'. This input cannot have requires_grad True. (Fix: pass weight.detach().)"
        )
    if target._dtype is not input._dtype:
        raise RuntimeError(
            f"Found dtype {target._dtype._legacy[:-6]} but expected {input._dtype._legacy[:-6]} "
            "(Fix: the targets need the input's dtype, e.g. target.float())"
        )
    x = input._data
    if x.size and (x.min() < 0 or x.max() > 1 or np.isnan(x).any()):
        raise RuntimeError(
            "all elements of input should be between 0 and 1 (Fix: apply torch.sigmoid first, "
            "or use binary_cross_entropy_with_logits on the raw scores)"
        )
    target = as_operand(target, input._dtype)
    return loss_ops.BinaryCrossEntropy.apply(input, target, _values(weight), reduction)


def binary_cross_entropy_with_logits(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Binary cross entropy on raw scores, with the sigmoid inside: stable for any logit."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    if target._data.shape != input._data.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    if not target._dtype.is_floating_point:
        raise RuntimeError(
            f"result type {input._dtype._legacy[:-6]} can't be cast to the desired output type "
            f"{target._dtype._legacy[:-6]} (Fix: the targets need floats, e.g. target.float())"
        )
    # (the loss has the target's dtype, as in PyTorch: a float64 input, float32 target: float32)
    return loss_ops.BinaryCrossEntropyWithLogits.apply(
        input, target, _values(weight), _values(pos_weight), reduction
    )

"""The ``Function``s behind the losses: negative log-likelihood, mean squared error, and
binary cross entropy (on probabilities and, stably, on logits).

Each op's forward and backward take numpy arrays (``NumpyFunction``). ``reduction`` is
``"mean"``, ``"sum"`` or ``"none"``; the backward scales the incoming gradient to match.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import follow_inputs

__all__ = [
    "NllLoss", "NllLoss2d", "MseLoss", "SmoothL1Loss", "HuberLoss", "BinaryCrossEntropy",
    "BinaryCrossEntropyWithLogits",
]  # fmt: skip


def _reduce(losses: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "none":
        return losses
    total = losses.sum()
    # (sum / n is numpy's mean; an empty mean is 0 / 0 = nan, without numpy's warning)
    return np.asarray(total if reduction == "sum" else total / losses.size, losses.dtype)


def _scale(grad_output: np.ndarray, reduction: str, n: int) -> np.ndarray:
    # d(mean)/d(loss_i) = 1 / n; d(sum)/d(loss_i) = 1; "none" passes each gradient through.
    return grad_output / np.asarray(n, grad_output.dtype) if reduction == "mean" else grad_output


class NllLoss(NumpyFunction):
    """loss_i = -w[t_i] * logp[i, t_i], so dloss_i/dlogp[i, t_i] = -w[t_i] and 0 elsewhere.

    ``logp`` is ``(N, C, ...)`` (or ``(C,)``), ``target`` holds class indices; targets equal
    to ``ignore_index`` count for nothing. The mean divides by the summed weights.
    """

    node_name = "NllLossBackward0"
    double_backward_name = "NllLossBackwardBackward0"
    double_backward_constants = (2,)  # (PyTorch's node: inputs grad_output and logp; weight kept)

    ctx_fields = ("shape", "reduction", "picks")

    @staticmethod
    def forward(ctx, logp, target, weight, reduction, ignore_index):
        x = logp[None] if logp.ndim == 1 else logp  # (N, C, ...)
        index, w, kept = ctx.picks = _picks(target, weight, ignore_index, x)  # (for backward)
        picked = _take(x, index)  # logp[i, t_i]
        losses = np.where(kept, -picked * w, np.zeros((), x.dtype))  # ignored: 0, even if inf
        ctx.save_for_backward(logp, target, weight)  # (logp: PyTorch's self, for its node)
        ctx.shape, ctx.reduction = logp.shape, reduction
        if reduction == "none":
            return losses.reshape(target.shape)
        if reduction == "sum":
            return np.asarray(losses.sum(), x.dtype)
        return np.asarray(losses.sum() / w.sum(), x.dtype)  # all ignored: nan, as PyTorch

    @staticmethod
    def backward(ctx, grad_output):
        ctx.saved_tensors  # noqa: B018 - raises if target or weight changed since forward
        shape = ctx.shape if len(ctx.shape) > 1 else (1, *ctx.shape)
        grad = np.zeros_like(grad_output, shape=shape)
        index, w, kept = ctx.picks  # (what forward picked: the targets are as they were)
        if ctx.reduction == "none":
            coef = -w * grad_output.reshape(w.shape)
        elif ctx.reduction == "sum":
            coef = -w * grad_output
        else:
            coef = -w * (grad_output / w.sum())
        coef = np.where(kept, coef, np.zeros((), coef.dtype))  # (all ignored: 0, not 0 * nan)
        _put(grad, index, coef.astype(grad.dtype))  # grad[i, t_i] = coef_i
        return grad.reshape(ctx.shape)


def _picks(target: np.ndarray, weight: Any, ignore_index: int, x: np.ndarray) -> tuple[Any, ...]:
    # Which class each row picks (an index along dim 1 of x, (N, C, ...)), its weight (w[t_i],
    # or 0 where the target is ignore_index), and where the target is not ignored.
    t = target.reshape(1) if target.ndim == 0 else target  # (N, ...)
    kept = t != ignore_index
    safe = np.where(kept, t, 0)
    bad = (safe < 0) | (safe >= x.shape[1])
    if bad.any():
        raise IndexError(
            f"Target {int(safe[bad].flat[0])} is out of bounds. (Fix: class labels must be "
            f"0..{x.shape[1] - 1} for {x.shape[1]} classes; give the model's last layer one "
            "output per class)"
        )
    w = kept.astype(x.dtype) if weight is None else weight[safe] * kept
    return safe, w, kept


def _take(x: np.ndarray, index: np.ndarray) -> np.ndarray:
    # x[i, index[i, ...], ...]: in each row i, the class index[i] picks
    if x.ndim == 2:
        return x[np.arange(len(index)), index]
    return np.take_along_axis(x, index[:, None], axis=1)[:, 0]


def _put(x: np.ndarray, index: np.ndarray, values: np.ndarray) -> None:
    # x[i, index[i, ...], ...] = values[i, ...]
    if x.ndim == 2:
        x[np.arange(len(index)), index] = values
    else:
        np.put_along_axis(x, index[:, None], values[:, None], axis=1)


class NllLoss2d(NllLoss):
    """The same loss for ``(N, C, H, W)`` inputs (one class score map per image)."""

    node_name = "NllLoss2DBackward0"
    double_backward_name = "NllLoss2DBackwardBackward0"


class MseLoss(NumpyFunction):
    """loss = (a - b)**2 averaged (or summed), so dloss/da = 2 (a - b) / n = -dloss/db."""

    node_name = "MseLossBackward0"
    double_backward_name = "MseLossBackwardBackward0"

    ctx_fields = ("reduction",)

    @staticmethod
    def forward(ctx, a, b, reduction):
        ctx.save_for_backward(a, b)
        ctx.reduction = reduction
        diff = a - b
        return _reduce(diff * diff, reduction)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        diff = a - b
        g = 2 * diff * _scale(grad_output, ctx.reduction, diff.size)
        return unbroadcast(g, a.shape), unbroadcast(-g, b.shape)


class SmoothL1Loss(NumpyFunction):
    """loss = 0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta (d = a - b), so
    dloss/da = d / beta inside, sign(d) outside, and dloss/db = -dloss/da."""

    node_name = "SmoothL1LossBackward0"
    double_backward_name = "SmoothL1LossBackwardBackward0"

    ctx_fields = ("reduction", "beta")

    @staticmethod
    def forward(ctx, a, b, reduction, beta):
        ctx.save_for_backward(a, b)
        ctx.reduction, ctx.beta = reduction, beta
        d = a - b
        size = np.abs(d)
        losses = np.where(size < beta, 0.5 * d * d / beta, size - 0.5 * beta)
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        d = a - b
        slope = np.clip(d / ctx.beta, -1, 1)  # d / beta inside the band, +-1 outside
        g = slope * _scale(grad_output, ctx.reduction, d.size)
        return unbroadcast(g, a.shape), unbroadcast(-g, b.shape)


class HuberLoss(NumpyFunction):
    """loss = 0.5 d**2 where |d| <= delta, else delta (|d| - 0.5 delta) (d = a - b), so
    dloss/da = d inside, delta sign(d) outside, and dloss/db = -dloss/da.

    The losses take ``a``'s dtype (PyTorch writes them into a tensor like the input).
    """

    node_name = "HuberLossBackward0"
    double_backward_name = "HuberLossBackwardBackward0"

    ctx_fields = ("reduction", "delta")

    @staticmethod
    def forward(ctx, a, b, reduction, delta):
        ctx.save_for_backward(a, b)
        ctx.reduction, ctx.delta = reduction, delta
        d = a - b
        size = np.abs(d)
        losses = np.where(size <= delta, 0.5 * d * d, delta * (size - 0.5 * delta))
        return _reduce(losses.astype(a.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        d = a - b
        slope = np.clip(d, -ctx.delta, ctx.delta)  # d inside the band, +-delta outside
        g = slope * _scale(grad_output, ctx.reduction, d.size)
        return unbroadcast(g, a.shape), unbroadcast(-g, b.shape)


def _clamped_log(x: np.ndarray) -> np.ndarray:
    # PyTorch clamps log(p) at -100, so p = 0 gives a large finite loss instead of inf.
    return np.maximum(np.log(x), np.asarray(-100, x.dtype))


class BinaryCrossEntropy(NumpyFunction):
    """loss = -w (y log p + (1 - y) log(1 - p)), so dloss/dp = w (p - y) / (p (1 - p)) and
    dloss/dy = w (log(1 - p) - log p); the logs are clamped at -100 as in PyTorch."""

    node_name = "BinaryCrossEntropyBackward0"
    double_backward_name = "BinaryCrossEntropyBackwardBackward0"
    double_backward_constants = (2,)  # (PyTorch's node: grad_output, p and y; weight kept)

    @staticmethod
    def forward(ctx, p, y, weight, reduction):
        log_p, log_q = _clamped_log(p), _clamped_log(1 - p)
        losses = (y - 1) * log_q - y * log_p  # (in PyTorch's order: its signs of zeros)
        if weight is not None:
            losses = losses * weight
        ctx.save_for_backward(p, y, weight)
        ctx.reduction = reduction
        return _reduce(follow_inputs(losses, p), reduction)  # (laid out as p, as PyTorch)

    @staticmethod
    def backward(ctx, grad_output):
        p, y, weight = ctx.saved_tensors
        g = _scale(grad_output, ctx.reduction, p.size)
        if weight is not None:
            g = g * weight
        eps = np.asarray(1e-12, p.dtype)  # PyTorch's guard against dividing by 0 at p = 0 or 1
        log_p, log_q = _clamped_log(p), _clamped_log(1 - p)
        return g * (p - y) / np.maximum((1 - p) * p, eps), g * (log_q - log_p)


class BinaryCrossEntropyWithLogits(NumpyFunction):
    """loss = (1 - y) x + (1 + (pw - 1) y) softplus(-x), computed without overflow, so
    dloss/dx = (pw y + 1 - y) sigmoid(x) - pw y (= sigmoid(x) - y when pw = 1) and
    dloss/dy = -x + (pw - 1) softplus(-x)."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, x, y, weight, pos_weight, reduction):
        softplus_neg, _ = _softplus_neg_and_sigmoid(x)
        if pos_weight is None:
            losses = (1 - y) * x + softplus_neg
        else:
            losses = (1 - y) * x + (1 + (pos_weight - 1) * y) * softplus_neg
        if weight is not None:
            losses = losses * weight
        ctx.save_for_backward(x, y, weight, pos_weight)
        ctx.reduction = reduction
        return _reduce(losses, reduction).astype(y.dtype)  # in the target's dtype, as PyTorch

    @staticmethod
    def backward(ctx, grad_output):
        x, y, weight, pw = ctx.saved_tensors
        g = _scale(grad_output, ctx.reduction, x.size)
        if weight is not None:
            g = g * weight
        softplus_neg, sigmoid = _softplus_neg_and_sigmoid(x)
        if pw is None:
            gx, gy = sigmoid - y, -x
        else:
            gx = (pw * y + 1 - y) * sigmoid - pw * y
            gy = -x + (pw - 1) * softplus_neg
        return g * gx, g * gy


def _softplus_neg_and_sigmoid(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # log(1 + exp(-x)) and sigmoid(x), from exp(-|x|), which is in (0, 1]: never overflows.
    e = np.exp(-np.abs(x))
    softplus_neg = np.log1p(e) + np.maximum(-x, 0)
    return softplus_neg, np.where(x >= 0, 1 / (1 + e), e / (1 + e))

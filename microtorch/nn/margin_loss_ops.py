"""The ``Function``s behind the margin losses PyTorch computes in one kernel each:
``SoftMarginLossBackward0``, ``MultiMarginLossBackward0`` and
``MultilabelMarginLossBackward0``. (The other margin losses are written with tensor ops in
``margin_loss_functions.py``, as PyTorch writes them.)"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.nn.conv_ops import OptionalInputs
from microtorch.nn.loss_ops import _reduce, _scale

__all__ = ["SoftMarginLoss", "MultiMarginLoss", "MultilabelMarginLoss"]


class SoftMarginLoss(OptionalInputs):
    """loss = log(1 + exp(-y x)) per element, for targets y of +-1, so with z = exp(-y x)
    dloss/dx = -y z / (1 + z) (PyTorch's formula, which gives NaN where z overflows)."""

    node_name = "SoftMarginLossBackward0"
    edges = (0,)  # (the target is data, as in PyTorch: no edge)

    ctx_fields = ("reduction",)

    @staticmethod
    def forward(ctx, x, y, reduction):
        ctx.save_for_backward(x, y)
        ctx.reduction = reduction
        return _reduce(np.log1p(np.exp(-y * x)), reduction)

    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        z = np.exp(-y * x)
        return _scale(grad_output, ctx.reduction, x.size) * (-y * z / (1 + z))


def _rows(x: np.ndarray) -> np.ndarray:
    # (N, C): one sample (a 0-d or 1-d input) becomes a batch of one
    return x if x.ndim == 2 else x.reshape(1, -1)


def _margins(x: np.ndarray, target: np.ndarray, margin: float) -> np.ndarray:
    # (N, C): margin - x[n, y_n] + x[n, i], zero at i = y_n (the target class is skipped)
    picked = np.take_along_axis(x, target[:, None], axis=1)
    z = margin - picked + x
    z[np.arange(x.shape[0]), target] = 0
    return z


class MultiMarginLoss(NumpyFunction):
    """loss_n = sum over i != y_n of w[y_n] max(0, margin - x[n, y_n] + x[n, i])^p / C, for
    p in {1, 2} and C classes, so each positive term z adds w[y_n] p z^(p-1) / C to dL/dx[n, i]
    and takes as much from dL/dx[n, y_n]."""

    node_name = "MultiMarginLossBackward0"
    # PyTorch has no second derivative of it: differentiating the gradient raises its error
    double_backward_name = "torch::autograd::NotImplemented"
    missing_derivative = "aten::multi_margin_loss_backward"

    ctx_fields = ("p", "margin", "reduction")

    @staticmethod
    def forward(ctx, x, target, p, margin, weight, reduction):
        ctx.save_for_backward(x, target)
        ctx.p, ctx.margin, ctx.reduction, ctx.weight = p, margin, reduction, weight
        x2 = _rows(x)
        z = np.maximum(_margins(x2, target.reshape(-1), margin), 0)
        terms = z if p == 1 else z * z
        if weight is not None:
            terms = terms * weight[target.reshape(-1)][:, None]
        losses = terms.sum(axis=1) / np.asarray(x2.shape[1], x.dtype)
        return _reduce(losses.reshape(x.shape[:-1] if x.ndim else ()), reduction)

    @staticmethod
    def backward(ctx, grad_output):
        x, target = ctx.saved_tensors
        x2 = _rows(x)
        t = target.reshape(-1)
        z = _margins(x2, t, ctx.margin)
        g = (z > 0) * (np.ones_like(z) if ctx.p == 1 else 2 * z) / np.asarray(z.shape[1], z.dtype)
        if ctx.weight is not None:
            g = g * ctx.weight[t][:, None]
        g[np.arange(z.shape[0]), t] = -g.sum(axis=1)  # (g at i = y_n was 0)
        upstream = _scale(grad_output, ctx.reduction, x2.shape[0])
        return (g * np.reshape(upstream, (-1, 1))).reshape(x.shape)


class MultilabelMarginLoss(NumpyFunction):
    """loss_n = sum over target classes j and non-target classes i of
    max(0, 1 - x[n, j] + x[n, i]) / C, where the target classes are y_n's entries before its
    first -1. Each positive term adds 1/C to dL/dx[n, i] and takes 1/C from dL/dx[n, j]."""

    node_name = "MultilabelMarginLossBackward0"
    # PyTorch has no second derivative of it: differentiating the gradient raises its error
    double_backward_name = "torch::autograd::NotImplemented"
    missing_derivative = "aten::multilabel_margin_loss_backward"

    ctx_fields = ("reduction",)

    @staticmethod
    def forward(ctx, x, target, reduction):
        ctx.save_for_backward(x, target)
        ctx.reduction = reduction
        x2, t2 = _rows(x), _rows(target)
        active = _active(x2, t2)
        z = np.where(active, np.maximum(1 - x2[:, :, None] + x2[:, None, :], 0), 0)  # (N, j, i)
        losses = z.sum(axis=(1, 2)) / np.asarray(x2.shape[1], x.dtype)
        return _reduce(losses.reshape(x.shape[:-1]), reduction)

    @staticmethod
    def backward(ctx, grad_output):
        x, target = ctx.saved_tensors
        x2, t2 = _rows(x), _rows(target)
        active = _active(x2, t2)
        c = np.asarray(x2.shape[1], x.dtype)
        positive = active & (1 - x2[:, :, None] + x2[:, None, :] > 0)  # (N, j, i)
        g = (positive.sum(axis=1) - positive.sum(axis=2)) / c  # + at i, - at j
        upstream = _scale(grad_output, ctx.reduction, x2.shape[0])
        return (g * np.reshape(upstream, (-1, 1))).astype(x.dtype).reshape(x.shape)


def _active(x2: np.ndarray, t2: np.ndarray) -> np.ndarray:
    # (N, j, i): class j is a target (listed before the first -1), class i is not one
    n, c = x2.shape
    listed = np.cumprod(t2 >= 0, axis=1).astype(bool)  # entries before the first -1
    is_target = np.zeros((n, c), bool)
    rows = np.broadcast_to(np.arange(n)[:, None], t2.shape)
    is_target[rows[listed], t2[listed]] = True
    return is_target[:, :, None] & ~is_target[:, None, :]

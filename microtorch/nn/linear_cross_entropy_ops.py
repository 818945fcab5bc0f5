"""The ``Function``s of ``F.linear_cross_entropy``'s chunked path (``options`` given): the
cross entropy of ``input @ linear_weight.T + linear_bias`` as one node, as PyTorch's custom
ops record it.

With z = logits, p = softmax(z) and w_n the class weight of row n's target (0 if ignored),
loss_n = w_n (logsumexp(z_n) - z_n[t_n]) and dloss_n/dz_n = w_n (p_n - onehot(t_n)); then
d/dinput = dz @ W, d/dW = dz.T @ input, d/dbias = dz summed over the rows. The mean divides
by the summed w_n. For mean and sum, as in PyTorch, the gradients are computed in forward and
backward only scales them, once: a second backward raises unless ``allow_retain_graph``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["LinearCrossEntropyChunked", "LinearCrossEntropyChunkedNoReduction"]

TWICE = (
    "linear_cross_entropy chunked backward called twice; retain_graph=True / double backward "
    "are not supported."
)


def _losses(x, w, target, b, weight, ignore_index) -> tuple[Any, Any, Any]:
    """(N,) losses, (N, C) dloss_n/dz_n and (N,) class weights w_n (0 for ignored rows)."""
    z = x @ w.T if b is None else x @ w.T + b  # (N, C) logits
    kept = target != ignore_index
    classes = z.shape[1]
    picked = np.where(kept, target, 0)
    if np.any((picked < 0) | (picked >= classes)):
        bad = picked[(picked < 0) | (picked >= classes)][0]
        raise RuntimeError(f"index {bad} is out of bounds for dimension 1 with size {classes}")
    if weight is not None and np.any(picked >= weight.shape[0]):
        raise IndexError("index out of range in self")
    wn = np.ones(z.shape[0], z.dtype) if weight is None else weight.astype(z.dtype)[picked]
    wn = np.where(kept, wn, np.zeros((), z.dtype))
    shifted = z - z.max(axis=1, keepdims=True, initial=-np.inf)  # keeps exp() finite
    lse = np.log(np.exp(shifted).sum(axis=1))
    rows = np.arange(z.shape[0])
    losses = wn * (lse - shifted[rows, picked])
    dz = np.exp(shifted - lse[:, None])  # softmax
    dz[rows, picked] -= 1
    return losses, dz * wn[:, None], wn


def _param_grads(dz, x, w, b) -> tuple[Any, Any, Any]:
    return dz @ w, dz.T @ x, None if b is None else dz.sum(axis=0)


class _Unrecorded(NumpyFunction):
    """PyTorch's custom ops record nothing under create_graph=True: their gradients are plain
    values (no grad_fn), so differentiating them again is PyTorch's "does not require grad"."""

    @staticmethod
    def formula_values(values: list[Any]) -> tuple[Any, ...]:
        return tuple(v._data if isinstance(v, Tensor) else v for v in values)  # (not recorded)

    @classmethod
    def call_recorded_backward(cls, ctx: Any, grad_outputs: list[Any]) -> tuple[Any, ...]:
        values = [g._data if isinstance(g, Tensor) else g for g in grad_outputs]
        grads = cls.backward(ctx, *values)
        return tuple(None if g is None else plain_tensor(np.asarray(g)) for g in grads)


class LinearCrossEntropyChunked(_Unrecorded):
    """The mean or sum of the rows' losses (see the module docstring); gradients computed in
    forward, scaled by grad_output in backward."""

    node_name = "GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_defaultBackward"
    ctx_fields = ("grads", "allow_retain_graph")

    @staticmethod
    def forward(ctx, x, w, target, b, weight, reduction, ignore_index, allow_retain_graph):
        losses, dz, wn = _losses(x, w, target, b, weight, ignore_index)
        total = losses.sum()
        if reduction == "mean":  # (all rows ignored: 0 / 0 = nan, as PyTorch)
            total, dz = total / wn.sum(), dz / wn.sum()
        ctx.grads = _param_grads(dz, x, w, b)
        ctx.allow_retain_graph = allow_retain_graph
        return np.asarray(total, x.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        if ctx.grads is None:
            raise RuntimeError(TWICE)
        grads = ctx.grads
        if not ctx.allow_retain_graph:
            ctx.grads = None  # used up, as PyTorch's buffers are
        gi, gw, gb = (None if g is None else g * grad_output for g in grads)
        return (gi, gw, gb) if gb is not None else (gi, gw)


class LinearCrossEntropyChunkedNoReduction(_Unrecorded):
    """Each row's loss; backward computes the gradients again from the saved inputs."""

    node_name = (
        "GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_no_reduction_"
        "defaultBackward"
    )
    ctx_fields = ("target", "weight", "ignore_index")

    @staticmethod
    def forward(ctx, x, w, target, b, weight, ignore_index):
        losses, _, _ = _losses(x, w, target, b, weight, ignore_index)
        ctx.save_for_backward(x, w, b)
        ctx.target, ctx.weight, ctx.ignore_index = target, weight, ignore_index
        return losses

    @staticmethod
    def backward(ctx, grad_output):
        x, w, b = ctx.saved_tensors
        _, dz, _ = _losses(x, w, ctx.target, b, ctx.weight, ctx.ignore_index)
        gi, gw, gb = _param_grads(dz * grad_output[:, None], x, w, b)
        return (gi, gw, gb) if gb is not None else (gi, gw)

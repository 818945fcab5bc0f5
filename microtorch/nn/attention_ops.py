"""The ``Function``s behind attention that the core ops do not cover: ``_safe_softmax``,
PyTorch's fused CPU attention kernel and ``baddbmm`` (a mask plus a batched matmul).

PyTorch's ``scaled_dot_product_attention`` (its math path, the one the CPU runs for a graph)
normalises the scores with ``_safe_softmax``: a softmax whose rows that are ``-inf`` all
along (a query that may attend to nothing) give 0s instead of NaNs.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import follow_inputs, row_major

__all__ = ["Baddbmm", "SafeSoftmax", "ScaledDotProductFlashAttentionForCpu", "attention_weights"]


class SafeSoftmax(NumpyFunction):
    """y = exp(a) / sum(exp(a)) along dim, 0 on rows where every a is -inf; so, as for
    softmax, the gradient is y * (g - sum(g * y)) (0 on those rows, where y is 0)."""

    node_name = "SafeSoftmaxBackward0"
    double_backward_name = "SoftmaxBackwardDataBackward0"
    ctx_fields = ("dim",)

    @staticmethod
    def forward(ctx, a, dim):
        top = a.max(axis=dim, keepdims=True, initial=-np.inf)
        shifted = a - np.where(np.isneginf(top), 0, top)  # a row of -inf: exp gives 0s
        e = np.exp(shifted)
        total = e.sum(axis=dim, keepdims=True)
        masked_rows = np.isneginf(a).all(axis=dim, keepdims=True)
        out = row_major(np.where(masked_rows, 0, e / np.where(masked_rows, 1, total)))
        out = out.astype(a.dtype, copy=False)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return out * (grad_output - (grad_output * out).sum(axis=ctx.dim, keepdims=True))


class Baddbmm(NumpyFunction):
    """z = c + a @ b for batches of matrices (``baddbmm``), so dz/dc = 1 (summed over what
    broadcasting added), dz/da = g @ b^T and dz/db = a^T @ g."""

    node_name = "BaddbmmBackward0"
    ctx_fields = ("shape",)

    @staticmethod
    def forward(ctx, c, a, b):
        ctx.save_for_backward(a, b)
        ctx.shape = c.shape
        return c + a @ b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return (
            unbroadcast(grad_output, ctx.shape),
            grad_output @ np.swapaxes(b, -1, -2),
            np.swapaxes(a, -1, -2) @ grad_output,
        )


def attention_weights(q, k, scale, mask, is_causal):
    """softmax(q @ k^T * scale + mask) over the keys, 0s where a query may attend to none;
    ``mask`` an additive float array (0 or -inf for a bool one) or None."""
    scores = (q @ np.swapaxes(k, -1, -2)) * np.asarray(scale, q.dtype)  # (B, H, L, S)
    if is_causal:  # query i sees keys 0..i (top-left aligned, as PyTorch's tril)
        future = ~np.tril(np.ones(scores.shape[-2:], bool))
        scores = np.where(future, -np.inf, scores)
    if mask is not None:
        scores = scores + mask
    return SafeSoftmax.forward(_Scratch(), scores, -1)


class _Scratch:
    # a throwaway ctx for calling SafeSoftmax's forward on arrays
    def save_for_backward(self, *arrays: np.ndarray) -> None:
        pass


class ScaledDotProductFlashAttentionForCpu(NumpyFunction):
    """z = softmax(q k^T * s + mask) v, one node for the whole of attention (PyTorch's fused
    CPU kernel). With P the weights and g the incoming gradient: dv = P^T g,
    dS = P * (g v^T - sum(g * z)), dq = dS k * s, dk = dS^T q * s. Each key/value head may
    serve several query heads (grouped-query attention); their gradients are summed."""

    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"
    # PyTorch records the gradients (create_graph=True) but has no derivative of them
    double_backward_name = "torch::autograd::NotImplemented"
    missing_derivative = "aten::_scaled_dot_product_flash_attention_for_cpu_backward"
    ctx_fields = ("scale", "mask", "is_causal", "group")

    @staticmethod
    def forward(ctx, q, k, v, scale, mask, is_causal):
        group = q.shape[-3] // k.shape[-3]
        if group > 1:  # (else k and v themselves are saved: edges of the recorded gradient)
            k, v = np.repeat(k, group, axis=-3), np.repeat(v, group, axis=-3)
        out = attention_weights(q, k, scale, mask, is_causal) @ v  # (B, H, L, E)
        out = follow_inputs(out, q)  # laid out as the query is, as in PyTorch
        ctx.save_for_backward(q, k, v, out)
        ctx.scale, ctx.mask, ctx.is_causal, ctx.group = scale, mask, is_causal, group
        return out

    @staticmethod
    def backward(ctx, grad_output):
        q, k, v, out = ctx.saved_tensors
        weights = attention_weights(q, k, ctx.scale, ctx.mask, ctx.is_causal)  # recomputed
        s = np.asarray(ctx.scale, q.dtype)
        grad_v = np.swapaxes(weights, -1, -2) @ grad_output
        row = (grad_output * out).sum(axis=-1, keepdims=True)  # = sum(P * (g v^T)) per row
        grad_scores = weights * (grad_output @ np.swapaxes(v, -1, -2) - row)
        grad_q = grad_scores @ k * s
        grad_k = np.swapaxes(grad_scores, -1, -2) @ q * s
        if ctx.group > 1:  # one key/value head per group of query heads
            b, h, n, e = grad_k.shape
            grad_k = grad_k.reshape(b, h // ctx.group, ctx.group, n, e).sum(axis=2)
            grad_v = grad_v.reshape(b, h // ctx.group, ctx.group, n, -1).sum(axis=2)
        return grad_q, grad_k, grad_v

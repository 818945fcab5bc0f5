"""The ``Function`` behind ``F.embedding_bag``: sums, means or maxima of bags of embedding
rows, recorded as PyTorch 2.13 records it (``EmbeddingBagBackward0``)."""

from __future__ import annotations

import numpy as np

from microtorch.autograd import node as _node
from microtorch.autograd.formula_values import constant_values
from microtorch.autograd.grad_mode import no_grad
from microtorch.nn.conv_ops import OptionalInputs

__all__ = ["EmbeddingBag", "EmbeddingBagBackward", "PerSampleWeightsBackward"]

SUM, MEAN, MAX = 0, 1, 2


class EmbeddingBag(OptionalInputs):
    """out[b] = reduce over the positions j of bag b of psw[j] * weight[idx[j]], where the
    reduction is a sum, a mean or a maximum (psw = 1 unless per_sample_weights are given), and
    positions holding ``padding_idx`` are left out. So

        sum:  dL/dweight[idx[j]] += psw[j] dL/dout[b],   dL/dpsw[j] = dL/dout[b] . weight[idx[j]]
        mean: dL/dweight[idx[j]] += dL/dout[b] / (number of kept positions of bag b)
        max:  dL/dweight[idx[j], d] += dL/dout[b, d] for the first j of bag b holding the maximum

    An empty bag gives a row of zeros and passes no gradient.
    """

    node_name = "EmbeddingBagBackward0"
    edges = (0, 1)  # weight and per_sample_weights (an edge of None without them)

    ctx_fields = ("shape", "mode", "nbags", "psw_shape")

    @staticmethod
    def forward(ctx, weight, psw, idx, bag, keep, nbags, mode):
        # idx, bag, keep: (n,) row ids, bag ids and the positions that count (not padding)
        ctx.shape, ctx.mode, ctx.nbags = weight.shape, mode, nbags
        ctx.psw_shape = None if psw is None else psw.shape
        idx, bag = idx[keep], bag[keep]
        rows = weight[idx]
        out = np.zeros((nbags, weight.shape[1]), weight.dtype)
        if mode == MAX:
            best = np.full_like(out, -np.inf)
            np.maximum.at(best, bag, rows)
            n = len(idx)
            hit = np.where(rows == best[bag], np.arange(n)[:, None], n)
            first = np.full(out.shape, n)
            np.minimum.at(first, bag, hit)  # (nbags, D): the first position holding the max
            found = first < n
            out[found] = best[found]
            ctx.save_for_backward(idx, first)
            return out
        w = rows if psw is None else rows * psw.reshape(-1)[keep][:, None]
        np.add.at(out, bag, w)
        count = np.bincount(bag, minlength=nbags)
        if mode == MEAN:
            out /= np.maximum(count, 1)[:, None].astype(out.dtype)
        ctx.save_for_backward(weight, psw, idx, bag, keep, count)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        if ctx.mode == MAX:
            idx, first = ctx.saved_tensors
            found = first < len(idx)
            cols = np.broadcast_to(np.arange(ctx.shape[1]), first.shape)
            np.add.at(grad, (idx[first[found]], cols[found]), grad_output[found])
            return grad, None
        weight, psw, idx, bag, keep, count = ctx.saved_tensors
        g = grad_output[bag]
        if ctx.mode == MEAN:
            g = g / count[bag][:, None].astype(g.dtype)
        if psw is None:
            np.add.at(grad, idx, g)
            return grad, None
        flat = psw.reshape(-1)
        np.add.at(grad, idx, g * flat[keep][:, None])
        gpsw = np.zeros_like(flat)
        gpsw[keep] = (g * weight[idx]).sum(axis=1)
        return grad, gpsw.reshape(ctx.psw_shape)

    @classmethod
    def call_recorded_backward(cls, ctx, grad_outputs):
        """create_graph=True: the gradients, each recorded as one node whose own backward
        raises PyTorch's error (PyTorch has no derivative of either formula)."""
        (grad_output,) = grad_outputs
        with no_grad():  # (the values only)
            grads = cls.backward(ctx, _node.record(grad_output))
        grad, gpsw = [None if g is None else constant_values(g) for g in grads]
        saved = [_node.tensor_of(t) for t in ctx.saved_tensors]
        weight, psw = (None, None) if ctx.mode == MAX else saved[:2]
        out = EmbeddingBagBackward.apply(grad, grad_output, psw)
        if gpsw is None:
            return out, None
        return out, PerSampleWeightsBackward.apply(gpsw, grad_output, weight)


class EmbeddingBagBackward(OptionalInputs):
    """z = EmbeddingBag's gradient for weight, a node of its own (PyTorch's
    _embedding_bag_backward, whose inputs are the incoming gradient and per_sample_weights):
    PyTorch has no derivative of it."""

    node_name = "EmbeddingBagBackwardBackward0"
    edges = (1, 2)

    @staticmethod
    def forward(ctx, value, grad_output, psw):
        return value

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError(
            "the derivative for '_embedding_bag_backward' is not implemented."
        )


class PerSampleWeightsBackward(OptionalInputs):
    """z = EmbeddingBag's gradient for per_sample_weights, a node of its own (PyTorch's
    _embedding_bag_per_sample_weights_backward, of the incoming gradient and weight): PyTorch
    has no derivative of it, and names the node so."""

    node_name = "torch::autograd::NotImplemented"
    edges = (1, 2)

    @staticmethod
    def forward(ctx, value, grad_output, weight):
        return value

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError(
            "derivative for aten::_embedding_bag_per_sample_weights_backward is not implemented"
        )

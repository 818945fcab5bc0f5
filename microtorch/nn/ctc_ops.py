"""The ``Function`` behind the CTC loss: the forward (alpha) recursion over the extended target
``blank, y_1, blank, y_2, ..., y_L, blank`` in log space, and the backward from the beta one.

An alignment of T frames to a target of L labels walks the 2L + 1 states of the extended
target, one state a frame: it stays, moves to the next state, or skips a blank between two
different labels. alpha_t(s) is the log-probability of all walks of frames 0..t that end in
state s, beta_t(s) that of all walks of frames t..T-1 that start there; both include frame
t's own log-probability. The loss is -log of alpha at the last frame, summed over the last
two states.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["CtcLoss"]


def _extended(target: np.ndarray, blank: int) -> np.ndarray:
    # (2L + 1,): blank, y_1, blank, y_2, ..., y_L, blank
    labels = np.full(2 * target.size + 1, blank, np.int64)
    labels[1::2] = target
    return labels


def _logsumexp3(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    # log(e^a + e^b + e^c), shifted by the largest (by 0 where all three are -inf)
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == -np.inf, np.zeros((), m.dtype), m)
    return np.log(np.exp(a - m) + np.exp(b - m) + np.exp(c - m)) + m


def log_alpha(lp: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(T, S): alpha_t(s) = lp[t, l_s] + log(alpha_{t-1}(s) + alpha_{t-1}(s-1)
    + alpha_{t-1}(s-2)), the last term only where l_s is no blank and differs from l_{s-2}."""
    frames, states = lp.shape[0], labels.size
    neg = np.full(2, -np.inf, lp.dtype)
    skip = np.zeros(states, bool)
    skip[2:] = labels[2:] != labels[:-2]
    la = np.full((frames, states), -np.inf, lp.dtype)
    if frames == 0:
        return la
    la[0, :2] = lp[0, labels[:2]]  # a walk starts on the first blank or the first label
    for t in range(1, frames):
        padded = np.concatenate([neg, la[t - 1]])  # (S + 2,): alpha_{t-1}(s - 2) at s
        two = np.where(skip, padded[:states], neg[0])
        la[t] = _logsumexp3(la[t - 1], padded[1:-1], two) + lp[t, labels]
    return la


def log_beta(lp: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(T, S): beta_t(s) = lp[t, l_s] + log(beta_{t+1}(s) + beta_{t+1}(s+1)
    + beta_{t+1}(s+2)), the last term only where l_{s+2} is no blank and differs from l_s."""
    frames, states = lp.shape[0], labels.size
    neg = np.full(2, -np.inf, lp.dtype)
    skip = np.zeros(states, bool)
    skip[:-2] = labels[:-2] != labels[2:]
    lb = np.full((frames, states), -np.inf, lp.dtype)
    lb[-1, -2:] = lp[-1, labels[-2:]]  # a walk ends on the last label or the last blank
    for t in range(frames - 2, -1, -1):
        padded = np.concatenate([lb[t + 1], neg])  # (S + 2,): beta_{t+1}(s + 2) at s + 2
        two = np.where(skip, padded[2:], neg[0])
        lb[t] = _logsumexp3(lb[t + 1], padded[1:-1], two) + lp[t, labels]
    return lb


def _nll(la: np.ndarray, target_length: int) -> Any:
    # -log(alpha_{T-1}(S-1) + alpha_{T-1}(S-2)); no frames: probability 1 of the empty target
    if la.shape[0] == 0:
        return -(0.0 if target_length == 0 else -np.inf)
    last = la[-1, -2:] if target_length > 0 else la[-1, -1:]
    m = last.max()
    m = 0 if m == -np.inf else m
    return -(np.log(np.exp(last - m).sum()) + m)


def _targets(targets: np.ndarray, target_lengths: tuple[int, ...]) -> list[np.ndarray]:
    # each sample's labels: a row of a padded (N, S) tensor, or a piece of the concatenated one
    if targets.ndim == 2:
        return [row[:n] for row, n in zip(targets, target_lengths)]
    ends = np.cumsum(target_lengths, dtype=np.int64)
    return [targets[end - n : end] for end, n in zip(ends, target_lengths)]


class CtcLoss(NumpyFunction):
    """loss_n = -log p(y_n | x_n), p summed over every alignment by the alpha recursion.

    d loss_n / d lp[t, c] = -exp(log sum over states s with l_s = c of alpha_t(s) beta_t(s)
    + loss_n - lp[t, c]); PyTorch's gradient adds exp(lp[t, c]) to it (the softmax term, which
    makes it the gradient for the logits when lp is their log_softmax), and so does this one.
    Frames past a sample's input length get 0; with ``zero_infinity`` an impossible target
    (loss inf) gets 0 too, otherwise nan.
    """

    node_name = "CtcLossBackward0"
    # PyTorch has no second derivative of it: differentiating the gradient raises its error
    double_backward_name = "torch::autograd::NotImplemented"
    missing_derivative = "aten::_ctc_loss_backward"

    ctx_fields = ("labels", "alphas", "nll", "input_lengths", "zero_infinity")

    @staticmethod
    def forward(ctx, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
        # log_probs (T, N, C), targets (N, S) or (sum of target_lengths,); out: (N,)
        labels = [_extended(t, blank) for t in _targets(targets, target_lengths)]
        alphas = [
            log_alpha(log_probs[:n, b], ext)
            for b, (n, ext) in enumerate(zip(input_lengths, labels))
        ]
        nll = np.array([_nll(la, n) for la, n in zip(alphas, target_lengths)], log_probs.dtype)
        ctx.save_for_backward(log_probs)
        ctx.labels, ctx.alphas, ctx.nll = labels, alphas, nll
        ctx.input_lengths, ctx.zero_infinity = input_lengths, zero_infinity
        return nll

    @staticmethod
    def backward(ctx, grad_output):
        (log_probs,) = ctx.saved_tensors
        grad = np.zeros_like(log_probs)  # (T, N, C); frames past a sample's length stay 0
        for b, (n, ext, la) in enumerate(zip(ctx.input_lengths, ctx.labels, ctx.alphas)):
            nll = ctx.nll[b]
            if n == 0 or (ctx.zero_infinity and nll == np.inf):
                continue
            lp = log_probs[:n, b]  # (n, C)
            both = la + log_beta(lp, ext)  # (n, S): log alpha_t(s) beta_t(s)
            per_class = np.full((lp.shape[1], n), -np.inf, lp.dtype)  # (C, n)
            np.logaddexp.at(per_class, ext, both.T)  # summed over the states of each class
            if ext.size > 1 and ext[-2] == ext[-1]:  # a last label equal to the blank:
                per_class[ext[-1], n - 1] = both[n - 1, -2]  # PyTorch keeps one state's term
            grad[:n, b] = (np.exp(lp) - np.exp(per_class.T + nll - lp)) * grad_output[b]
        return grad

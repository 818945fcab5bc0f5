"""The Connectionist Temporal Classification loss: ``F.ctc_loss``, and the core of
``torch.ctc_loss`` (aten's form, in ``nn/aten_losses.py``: an int reduction), which both call.
Lengths are lists of ints or integer tensors.

The loss of each sample is one ``CtcLossBackward0`` node (``nn/ctc_ops.py``); the rest is
written with tensor ops, as PyTorch writes it, so it records the same nodes: ``zero_infinity``
a ``where`` that puts 0 for inf, ``'mean'`` a division by the target lengths (at least 1) and
a mean over the batch, ``'sum'`` a sum, and an unbatched ``'none'`` a squeeze.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api import elementwise as ew
from microtorch.api.arguments import parsed, parser_error
from microtorch.nn.ctc_ops import CtcLoss
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["SIGNATURES", "aten_ctc_loss", "ctc_loss"]

_SIGNATURE = (
    "Tensor log_probs, Tensor targets, {0} input_lengths, {0} target_lengths, int blank=0, "
    "int reduction=at::Reduction::Mean, bool zero_infinity=False"
)
SIGNATURES = (_SIGNATURE.format("int[]"), _SIGNATURE.format("Tensor"))  # (PyTorch's two)
_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}  # (any other int: none, as in PyTorch)
_WHERE = "(while checking arguments for ctc_loss_allocate_outputs)"


def _lengths(value: Any, name: str) -> tuple[int, ...]:
    # a tensor's values (integral only) or a list of ints, as a tuple of ints
    if isinstance(value, Tensor):
        if value._data.dtype.kind not in "iu":
            raise RuntimeError(f"{name} must be integral")
        return tuple(int(n) for n in value._data.reshape(-1))
    return tuple(int(n) for n in value)


def _check(log_probs: Tensor, targets: Tensor, input_lengths: tuple[int, ...],
           target_lengths: tuple[int, ...], blank: int) -> None:  # fmt: skip
    """PyTorch's checks, in its order; ``log_probs`` is (T, N, C) once an unbatched one is
    given its batch dimension."""
    if log_probs._data.dtype.kind != "f" or log_probs._data.dtype == np.float16:
        raise NotImplementedError(
            f"\"ctc_loss_cpu\" not implemented for '{log_probs._dtype._legacy[:-6]}'"
        )
    if log_probs._data.size == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    if log_probs.ndim != 3:
        raise RuntimeError(
            f"Expected 3-dimensional tensor, but got {log_probs.ndim}-dimensional tensor for "
            f"argument #1 'log_probs' {_WHERE}"
        )
    if targets.ndim not in (1, 2):
        raise RuntimeError(
            f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional tensor for "
            f"argument #2 'targets' {_WHERE}"
        )
    frames, batch, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for n in target_lengths:
        _at_least(n, "target_lengths")
    size, dim = (sum(target_lengths), 0) if targets.ndim == 1 else (batch, 0)
    if targets.shape[dim] != size:
        raise RuntimeError(
            f"Expected tensor to have size {size} at dimension {dim}, but got size "
            f"{targets.shape[dim]} for argument #2 'targets' {_WHERE}"
        )
    longest = max(target_lengths, default=0)
    if targets.ndim == 2 and targets.shape[1] < longest:
        raise RuntimeError(
            f"Expected tensor to have size at least {longest} at dimension 1, but got size "
            f"{targets.shape[1]} for argument #2 'targets' {_WHERE}"
        )
    for n in input_lengths:
        _at_least(n, "input_lengths")
        if n > frames:
            raise RuntimeError(
                f"Expected input_lengths to have value at most {frames}, but got value {n} {_WHERE}"
            )
    labels = targets._data.astype(np.int64)
    if labels.size and (labels.min() < 0 or labels.max() >= classes):  # (PyTorch reads past)
        raise IndexError(
            f"ctc_loss: a target label is out of range [0, {classes}) (Fix: labels are class "
            "indices of log_probs' last dimension)"
        )


def _at_least(n: int, name: str) -> None:
    if n < 0:
        raise RuntimeError(f"Expected {name} to have value at least 0, but got value {n} {_WHERE}")


def aten_ctc_loss(
    log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any, blank: int = 0,
    reduction: int = 0, zero_infinity: bool = False,
) -> Tensor:  # fmt: skip
    """``torch.ctc_loss``'s work: F.ctc_loss with an int reduction (0 none, 1 mean, 2 sum),
    after PyTorch's argument parser's check."""
    args = (log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)
    message = parser_error("ctc_loss", SIGNATURES, args, {})
    if message is not None:
        raise TypeError(message)
    il = _lengths(input_lengths, "input_lengths")
    tl = _lengths(target_lengths, "target_lengths")
    batched = log_probs.ndim == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)  # (T, N, C)
    _check(lp, targets, il, tl, blank)
    labels = targets._data.astype(np.int64)  # (PyTorch takes the labels as int64)
    res = CtcLoss.apply(lp, labels, il, tl, blank, bool(zero_infinity))  # (N,)
    if zero_infinity:
        res = ew.where(res == math.inf, plain_tensor(np.zeros((), res._data.dtype)), res)
    mode = _REDUCTIONS.get(reduction, "none")
    if mode == "mean":
        lengths = np.maximum(np.array(tl, res._data.dtype), 1)  # (an empty target counts as 1)
        return (res / plain_tensor(lengths)).mean()
    if mode == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)


def ctc_loss(
    log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any, blank: int = 0,
    reduction: str = "mean", zero_infinity: bool = False,
) -> Tensor:  # fmt: skip
    """The CTC loss of ``log_probs`` (T, N, C) or (T, C), log-probabilities over C classes at
    each of T frames, for ``targets`` (N, S) padded or concatenated (sum of target_lengths,)."""
    return _parsed_ctc_loss(
        log_probs, targets, input_lengths, target_lengths, blank, _enum(reduction), zero_infinity
    )


_parsed_ctc_loss = parsed("ctc_loss", *SIGNATURES)(aten_ctc_loss)  # (PyTorch's F calls it)


def _enum(reduction: str) -> int:
    # PyTorch's _Reduction.get_enum: its ValueError, and its warning for the old name
    if reduction == "elementwise_mean":
        warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
        return 1
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return {"none": 0, "mean": 1, "sum": 2}[reduction]

"""``nn.functional``'s padding, vector and distribution-comparison functions: ``pad``,
``normalize``, ``cosine_similarity``, ``pairwise_distance`` and ``kl_div``."""

from __future__ import annotations

from typing import Any

from microtorch._warn import warn
from microtorch.api import rearrange
from microtorch.api import reduction as red
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.autograd.grad_mode import no_grad
from microtorch.nn import layer_ops, pad_ops
from microtorch.nn.loss_functions import _check_reduction, legacy_reduction
from microtorch.ops.bounds import ClampMin
from microtorch.ops.linalg import NormDim
from microtorch.ops.scalar import AddScalar
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["pad", "normalize", "cosine_similarity", "pairwise_distance", "kl_div"]


def pad(
    input: Tensor,  # noqa: A002
    pad: Any,
    mode: str = "constant",
    value: float | None = None,
) -> Tensor:
    """``value`` (0 by default) around ``input``: ``pad`` is (left, right) for the last
    dimension, then (top, bottom) for the one before, ...; negative widths crop
    (``ConstantPadNdBackward0``). ``mode='reflect'`` mirrors the input at its edges,
    ``'replicate'`` repeats the edge values, ``'circular'`` wraps around (1 to 3 dims)."""
    expect_tensor(input, "pad")
    widths = tuple(int(w) for w in pad)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(widths) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    ndim = input._data.ndim
    if len(widths) > 2 * ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension "
            f"but got padding length {len(widths)} and input of dimension {ndim}"
        )
    if mode != "constant":
        return _pad_copying(input, widths, mode, value)
    for i in range(len(widths) // 2):
        if input._data.shape[ndim - 1 - i] + widths[2 * i] + widths[2 * i + 1] < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    return layer_ops.ConstantPadNd.apply(input, widths, 0.0 if value is None else value)


def _pad_copying(input: Tensor, widths: tuple[int, ...], mode: str, value: Any) -> Tensor:  # noqa: A002
    """The modes that copy input values into the border: PyTorch's checks, then the op."""
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    shape = list(input._data.shape)
    k = len(widths) // 2  # padded dims, the last k
    if not (k <= len(shape) - 1 and len(shape) <= k + 2):
        raise NotImplementedError(
            f"Padding size {len(widths)} is not supported for {len(shape)}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )
    sides = [(widths[2 * i], widths[2 * i + 1]) for i in range(k)]  # from the last dim
    if mode == "circular":
        for i, (left, right) in enumerate(sides):
            if left > shape[-1 - i] or right > shape[-1 - i]:
                raise RuntimeError("Padding value causes wrapping around more than once.")
    else:
        first = 1 if len(shape) == k + 2 else 0  # (a batch dim may be empty)
        if 0 in shape[first:]:
            raise RuntimeError(
                f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size "
                f"and other non-zero dimensions for input, but got: {shape}"
            )
        for i, (left, right) in enumerate(sides):
            if mode == "reflect" and (left >= shape[-1 - i] or right >= shape[-1 - i]):
                raise RuntimeError(
                    f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding "
                    f"input dimension, but got: padding ({left}, {right}) at dimension "
                    f"{len(shape) - 1 - i} of input {shape}"
                )
    positions = [
        pad_ops.pad_positions(shape[-1 - i], left, right, mode)
        for i, (left, right) in enumerate(sides)
    ][::-1]  # (in dim order)
    if mode == "circular":  # PyTorch builds it from slices; here, one index per dim
        out = input
        for i, where in enumerate(positions):
            out = rearrange.index_select(out, len(shape) - k + i, plain_tensor(where))
        return out
    return pad_ops.PAD_FUNCTIONS[mode][k - 1].apply(input, positions)


def normalize(
    input: Tensor,  # noqa: A002
    p: float = 2.0,
    dim: int = 1,
    eps: float = 1e-12,
    out: Tensor | None = None,
) -> Tensor:
    """x / max(||x||_p, eps) along ``dim``: every vector scaled to length 1."""
    expect_tensor(input, "normalize")
    if not input._dtype.is_floating_point:
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{input._dtype._legacy[:-6]} (Fix: x.float())"
        )
    norm = input.norm(p, dim, keepdim=True)
    denom = ClampMin.apply(norm, eps).expand_as(input)
    result = input / denom
    if out is not None:
        return out.copy_(result)
    return result


@parsed(
    "cosine_similarity",
    "Tensor x1, Tensor x2, int dim=1, float eps=1e-08",
)
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """(x1 / max(||x1||, eps)) . (x2 / max(||x2||, eps)) along ``dim``: the cosine of the
    angle between the vectors, in [-1, 1]. (PyTorch clamps the norms outside the graph and
    records ``CloneBackward0`` nodes; the values and gradients here are the same.)"""
    expect_tensor(x1, "cosine_similarity")
    expect_tensor(x2, "cosine_similarity", "x2", 2)
    n1 = x1.norm(2, dim, keepdim=True)
    n2 = x2.norm(2, dim, keepdim=True)
    with no_grad():  # PyTorch clamps the norms in place, outside the graph
        n1._data = n1._data.clip(min=eps)
        n2._data = n2._data.clip(min=eps)
    return red.sum((x1 / n1) * (x2 / n2), dim)


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """||x1 - x2 + eps||_p along the last dimension (eps keeps the gradient finite at 0)."""
    expect_tensor(x1, "pairwise_distance")
    # eps added as a number, as PyTorch's C++ adds it (AddBackward1, then NormBackward1)
    diff = AddScalar.apply(x1 - x2, eps)
    if not diff._dtype.is_floating_point:
        return diff.norm(p, -1, keepdim=keepdim)  # (its error for integer inputs)
    ndim = diff._data.ndim
    return NormDim.apply(diff, float(p), (ndim - 1,) if ndim else (), bool(keepdim))


def kl_div(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """KL(target || exp(input)) element by element: ``target * (log(target) - input)``, with
    ``input`` log-probabilities (and ``target`` too if ``log_target``). Use
    ``reduction='batchmean'`` for the mathematical KL divergence of each sample."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce, reduction)
    elif reduction == "elementwise_mean":  # (PyTorch's old name: 'mean' without its warning)
        reduction = _check_reduction(reduction)
    elif reduction == "mean":
        warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release.",
        )
    if reduction not in ("mean", "batchmean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_target:
        losses = target.exp() * (target - input)
    else:
        losses = layer_ops.Xlogy.apply(target, target) - target * input
    if reduction == "batchmean":
        total = red.sum(losses)
        return total / input._data.shape[0] if input._data.ndim != 0 else total
    if reduction == "sum":
        return red.sum(losses)
    if reduction == "mean":
        return red.mean(losses)
    return losses

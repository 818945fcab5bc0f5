"""``batch_norm``, ``layer_norm`` and ``group_norm``: PyTorch 2.13's argument checks and
messages in front of the ops of ``norm_ops.py`` (re-exported by ``functional``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from microtorch.api._checks import expect_tensor, type_name
from microtorch.autograd.versions import bump_version
from microtorch.nn import norm_ops
from microtorch.tensor import Size, Tensor

__all__ = ["batch_norm", "check_batch_norm", "layer_norm", "group_norm"]

_MIXED = "mixed dtype (CPU): all inputs must share same datatype."


def batch_norm(
    input: Tensor,  # noqa: A002
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each channel (dim 1) to mean 0 and variance 1, then scale by ``weight`` and
    shift by ``bias`` (``NativeBatchNormBackward0``).

    ``training=True`` uses the batch's statistics and updates ``running_mean`` and
    ``running_var`` in place (``momentum`` is the weight of the new batch; the variance
    stored is the unbiased one); ``training=False`` uses the running statistics.
    """
    check_batch_norm(input, running_mean, running_var, weight, bias, training, eps)
    if input._data.size == 0:  # PyTorch's graph for an empty batch; the statistics stay
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        return out + bias[0] if bias is not None else out
    rm = None if running_mean is None else running_mean._data
    rv = None if running_var is None else running_var._data
    out = norm_ops.NativeBatchNorm.apply(
        input, weight, bias, rm, rv, bool(training), float(momentum), float(eps)
    )
    if training and running_mean is not None and running_var is not None:
        bump_version(running_mean)  # updated in place, as PyTorch's kernel does
        bump_version(running_var)
    return out


def check_batch_norm(
    input: Any,  # noqa: A002
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None,
    bias: Tensor | None,
    training: bool,
    eps: float,
) -> None:
    """``batch_norm``'s argument checks, in PyTorch's order. ``BatchNorm*`` runs them before
    it counts the batch, so a call that fails changes nothing."""
    expect_tensor(input, "batch_norm")
    shape = input._data.shape
    if training:
        size = Size(shape)
        prod = size[0] * math.prod(size[2:])
        if prod == 1:
            raise ValueError(
                f"Expected more than 1 value per channel when training, got input size {size} "
                "(Fix: use a batch of more than one sample, or call model.eval() to predict one)"
            )
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    if len(shape) < 2:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(len(shape), 1)}, "
            f"{max(len(shape), 1) - 1}], but got 1)"
        )
    features = shape[1]
    if input._data.size == 0:
        return
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is None:
            if not training:
                raise RuntimeError(f"{name} must be defined in evaluation mode")
        elif t._data.size != features:
            raise RuntimeError(
                f"{name} should contain {features} elements not {t._data.size} (Fix: the layer "
                f"was made for {t._data.size} features or channels, at dim 1 of its input; this "
                f"input has {features})"
            )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t._data.size != features:
            raise RuntimeError(f"{name} should contain {features} elements not {t._data.size}")
    others = [t for t in (weight, bias, running_mean, running_var) if t is not None]
    if any(t._dtype is not input._dtype for t in others):
        raise RuntimeError(
            f"{_MIXED} (Fix: convert the input, e.g. x.float(), or the layer, e.g. "
            f"model.to(torch.{input._dtype.name}))"
        )
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"batch_norm\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: x.float())"
        )


def layer_norm(
    input: Tensor,  # noqa: A002
    normalized_shape: Sequence[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each sample over its last ``len(normalized_shape)`` dims to mean 0 and
    variance 1, then scale by ``weight`` and shift by ``bias`` (``NativeLayerNormBackward0``)."""
    expect_tensor(input, "layer_norm")
    if not isinstance(normalized_shape, Sequence) or isinstance(normalized_shape, str):
        raise TypeError(
            "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
            f"{type_name(normalized_shape)} (Fix: pass a tuple, e.g. ({normalized_shape},))"
        )
    norm = [int(n) for n in normalized_shape]
    if not norm:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and list(t._data.shape) != norm:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {list(t._data.shape)} and normalized_shape = {norm}"
            )
    shape = list(input._data.shape)
    if len(shape) < len(norm) or shape[len(shape) - len(norm) :] != norm:
        expected = "".join(f", {n}" for n in norm)
        raise RuntimeError(
            f"Given normalized_shape={norm}, expected input with shape [*{expected}], but got "
            f"input of size{shape}"
        )
    if any(t is not None and t._dtype is not input._dtype for t in (weight, bias)):
        raise RuntimeError(
            f"{_MIXED} (Fix: convert the input, e.g. x.float(), or the layer, e.g. "
            f"model.to(torch.{input._dtype.name}))"
        )
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"LayerNormKernelImpl\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: "
            "x.float())"
        )
    return norm_ops.NativeLayerNorm.apply(input, len(norm), weight, bias, float(eps))


def group_norm(
    input: Tensor,  # noqa: A002
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Split the channels (dim 1) of each sample into ``num_groups`` groups, normalize each
    group (with its positions) to mean 0 and variance 1, then scale and shift each channel
    (``NativeGroupNormBackward0``)."""
    expect_tensor(input, "group_norm")
    shape = list(input._data.shape)
    if len(shape) < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {len(shape)}"
        )
    if shape[0] * shape[1] // num_groups * math.prod(shape[2:]) == 1:
        size = [shape[0] * shape[1] // num_groups, num_groups, *shape[2:]]
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {size}"
        )
    channels = shape[1]
    if channels % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {shape} and num_groups={num_groups}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t._data.ndim != 1 or t._data.size != channels):
            # (PyTorch's text for the bias shows the weight's shape, [0] without one)
            shown = list(t._data.shape) if t is weight or weight is None else weight.shape
            shown = [0] if t is bias and weight is None else list(shown)
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {shown} and input of shape {shape} (Fix: "
                f"{name} has shape {list(t._data.shape)}; it needs one value per channel, "
                f"{channels})"
            )
    if any(t is not None and t._dtype is not input._dtype for t in (weight, bias)):
        raise RuntimeError(
            f"{_MIXED} (Fix: convert the input, e.g. x.float(), or the layer, e.g. "
            f"model.to(torch.{input._dtype.name}))"
        )
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"GroupNormKernelImpl\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: "
            "x.float())"
        )
    if not input.is_contiguous():  # PyTorch's kernel copies it first (CloneBackward0)
        input = input.contiguous()  # noqa: A001
    return norm_ops.NativeGroupNorm.apply(input, int(num_groups), weight, bias, float(eps))

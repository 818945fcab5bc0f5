"""``hardshrink``, ``softshrink``, ``threshold``, ``glu`` and ``rrelu`` (with the in-place
``threshold_`` and ``rrelu_``), and the in-place twins ``relu_``, ``elu_``, ``celu_``,
``selu_``, ``leaky_relu_`` and ``hardtanh_``: PyTorch 2.13's names, checks and graphs
(issue 24)."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.inplace import apply_inplace
from microtorch.creation import default_generator
from microtorch.nn import activation_functions as af
from microtorch.nn import layer_ops
from microtorch.nn import shrink_ops as ops
from microtorch.tensor import Tensor

__all__ = [
    "hardshrink", "softshrink", "threshold", "threshold_", "glu", "rrelu", "rrelu_", "relu_",
    "elu_", "celu_", "selu_", "leaky_relu_", "hardtanh_",
]  # fmt: skip


def _floats_only(input: Tensor, name: str, kernel: str) -> None:  # noqa: A002
    expect_tensor(input, name)
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: x.float())"
        )


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """x where |x| > lambd, else 0."""
    _floats_only(input, "hardshrink", "hardshrink_cpu")
    return ops.Hardshrink.apply(input, float(lambd))


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0."""
    _floats_only(input, "softshrink", "softshrink_check")
    if lambd < 0:
        kind = input._dtype._legacy[:-6]
        top = "3.40282e+38" if kind in ("Float", "Half") else "1.79769e+308"
        raise RuntimeError(
            f"lambda must be in range [0, {top}] for input dtype {kind}, but found {lambd:g}"
        )
    return ops.Softshrink.apply(input, float(lambd))


def threshold(
    input: Tensor,  # noqa: A002
    threshold: float,
    value: float,
    inplace: bool = False,
) -> Tensor:
    """x where x > threshold, else value (integer tensors too)."""
    if inplace:
        return threshold_(input, threshold, value)
    expect_tensor(input, "threshold")
    return ops.Threshold.apply(input, threshold, value)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:  # noqa: A002
    """In-place ``threshold`` (``ThresholdBackward1``)."""
    expect_tensor(input, "threshold_")
    return apply_inplace(input, "threshold_", ops.Threshold_.apply, threshold, value)


def glu(input: Tensor, dim: int = -1) -> Tensor:  # noqa: A002
    """a * sigmoid(b), a and b the two halves of the input along ``dim``."""
    ndim = input.dim()  # (first, as in PyTorch: a list raises its AttributeError here)
    if ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    _floats_only(input, "glu", "glu_cpu")
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
            f"{dim})"
        )
    d = dim % ndim
    size = input._data.shape[d]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {size}")
    return ops.Glu.apply(input, d)


def rrelu_noise(
    input: Tensor,
    lower: float,
    upper: float,
    training: bool,
    generator: Any = None,  # noqa: A002
) -> np.ndarray:
    """The slope of each element: 1 where x > 0, else uniform in [lower, upper] from the
    seeded generator (or ``generator``) while training, (lower + upper) / 2 in eval."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    a = input._data
    if not a.dtype.kind == "f":
        raise NotImplementedError(
            f"\"leaky_relu_cpu\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: x.float())"
        )
    if training:  # one slope per element from the seeded generator (used where x <= 0)
        slope = (generator or default_generator)._rng.uniform(lower, upper, a.shape)
        slope = slope.astype(a.dtype)
    else:
        slope = np.asarray((lower + upper) / 2, a.dtype)
    return np.where(a > 0, np.ones((), a.dtype), slope)


def rrelu(
    input: Tensor,  # noqa: A002
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """x where x > 0, else slope * x: slope uniform in [lower, upper] per element while
    training, (lower + upper) / 2 in eval (``RreluWithNoiseBackward0``)."""
    if inplace:
        return rrelu_(input, lower, upper, training)
    expect_tensor(input, "rrelu")
    return ops.RreluWithNoise.apply(input, rrelu_noise(input, lower, upper, training))


def rrelu_(
    input: Tensor,  # noqa: A002
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
) -> Tensor:
    """In-place ``rrelu`` (``RreluWithNoiseBackward1``)."""
    expect_tensor(input, "rrelu_")
    noise = rrelu_noise(input, lower, upper, training)
    return apply_inplace(input, "rrelu_", ops.RreluWithNoise_.apply, noise)


def relu_(input: Tensor) -> Tensor:  # noqa: A002
    """In-place ``relu``."""
    expect_tensor(input, "relu_")
    return input.relu_()


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    """In-place ``elu`` (``EluBackward1``)."""
    expect_tensor(input, "elu_")
    return af.elu(input, alpha, inplace=True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    """In-place ``celu`` (``CeluBackward1``)."""
    expect_tensor(input, "celu_")
    return af.celu(input, alpha, inplace=True)


def selu_(input: Tensor) -> Tensor:  # noqa: A002
    """In-place ``selu`` (``EluBackward1``)."""
    expect_tensor(input, "selu_")
    return af.selu(input, inplace=True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:  # noqa: A002
    """In-place ``leaky_relu`` (``LeakyReluBackward1``)."""
    _floats_only(input, "leaky_relu_", "leaky_relu_cpu")
    return apply_inplace(input, "leaky_relu_", layer_ops.LeakyRelu_.apply, negative_slope)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    """In-place ``hardtanh`` (``HardtanhBackward0``, as PyTorch records it)."""
    expect_tensor(input, "hardtanh_")
    return af.hardtanh(input, min_val, max_val, inplace=True)

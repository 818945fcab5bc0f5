"""Rounding: round (half to even), floor, ceil, trunc, and sign.

Each is a step function of its input, flat between the steps: its derivative is 0 wherever it
exists, so backward passes zeros (PyTorch does the same, rather than raising at the steps).
Integer inputs are already whole numbers: they come back unchanged (a copy).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._checks import expect_tensor
from microtorch.ops.elementwise import wrap

__all__ = ["round", "floor", "ceil", "trunc", "sign"]


class _Step(NumpyFunction):
    """z = step(a), flat between the steps, so dz/da = 0."""

    @staticmethod
    def backward(ctx, grad_output):
        return np.zeros_like(grad_output)


class Round(_Step):
    """z = round(a), halves to even (round(2.5) = 2), so dz/da = 0."""

    node_name = "RoundBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.rint(a)


class RoundDecimals(_Step):
    """z = round(a * 10**d) / 10**d (d < 0: round(a / 10**-d) * 10**-d), so dz/da = 0."""

    node_name = "RoundBackward1"

    @staticmethod
    def forward(ctx, a, decimals):
        scale = np.asarray(10.0 ** abs(decimals), a.dtype)  # as PyTorch scales
        return np.rint(a * scale) / scale if decimals > 0 else np.rint(a / scale) * scale


class Floor(_Step):
    """z = floor(a), the largest whole number <= a, so dz/da = 0."""

    node_name = "FloorBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.floor(a)


class Ceil(_Step):
    """z = ceil(a), the smallest whole number >= a, so dz/da = 0."""

    node_name = "CeilBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.ceil(a)


class Trunc(_Step):
    """z = trunc(a), a rounded toward zero, so dz/da = 0."""

    node_name = "TruncBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.trunc(a)


class Sign(_Step):
    """z = -1, 0 or 1 by the sign of a (0 for nan, as PyTorch), so dz/da = 0."""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, a):
        return ((a > 0).astype(a.dtype) - (a < 0)).astype(a.dtype)


def _step(fn: type[NumpyFunction], a: Any, op: str, *extra: Any) -> Any:
    # Integers pass through unchanged; bools have no kernel, as in PyTorch.
    expect_tensor(a, op)
    if a._dtype.is_floating_point:
        return fn.apply(a, *extra)
    if a._dtype.name == "bool":
        raise NotImplementedError(f"\"{op}_vml_cpu\" not implemented for 'Bool'")
    if extra:
        raise NotImplementedError(
            f"\"round_cpu\" not implemented for '{a._dtype._legacy[: -len('Tensor')]}' "
            "(Fix: integers are already whole; round with decimals= needs a float tensor)"
        )
    return wrap(a._data.copy(), a._device)


def round(input: Any, *, decimals: int = 0) -> Any:  # noqa: A001, A002 - PyTorch's names
    """Round to the nearest whole number, halves to even (or to ``decimals`` places)."""
    if decimals:
        return _step(RoundDecimals, input, "round", int(decimals))
    return _step(Round, input, "round")


def floor(input: Any) -> Any:  # noqa: A002
    """The largest whole number <= each element."""
    return _step(Floor, input, "floor")


def ceil(input: Any) -> Any:  # noqa: A002
    """The smallest whole number >= each element."""
    return _step(Ceil, input, "ceil")


def trunc(input: Any) -> Any:  # noqa: A002
    """Each element rounded toward zero."""
    return _step(Trunc, input, "trunc")


def sign(input: Any) -> Any:  # noqa: A002
    """-1, 0 or 1 by the sign of each element (bools come back unchanged)."""
    expect_tensor(input, "sign")
    if input._dtype.name == "bool":
        return wrap(input._data.copy(), input._device)
    return Sign.apply(input)

"""Rounding: round (half to even), floor, ceil, trunc, and sign.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/rounding.py``.
"""

from __future__ import annotations

from typing import Any

from microtorch.api import twins
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_int, parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.autograd.function import NumpyFunction
from microtorch.ops.rounding import Ceil, Floor, Frac, Round, RoundDecimals, Sign, Trunc

__all__ = ["round", "round_", "floor", "ceil", "trunc", "sign", "frac"]


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


@parsed("round", "Tensor input", "Tensor input, *, int decimals")
def round(input: Any, *, decimals: int = 0) -> Any:  # noqa: A001, A002 - PyTorch's names
    """Round to the nearest whole number, halves to even (or to ``decimals`` places)."""
    expect_int(decimals, "decimals")
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


@torch_keywords("input", out=True)
def frac(input: Any) -> Any:  # noqa: A002
    """The fractional part of each element, input - trunc(input) (floats only, as PyTorch)."""
    expect_tensor(input, "frac")
    if not input._dtype.is_floating_point:
        kind = input._dtype._legacy[: -len("Tensor")]
        raise NotImplementedError(
            f"\"frac_cpu\" not implemented for '{kind}' (Fix: integers have no fractional part)"
        )
    return Frac.apply(input)


# x.round_() and torch.round_(x): round, written into the input; its errors name round_
round_ = parsed("round_", "Tensor input", "Tensor input, *, int decimals")(
    twins.twin("round_", round)
)

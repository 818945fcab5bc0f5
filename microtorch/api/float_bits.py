"""float_power, ldexp, frexp, nextafter and heaviside: argument checks and dtypes around
``microtorch/ops/float_bits.py`` and numpy's own frexp and heaviside."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import elementwise as ew
from microtorch.api._checks import expect_tensor, type_name
from microtorch.api.inplace import apply_inplace
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand, wrap
from microtorch.api.return_types import return_type
from microtorch.autograd import node as _node
from microtorch.dtypes import float64, get_default_dtype, int32, result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.float_bits import Frexp, Ldexp, Nextafter

__all__ = [
    "float_power",
    "float_power_",
    "frexp",
    "frexp_result",
    "heaviside",
    "ldexp",
    "ldexp_",
    "nextafter",
]

frexp_result = return_type("frexp", ("mantissa", "exponent"))


def _name(d: Any) -> str:
    return str(d._legacy[:-6])


@torch_keywords(("input", "self"), "exponent", out=True)
def float_power(a: Any, exponent: Any) -> Any:
    """a ** exponent computed in float64 (both cast to double first)."""
    for value in (a, exponent):
        if not isinstance(value, (_node.Tensor, int, float, np.number)):
            raise TypeError(
                "float_power() received an invalid combination of arguments - got "
                f"({type_name(a)}, {type_name(exponent)}), but expected one of:\n"
                " * (Tensor input, Tensor exponent, *, Tensor out = None)\n"
                " * (Number self, Tensor exponent, *, Tensor out = None)\n"
                " * (Tensor input, Number exponent, *, Tensor out = None)"
            )
    if not isinstance(a, _node.Tensor):
        expect_tensor(exponent, "float_power", "exponent", 2)
        return ew.rpow(as_operand(exponent, float64), float(a))
    base = as_operand(a, float64)
    if isinstance(exponent, _node.Tensor):
        return ew.pow(base, as_operand(exponent, float64))
    return ew.pow(base, float(exponent))


def float_power_(self: Any, exponent: Any) -> Any:
    """``float_power``, written into this float64 tensor; returns it."""
    if self._dtype is not float64:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {_name(self._dtype)} but the "
            "operation's result requires dtype Double"
        )
    return apply_inplace(self, "float_power_", float_power, exponent)


@torch_keywords("input", "other", out=True)
def ldexp(a: Any, other: Any) -> Any:
    """a * 2**other (integer inputs give the default float dtype)."""
    expect_tensor(a, "ldexp")
    expect_tensor(other, "ldexp", "other", 2)
    target = result_type(a, other)
    if not target.is_floating_point:
        target = get_default_dtype()
    try:
        np.broadcast_shapes(a._data.shape, other._data.shape)
    except ValueError:
        raise broadcast_error(a._data.shape, other._data.shape) from None
    int_exponent = not other._dtype.is_floating_point
    return Ldexp.apply(as_operand(a, target), as_operand(other, target), int_exponent)


@torch_keywords("input", "other")
def ldexp_(self: Any, other: Any) -> Any:
    """``ldexp``, written into this tensor; returns it."""
    expect_tensor(self, "ldexp_")
    expect_tensor(other, "ldexp_", "other", 2)
    return apply_inplace(self, "ldexp_", ldexp, other)


@torch_keywords("input", out=True)
def frexp(a: Any) -> Any:
    """(mantissa, exponent) with a = mantissa * 2**exponent and 0.5 <= |mantissa| < 1."""
    expect_tensor(a, "frexp")
    if not a._dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    _, exponent = np.frexp(a._data)
    exponent = exponent.astype(int32.numpy)
    return frexp_result(Frexp.apply(a, exponent), wrap(exponent, a._device))


@torch_keywords("input", "other", out=True)
def nextafter(a: Any, other: Any) -> Any:
    """The next float after a in the direction of other (a itself where they are equal)."""
    expect_tensor(a, "nextafter")
    expect_tensor(other, "nextafter", "other", 2)
    target = result_type(a, other)
    if not target.is_floating_point:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{_name(target)}'")
    return Nextafter.apply(as_operand(a, target), as_operand(other, target))


@torch_keywords("input", "values", out=True)
def heaviside(a: Any, values: Any) -> Any:
    """0 where a < 0, values where a == 0, 1 where a > 0 (no gradient, as in PyTorch)."""
    expect_tensor(a, "heaviside")
    expect_tensor(values, "heaviside", "values", 2)
    if a._dtype is not values._dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    if a.requires_grad or values.requires_grad:
        raise RuntimeError(
            "microtorch's heaviside has no gradient, as PyTorch's (\"derivative for "
            'aten::heaviside is not implemented"): call it on x.detach()'
        )
    x, v = a._data, values._data
    try:
        np.broadcast_shapes(x.shape, v.shape)
    except ValueError:
        raise broadcast_error(x.shape, v.shape) from None
    out = np.where(x == 0, v, (x > 0).astype(x.dtype))
    out = np.where(np.isnan(x), x, out) if x.dtype.kind == "f" else out
    return wrap(out.astype(a._dtype.numpy), a._device)

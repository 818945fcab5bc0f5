"""Binary element-wise ops (``+ - * / **``, maximum, where ...) and comparisons.

The public functions around the formulas in ``microtorch/ops/elementwise.py``: each picks
PyTorch's result dtype (``api/operands.py`` casts the operands) and turns numpy's broadcasting
error into PyTorch's. Comparisons and logical ops record nothing: they are here alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor, type_name, views_first
from microtorch.api.arguments import parsed
from microtorch.api.division import div_rounded
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import (
    _NUMBERS,
    _PY_NUMBERS,
    Operand,
    _binary,
    _check_operand,
    _data,
    _laid_out,
    as_operand,
    wrap,
)
from microtorch.api.unary import reciprocal
from microtorch.autograd import node as _node
from microtorch.device import check_same_device
from microtorch.dtypes import bool as _BOOL
from microtorch.dtypes import get_default_dtype, result_type
from microtorch.ops._broadcast import broadcast_error, first_broadcast_error
from microtorch.ops._layout import follow_inputs
from microtorch.ops.elementwise import (
    Add,
    Div,
    MaskedFill,
    Maximum,
    Minimum,
    Mul,
    Pow,
    PowScalar,
    RPow,
    Rsub,
    Sub,
    Where,
)
from microtorch.ops.scalar import SubScalar

__all__ = [
    "add",
    "sub",
    "rsub",
    "sub_number",
    "mul",
    "div",
    "rdiv",
    "pow",
    "rpow",
    "maximum",
    "minimum",
    "where",
    "masked_fill",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "logical_not",
    "logical_and",
    "logical_or",
    "isclose",
    "allclose",
    "equal",
]


def add(a: Operand, b: Operand, *, alpha: float = 1) -> Any:
    """a + alpha * b, broadcasting."""
    if alpha == 1:
        return _binary(Add, a, b)
    _check_alpha(a, b, alpha)
    return _binary(Add, a, b, None, (alpha,))


def sub(a: Operand, b: Operand, *, alpha: float = 1) -> Any:
    """a - alpha * b, broadcasting. Not for two bool tensors (use ``~`` or ``logical_xor``)."""
    _check_bool_sub(a, b)
    if alpha == 1:
        return _binary(Sub, a, b)
    _check_alpha(a, b, alpha)
    return _binary(Sub, a, b, None, (alpha,))


def sub_number(a: Any, c: Any, alpha: Any = 1) -> Any:
    """a - alpha * c for a number c: PyTorch's ``sub(Tensor, Number other, Number alpha)``,
    the overload ``torch.subtract(x, 2, 3)`` reaches (its node is SubBackward1)."""
    expect_tensor(a, "subtract")
    _check_bool_sub(a, c)
    _check_alpha(a, c, alpha)
    target = result_type(a, c)  # (an int tensor minus 2.5 is float32)
    return SubScalar.apply(as_operand(a, target), c, alpha)


def _check_bool_sub(a: Operand, b: Operand) -> None:
    # PyTorch refuses - on masks: 1 - mask would be an int tensor, not the inverted mask.
    # (a Python bool counts as a bool tensor, as PyTorch wraps it: x - False is refused too)
    a_bool = type(a) is bool or getattr(a, "_dtype", None) is _BOOL
    b_bool = type(b) is bool or getattr(b, "_dtype", None) is _BOOL
    if a_bool and b_bool:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead. (To invert a mask, use `~` or logical_not().)"
        )
    if a_bool or b_bool:
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead. (For "
            "numbers, convert first, e.g. 1 - mask.float().)"
        )


def _check_alpha(a: Operand, b: Operand, alpha: float) -> None:
    if isinstance(alpha, complex):
        raise RuntimeError(
            "For non-complex input tensors, argument alpha must not be a complex number. "
            "(Fix: microtorch has no complex tensors; a real alpha)"
        )
    if isinstance(alpha, (bool, np.bool_)) and result_type(a, b) is not _BOOL:
        raise RuntimeError(
            "Boolean alpha only supported for Boolean results. (Fix: a number alpha, e.g. 1)"
        )
    if isinstance(alpha, (float, np.floating)) and not result_type(a, b).is_floating_point:
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number. "
            "(Fix: an int alpha, or float tensors, e.g. a.float())"
        )


def rsub(a: Any, c: float) -> Any:
    """c - a for a Python number c (what ``2 - x`` computes)."""
    _check_bool_sub(a, c)
    target = result_type(a, c)
    return Rsub.apply(as_operand(a, target), np.asarray(c, dtype=target.numpy))


def mul(a: Operand, b: Operand) -> Any:
    """a * b, element by element, broadcasting."""
    return _binary(Mul, a, b)


def div(a: Operand, b: Operand, *, rounding_mode: str | None = None) -> Any:
    """a / b (true division: integers give floats), broadcasting."""
    # x / 64 (a float tensor, a nonzero number): no zero to divide by, no warning to silence
    Tensor = _node.Tensor
    if type(b) in _PY_NUMBERS and b and rounding_mode is None and isinstance(a, Tensor):
        return _binary(Div, a, b, None if a._dtype.is_floating_point else get_default_dtype())
    if rounding_mode is not None:
        return div_rounded(a, b, rounding_mode)
    _check_operand("div", b, "other", 2)
    target = result_type(a, b)
    if not target.is_floating_point:
        target = get_default_dtype()
    return _binary(Div, a, b, target)  # x / 0 is inf or nan, as in PyTorch


def rdiv(a: Any, c: float) -> Any:
    """c / a for a Python number c: PyTorch computes it as ``reciprocal(a) * c``."""

    return mul(reciprocal(a), c)


def pow(a: Any, exponent: Operand) -> Any:  # noqa: A001 - PyTorch's name
    """a ** exponent; a Python-number exponent records ``PowBackward0``."""
    Tensor = _node.Tensor
    if type(exponent) in _PY_NUMBERS and isinstance(a, Tensor) and a._dtype.is_floating_point:
        return PowScalar.apply(a, exponent)  # the common case: x ** 2 keeps x's dtype
    if isinstance(exponent, _node.Tensor):
        if not result_type(a, exponent).is_floating_point:
            return _integer_pow(a, exponent)
        return _binary(Pow, a, exponent)
    if not isinstance(a, _node.Tensor):
        return rpow(exponent, a)
    _check_operand("pow", exponent, "exponent", 2)
    target = result_type(a, exponent)
    if not target.is_floating_point and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if target is _BOOL:  # a bool tensor to a bool power stays bool: x ** True is x, ** False True
        return wrap(a._data | (not exponent), a._device)
    return PowScalar.apply(as_operand(a, target), exponent)


def rpow(a: Any, c: float) -> Any:
    """c ** a for a Python number c (what ``2 ** x`` computes)."""
    target = result_type(a, c)
    if not target.is_floating_point:
        return _integer_pow(c, a)
    return RPow.apply(as_operand(a, target), c)


def _integer_pow(a: Operand, b: Operand) -> Any:
    # Integers (no gradient): a negative exponent gives 0 unless a is 1 or -1, as PyTorch
    # computes it (numpy refuses: "Integers to negative integer powers are not allowed").
    target = result_type(a, b).numpy
    if target == np.bool_:
        raise NotImplementedError("\"pow\" not implemented for 'Bool' (Fix: convert with .long())")
    x, n = np.asarray(_data(a), target), np.asarray(_data(b), target)
    try:
        whole = x ** np.abs(n)
    except ValueError:
        raise broadcast_error(x.shape, n.shape) from None
    device = getattr(a, "_device", None) or getattr(b, "_device", None)
    return wrap(np.where((n < 0) & (np.abs(x) != 1), np.zeros((), target), whole), device)


def maximum(a: Any, b: Any) -> Any:
    """The larger of a and b, element by element (both tensors: for a number, use clamp)."""
    _both_tensors("maximum", a, b)
    return _binary(Maximum, a, b)


def minimum(a: Any, b: Any) -> Any:
    """The smaller of a and b, element by element (both tensors: for a number, use clamp)."""
    _both_tensors("minimum", a, b)
    return _binary(Minimum, a, b)


def _both_tensors(op: str, a: Any, b: Any) -> None:
    for value, arg, position in ((a, "input", 1), (b, "other", 2)):
        if not isinstance(value, _node.Tensor):
            bound = "min" if op == "maximum" else "max"
            raise TypeError(
                f"{op}(): argument '{arg}' (position {position}) must be Tensor, not "
                f"{type_name(value)} (Fix: x.clamp({bound}=...) compares with a number)"
            )


def where(condition: Any, a: Operand = None, b: Operand = None) -> Any:
    """``a`` where ``condition`` is True, else ``b``; ``where(condition)`` alone is
    ``nonzero(condition, as_tuple=True)``, the indices where it is nonzero."""
    expect_tensor(condition, "where", "condition")
    cond = _data(condition)
    if a is None and b is None:
        return tuple(wrap(k.astype(np.int64), condition._device) for k in np.nonzero(cond))
    if cond.dtype != np.bool_:
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{wrap(cond).dtype._legacy[: -len('Tensor')]} (Fix: pass a comparison such as x > 0)"
        )
    target = result_type(a, b)
    device = getattr(a, "_device", None) or getattr(b, "_device", None)
    Tensor = _node.Tensor
    if not (
        isinstance(a, Tensor)
        and isinstance(b, Tensor)
        and np.result_type(a._data, b._data) == target.numpy
    ):  # (else numpy computes in PyTorch's dtype: the op sees the inputs themselves)
        a, b = as_operand(a, target, device), as_operand(b, target, device)
    try:
        out = Where.apply(cond, a, b)
    except ValueError:  # (PyTorch broadcasts condition, a, b in turn: the first clash speaks)
        raise first_broadcast_error(cond.shape, np.shape(_data(a)), np.shape(_data(b))) from None
    return out if out._data.ndim < 2 else _laid_out(out, cond, a, b)  # (cond first, as PyTorch)


@parsed(
    "masked_fill",
    "Tensor input, Tensor mask, Tensor value",
    "Tensor input, Tensor mask, Number value",
)
def masked_fill(a: Any, mask: Any, value: float) -> Any:
    """``a`` with ``value`` wherever ``mask`` is True."""
    expect_tensor(a, "masked_fill")
    if not isinstance(value, (_node.Tensor, *_NUMBERS)):  # (the parser's TypeError)
        raise TypeError(f"masked_fill(): value must be a number or a Tensor, not {type(value)}")
    if isinstance(mask, np.ndarray):  # an internal constant (e.g. label smoothing's ignore mask)
        mask = wrap(mask)
    expect_tensor(mask, "masked_fill", "mask", 2)
    if mask._dtype.name != "bool":
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{mask._dtype._legacy.removesuffix('Tensor').lower()} (Fix: pass a comparison such "
            "as x > 0, or convert the mask with .bool())"
        )
    try:
        np.broadcast_shapes(mask._data.shape, a._data.shape)
    except ValueError:
        raise broadcast_error(mask._data.shape, a._data.shape) from None
    return MaskedFill.apply(a, mask._data, value)


def _compare(ufunc: np.ufunc, a: Operand, b: Operand) -> Any:
    name = ufunc.__name__.removeprefix("logical_")
    op = {"less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge"}.get(name)
    op = op or {"equal": "eq", "not_equal": "ne"}.get(name, ufunc.__name__)
    if not isinstance(a, _node.Tensor):
        expect_tensor(a, op)
    _check_operand(op, b, "other", 2)
    device = a._device
    if isinstance(b, _node.Tensor) and b._device is not device:
        check_same_device(op, device, b._device)
    try:
        out = ufunc(a._data, _data(b))
    except ValueError:
        raise broadcast_error(np.shape(_data(a)), np.shape(_data(b))) from None
    return wrap(out if out.ndim < 2 else follow_inputs(out, a._data, np.asarray(_data(b))), device)


def eq(a: Operand, b: Operand) -> Any:
    """a == b element by element, as a bool tensor (no graph)."""
    return _compare(np.equal, a, b)


def ne(a: Operand, b: Operand) -> Any:
    """a != b element by element."""
    return _compare(np.not_equal, a, b)


def lt(a: Operand, b: Operand) -> Any:
    """a < b element by element."""
    return _compare(np.less, a, b)


def le(a: Operand, b: Operand) -> Any:
    """a <= b element by element."""
    return _compare(np.less_equal, a, b)


def gt(a: Operand, b: Operand) -> Any:
    """a > b element by element."""
    return _compare(np.greater, a, b)


def ge(a: Operand, b: Operand) -> Any:
    """a >= b element by element."""
    return _compare(np.greater_equal, a, b)


@torch_keywords("input")
def logical_not(a: Any) -> Any:
    """not a, element by element."""
    expect_tensor(a, "logical_not")
    return wrap(np.logical_not(a._data), a._device)


def logical_and(a: Any, b: Any) -> Any:
    """a and b, element by element."""
    expect_tensor(b, "logical_and", "other", 2)  # (a number too: PyTorch takes tensors only)
    return _compare(np.logical_and, a, b)


def logical_or(a: Any, b: Any) -> Any:
    """a or b, element by element."""
    expect_tensor(b, "logical_or", "other", 2)  # (a number too: PyTorch takes tensors only)
    return _compare(np.logical_or, a, b)


def logical_xor(a: Any, b: Any) -> Any:
    """a or b but not both, element by element."""
    expect_tensor(b, "logical_xor", "other", 2)  # (a number too: PyTorch takes tensors only)
    return _compare(np.logical_xor, a, b)


@torch_keywords("input", "other")
def isclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Any:
    """|a - b| <= atol + rtol * |b|, element by element, as a bool tensor."""
    _same_dtype(a, b, "isclose")
    _composite_views_first(a, b, rtol, atol)
    return wrap(np.isclose(_data(a), _data(b), rtol=rtol, atol=atol, equal_nan=equal_nan))


@torch_keywords("input", "other")
def allclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    """True if every element of a is close to b (see ``isclose``)."""
    _same_dtype(a, b, "allclose")
    try:
        return bool(np.allclose(_data(a), _data(b), rtol=rtol, atol=atol, equal_nan=equal_nan))
    except ValueError:
        raise broadcast_error(np.shape(_data(a)), np.shape(_data(b))) from None


def _composite_views_first(a: Any, b: Any, rtol: float, atol: float) -> None:
    # PyTorch's isclose is made of ops with gradients (rtol * b, then a - b), which refuse a
    # view they no longer let you use, b's first; with no tolerance it is only a == b.
    # (allclose is one op of its own: it refuses nothing.)
    if rtol != 0 or atol != 0:
        views_first(b, a)


def _same_dtype(a: Any, b: Any, op: str) -> None:
    expect_tensor(a, op)
    expect_tensor(b, op, "other", 2)
    if a._dtype is not b._dtype:
        raise RuntimeError(
            f"{a._dtype._legacy.removesuffix('Tensor')} did not match "
            f"{b._dtype._legacy.removesuffix('Tensor')} (Fix: convert one, e.g. b.to(a.dtype))"
        )


@torch_keywords("input", "other")
def equal(a: Any, b: Any) -> bool:
    """True if a and b have the same shape and the same values."""
    expect_tensor(a, "equal")
    expect_tensor(b, "equal", "other", 2)
    return bool(np.shape(_data(a)) == np.shape(_data(b)) and np.array_equal(_data(a), _data(b)))

"""Binary element-wise ops (``+ - * / **``, maximum, where ...) and comparisons.

Each op is a ``Function`` whose ``forward`` and ``backward`` sit together; ``unbroadcast``
reduces each gradient back to its input's shape. The public functions below pick PyTorch's
result dtype and turn numpy's broadcasting error into PyTorch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd import node as _node
from microtorch.autograd.function import Function, NumpyFunction
from microtorch.autograd.versions import cast_copy
from microtorch.dtypes import bool as _BOOL
from microtorch.dtypes import dtype, get_default_dtype, result_type
from microtorch.ops._broadcast import broadcast_error, first_broadcast_error, unbroadcast
from microtorch.ops._checks import expect_tensor, type_name, views_first
from microtorch.ops._layout import follow_inputs, row_major

__all__ = [
    "add", "sub", "rsub", "mul", "div", "rdiv", "pow", "rpow", "maximum", "minimum", "where",
    "masked_fill", "eq", "ne", "lt", "le", "gt", "ge", "logical_not", "logical_and",
    "logical_or", "as_operand", "wrap", "isclose", "allclose", "equal",
]  # fmt: skip

Operand = Any  # a Tensor, a numpy array standing for a constant, or a Python number


class Add(NumpyFunction):
    """z = a + alpha * b, so dz/da = 1 and dz/db = alpha (usually 1: the gradient passes)."""

    node_name = "AddBackward0"
    ctx_fields = ("alpha",)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        return a + b if alpha == 1 else a + (alpha * b).astype(b.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        need_a, need_b = ctx.needs_input_grad[:2]  # e.g. no gradient for a constant
        gb = grad_output if ctx.alpha == 1 else grad_output * ctx.alpha
        return (
            unbroadcast(grad_output, ctx.input_shape(0)) if need_a else None,
            unbroadcast(gb, ctx.input_shape(1)) if need_b else None,
        )


class Sub(NumpyFunction):
    """z = a - alpha * b, so dz/da = 1 and dz/db = -alpha."""

    node_name = "SubBackward0"
    ctx_fields = ("alpha",)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        return a - b if alpha == 1 else a - (alpha * b).astype(b.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        need_a, need_b = ctx.needs_input_grad[:2]
        return (
            unbroadcast(grad_output, ctx.input_shape(0)) if need_a else None,
            unbroadcast(-grad_output * ctx.alpha, ctx.input_shape(1)) if need_b else None,
        )


class Rsub(NumpyFunction):
    """z = c - a for a number c (``2 - x``), so dz/da = -1."""

    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, c):
        return c - a

    @staticmethod
    def backward(ctx, grad_output):
        return -grad_output


class Mul(NumpyFunction):
    """z = a * b, so dz/da = b and dz/db = a."""

    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad  # e.g. no gradient for the 3 in x * 3
        ctx.save_for_backward(b if need_a else None, a if need_b else None)  # only what's used
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        b, a = ctx.saved_tensors  # (b first: PyTorch checks b before a for in-place changes)
        return (  # (summed back to each input's shape, if forward broadcast it)
            unbroadcast(grad_output * b, ctx.input_shape(0)) if b is not None else None,
            unbroadcast(grad_output * a, ctx.input_shape(1)) if a is not None else None,
        )


class Div(NumpyFunction):
    """z = a / b, so dz/da = 1 / b and dz/db = -a / b**2."""

    node_name = "DivBackward0"

    @staticmethod
    def forward(ctx, a, b):
        need_b = ctx.needs_input_grad[1]
        ctx.save_for_backward(b, a if need_b else None)  # a only for b's gradient
        return a / b

    @staticmethod
    def backward(ctx, grad_output):
        b, a = ctx.saved_tensors  # (b first: PyTorch checks b before a for in-place changes)
        need_a, need_b = ctx.needs_input_grad
        ga = grad_output / b
        return (
            unbroadcast(ga, ctx.input_shape(0)) if need_a else None,
            unbroadcast(-ga * a / b, ctx.input_shape(1)) if need_b else None,
        )


class PowScalar(NumpyFunction):
    """z = a ** n for a number n, so dz/da = n * a ** (n - 1)."""

    node_name = "PowBackward0"
    ctx_fields = ("n",)

    @staticmethod
    def forward(ctx, a, n):
        ctx.save_for_backward(a)
        ctx.n = n
        return a**n

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        n = ctx.n
        if n == 0:  # z = 1 everywhere: 0, where n * a ** (n - 1) would give 0 * inf at a = 0
            return np.zeros_like(a)
        return grad_output * (n * a ** (n - 1))


class Pow(NumpyFunction):
    """z = a ** b, so dz/da = b * a ** (b - 1) and dz/db = a ** b * log(a)."""

    node_name = "PowBackward1"

    @staticmethod
    def forward(ctx, a, b):
        out = follow_inputs(a**b, a, b)  # (saved: laid out here, not after, as _binary does)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, b, out = ctx.saved_tensors
        ga = np.where(b == 0, 0, grad_output * b * a ** (b - 1))  # b = 0: z = 1, dz/da = 0
        gb = grad_output * np.where((a == 0) & (b >= 0), 0, out * np.log(a))  # 0 ** b: flat
        return unbroadcast(ga, a.shape), unbroadcast(gb, b.shape)


class RPow(NumpyFunction):
    """z = c ** a for a number c (``2 ** x``), so dz/da = c ** a * log(c)."""

    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx, a, c):
        out = row_major(np.power(c, a, dtype=a.dtype))  # (PyTorch's is row-major: not a's)
        ctx.save_for_backward(a, out)  # a as well, as PyTorch (checked first, then out)
        ctx.log_c = np.log(c) if c > 0 else -np.inf if c == 0 else np.nan
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        g = grad_output * out * np.asarray(ctx.log_c, dtype=out.dtype)
        if ctx.log_c != -np.inf:
            return g
        return np.where(a >= 0, np.zeros((), g.dtype), g)  # 0 ** a is flat where a >= 0


class Maximum(NumpyFunction):
    """z = max(a, b): the gradient goes to the larger input (split evenly on ties)."""

    node_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.maximum(a, b)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        # PyTorch: where(a == b, g / 2, g), then 0 where the other input wins (a +0, not -0)
        g = np.where(a == b, grad_output / 2, grad_output)
        zero = np.zeros((), g.dtype)
        return unbroadcast(np.where(a < b, zero, g), a.shape), unbroadcast(
            np.where(a > b, zero, g), b.shape
        )


class Minimum(NumpyFunction):
    """z = min(a, b): the gradient goes to the smaller input (split evenly on ties)."""

    node_name = "MinimumBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.minimum(a, b)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        # PyTorch: where(a == b, g / 2, g), then 0 where the other input wins (a +0, not -0)
        g = np.where(a == b, grad_output / 2, grad_output)
        zero = np.zeros((), g.dtype)
        return unbroadcast(np.where(a > b, zero, g), a.shape), unbroadcast(
            np.where(a < b, zero, g), b.shape
        )


class Where(NumpyFunction):
    """z = a where cond else b: each input gets the gradient at the positions it was chosen."""

    node_name = "WhereBackward0"
    ctx_fields = ("shapes",)

    @staticmethod
    def forward(ctx, cond, a, b):
        ctx.save_for_backward(cond)
        ctx.shapes = (a.shape, b.shape)
        return np.where(cond, a, b)

    @staticmethod
    def backward(ctx, grad_output):
        (cond,) = ctx.saved_tensors
        sa, sb = ctx.shapes
        zero = np.zeros((), grad_output.dtype)
        return (
            unbroadcast(np.where(cond, grad_output, zero), sa),
            unbroadcast(np.where(cond, zero, grad_output), sb),
        )


class MaskedFill(NumpyFunction):
    """z = a with ``value`` where mask is True: the gradient is 0 at the filled positions."""

    node_name = "MaskedFillBackward0"
    ctx_fields = ("shape",)

    @staticmethod
    def forward(ctx, a, mask, value):
        ctx.save_for_backward(mask)
        ctx.shape = a.shape
        return row_major(np.where(mask, np.asarray(value, a.dtype), a))  # (as PyTorch's)

    @staticmethod
    def backward(ctx, grad_output):
        (mask,) = ctx.saved_tensors
        return unbroadcast(np.where(mask, np.zeros((), grad_output.dtype), grad_output), ctx.shape)


def wrap(data: np.ndarray, device: Any = None) -> Any:
    """A Tensor around ``data`` with no graph (for results that have no gradient)."""
    return _node.plain_tensor(data, device)


def as_operand(value: Operand, like: dtype, device: Any = None) -> Any:
    """``value`` as a Tensor of dtype ``like``; a Python number becomes a 0-d constant tensor.

    PyTorch wraps numbers the same way, which is why ``(x * 3).grad_fn.next_functions`` has
    two entries, the second ``(None, 0)``.
    """
    if isinstance(value, _node.Tensor):
        if value._dtype is like:
            return value
        if value.requires_grad:
            cast = value.to(like)
        else:
            cast = wrap(value._data.astype(like.numpy), value._device)
        cast_copy(cast._data, value)  # (its in-place changes are the copy's: see versions)
        return cast
    return _constant(value, like, device)


def _constant(value: Any, like: dtype, device: Any) -> Any:
    # Python numbers used in ops (the 3 in ``x * 3``) become 0-d constant tensors; the same
    # number is made once (a graph of 100,000 ``y * 1.01`` holds one). Read-only, so sharing
    # is safe. Keyed by the device's type, not the device (its hash is Python code).
    key = (value, type(value), like, device.type if device is not None else "cpu")
    constant = _CONSTANTS.get(key)
    if constant is None:
        with np.errstate(over="ignore"):  # 1e300 as float32 is inf, silently as in PyTorch
            data = np.array(value, dtype=like.numpy)
        data.flags.writeable = False  # shared below: nobody may change it
        constant = wrap(data, device)  # on the other operand's device
        if value and value == value:  # not 0 (0.0 == -0.0 would lose the sign) nor nan
            if len(_CONSTANTS) > 1024:
                _CONSTANTS.clear()
            _CONSTANTS[key] = constant
    return constant


_CONSTANTS: dict[tuple[Any, ...], Any] = {}


def _binary(
    fn: type[Function], a: Operand, b: Operand, out: dtype | None = None, extra: tuple = ()
) -> Any:
    # Cast both operands to PyTorch's result dtype, then run; numpy's broadcasting error
    # becomes PyTorch's, which names the clashing sizes.
    Tensor = _node.Tensor
    if isinstance(b, Tensor):
        if not (isinstance(a, Tensor) and a._dtype is b._dtype and out is None):
            a, b = _cast(fn, a, b, out)
    elif (
        type(b) in _PY_NUMBERS
        and out is None
        and isinstance(a, Tensor)
        and a._dtype.is_floating_point
    ):
        b = _constant(b, a._dtype, a._device)  # float tensor and a number: the tensor's dtype
    else:
        a, b = _cast(fn, a, b, out)
    try:
        result = fn.apply(a, b, *extra) if extra else fn.apply(a, b)
    except ValueError:
        raise broadcast_error(np.shape(_data(a)), np.shape(_data(b))) from None
    if result._data.ndim < 2 or a._data.flags.c_contiguous and b._data.flags.c_contiguous:
        return result  # (row-major inputs give a row-major result in both libraries)
    return _laid_out(result, a, b)


def _laid_out(out: Any, *inputs: Operand) -> Any:
    # The memory order PyTorch gives an element-wise result (see ops/_layout.py). These ops
    # save their inputs, not their result, so the result's array may be swapped for a copy
    # (Pow, which saves its result, lays it out in its forward).
    laid_out = follow_inputs(out._data, *[np.asarray(_data(x)) for x in inputs])
    saved = getattr(out._grad_fn, "_saved", None) or ()
    if laid_out is not out._data and any(s is not None and s.data is out._data for s in saved):
        raise AssertionError(f"{out._grad_fn.name()} saved its result: lay it out in forward")
    out._data = laid_out
    return out


_PY_NUMBERS = (int, float)  # exactly these types: bool and numpy scalars take the long way


def _cast(fn: type[Function], a: Operand, b: Operand, out: dtype | None) -> tuple[Any, Any]:
    # Both operands as tensors of the result dtype (``out`` if given, else PyTorch's rules).
    if not isinstance(a, _node.Tensor):
        _check_operand(fn, a, "input", 1)
        a = wrap(np.array(a, dtype=result_type(a, b).numpy), b._device)
    _check_operand(fn, b, "other", 2)
    target = out or result_type(a, b)
    floats = (
        isinstance(b, _node.Tensor) and a._dtype.is_floating_point and b._dtype.is_floating_point
    )
    if floats and np.result_type(a._data, b._data) == target.numpy:
        return a, b  # numpy computes in PyTorch's dtype: the op sees (and saves) the inputs
    # (an integer or bool operand is cast: the op's edges are its floating-point inputs)
    return as_operand(a, target), as_operand(b, target, a._device)


def _data(x: Any) -> Any:
    return x._data if isinstance(x, _node.Tensor) else x


_NUMBERS = (int, float, np.ndarray, np.generic)  # bool is an int; Tensor is checked apart


def _check_operand(fn: type[Function] | str, value: Any, arg: str, position: int) -> None:
    # PyTorch's text for x + "1" or torch.add([1.0], x): name the function and the argument.
    if not isinstance(value, _NUMBERS) and not isinstance(value, _node.Tensor):
        op = fn if isinstance(fn, str) else fn.__name__.lower().removesuffix("scalar")
        raise TypeError(
            f"{op}(): argument '{arg}' (position {position}) must be Tensor, not "
            f"{type_name(value)} (Fix: use a tensor or a Python number)"
        )


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


def _check_bool_sub(a: Operand, b: Operand) -> None:
    # PyTorch refuses - on masks: 1 - mask would be an int tensor, not the inverted mask.
    a_bool, b_bool = getattr(a, "_dtype", None) is _BOOL, getattr(b, "_dtype", None) is _BOOL
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
    if isinstance(alpha, float) and not result_type(a, b).is_floating_point:
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
        from microtorch.ops.division import div_rounded  # (division builds on this module)

        return div_rounded(a, b, rounding_mode)
    _check_operand("div", b, "other", 2)
    target = result_type(a, b)
    if not target.is_floating_point:
        target = get_default_dtype()
    return _binary(Div, a, b, target)  # x / 0 is inf or nan, as in PyTorch


def rdiv(a: Any, c: float) -> Any:
    """c / a for a Python number c: PyTorch computes it as ``reciprocal(a) * c``."""
    from microtorch.ops.unary import reciprocal

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


def where(condition: Any, a: Operand, b: Operand) -> Any:
    """``a`` where ``condition`` is True, else ``b``."""
    expect_tensor(condition, "where", "condition")
    cond = _data(condition)
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


def masked_fill(a: Any, mask: Any, value: float) -> Any:
    """``a`` with ``value`` wherever ``mask`` is True."""
    expect_tensor(a, "masked_fill")
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
    if op in ("eq", "ne") and not isinstance(b, (_node.Tensor, *_NUMBERS)):
        return op == "ne"  # x == None is False, as in PyTorch (Python compares identities)
    _check_operand(op, b, "other", 2)
    device = a._device
    if isinstance(b, _node.Tensor) and b._device is not device:
        from microtorch.device import check_same_device

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


def logical_not(a: Any) -> Any:
    """not a, element by element."""
    expect_tensor(a, "logical_not")
    return wrap(np.logical_not(a._data), a._device)


def logical_and(a: Any, b: Any) -> Any:
    """a and b, element by element."""
    return _compare(np.logical_and, a, b)


def logical_or(a: Any, b: Any) -> Any:
    """a or b, element by element."""
    return _compare(np.logical_or, a, b)


def isclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Any:
    """|a - b| <= atol + rtol * |b|, element by element, as a bool tensor."""
    _same_dtype(a, b, "isclose")
    _composite_views_first(a, b, rtol, atol)
    return wrap(np.isclose(_data(a), _data(b), rtol=rtol, atol=atol, equal_nan=equal_nan))


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


def equal(a: Any, b: Any) -> bool:
    """True if a and b have the same shape and the same values."""
    expect_tensor(a, "equal")
    expect_tensor(b, "equal", "other", 2)
    return bool(np.shape(_data(a)) == np.shape(_data(b)) and np.array_equal(_data(a), _data(b)))

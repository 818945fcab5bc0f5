"""Binary element-wise ops (``+ - * / **``, maximum, where, masked_fill).

The formulas: one ``Function`` per op, forward and backward side by side; ``unbroadcast``
reduces each gradient back to its input's shape. The public functions that call them are in
``microtorch/api/elementwise.py``: they pick PyTorch's result dtype and turn numpy's
broadcasting error into PyTorch's.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import follow_inputs, row_major

__all__ = [
    "Add",
    "Sub",
    "Rsub",
    "Mul",
    "Div",
    "PowScalar",
    "Pow",
    "RPow",
    "Maximum",
    "Minimum",
    "Where",
    "MaskedFill",
]


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
            unbroadcast(
                -grad_output if ctx.alpha == 1 else -grad_output * ctx.alpha, ctx.input_shape(1)
            )
            if need_b
            else None,
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
        return (
            unbroadcast(grad_output / b, ctx.input_shape(0)) if need_a else None,
            unbroadcast(-grad_output * ((a / b) / b), ctx.input_shape(1)) if need_b else None,
        )  # (b's in PyTorch's grouping: the same roundings, and the same recorded ops)


class PowScalar(NumpyFunction):
    """z = a ** n for a number n, so dz/da = n * a ** (n - 1)."""

    node_name = "PowBackward0"
    ctx_fields = ("n",)

    @staticmethod
    def forward(ctx, a, n):
        ctx.save_for_backward(a)
        ctx.n = n
        return power(a, n)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        n = ctx.n
        if n == 0:  # z = 1 everywhere: 0, where n * a ** (n - 1) would give 0 * inf at a = 0
            return np.zeros_like(a)
        return grad_output * (n * power(a, n - 1))


def power(a: np.ndarray, n: float) -> np.ndarray:
    """a ** n for a number n, as PyTorch's CPU kernel computes it: by multiplying for n = 2, 3
    and -2, and 1 / sqrt(a) for n = -0.5 (numpy's general ``power`` is slower for these, and
    its last bit can differ); numpy's ``power`` for any other n. (A formula recorded with
    create_graph=True records pow itself, as PyTorch's formulas do: ``PowBackward0``.)"""
    if type(a) is not np.ndarray:
        return a**n
    if n == 2:
        return a * a
    if n == 3:
        return a * a * a
    if n == -2:
        return 1 / (a * a)
    if n == -0.5:
        return 1 / np.sqrt(a)
    return a**n


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
        g = grad_output * (out * float(ctx.log_c))  # (a number: out's dtype)
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

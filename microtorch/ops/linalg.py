"""Matrix products: ``@``/matmul (dot, mv, mm, bmm and batched), and addmm for ``Linear``.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/linalg.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import row_major

__all__ = [
    "Mm",
    "_Product",
    "Mv",
    "Dot",
    "Vdot",
    "Bmm",
    "Addmm",
    "_SqueezeFirst",
    "VectorNorm",
    "NormDim",
]


class Mm(NumpyFunction):
    """Z = A @ B (matrices), so dL/dA = G @ B.T and dL/dB = A.T @ G."""

    node_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad  # e.g. no gradient for the input X
        ctx.save_for_backward(b if need_a else None, a if need_b else None)  # only what's used
        return a @ b

    @staticmethod
    def backward(ctx, grad_output):
        b, a = ctx.saved_tensors  # (PyTorch reads B first: its errors name B first too)
        need_a, need_b = ctx.needs_input_grad  # skip a product nobody needs
        return grad_output @ b.T if need_a else None, a.T @ grad_output if need_b else None


class _Product(NumpyFunction):
    """Base of the products below: each saves only what the needed gradients use (as
    PyTorch, so changing the other input in place afterwards is no error)."""

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.shapes = (a.shape, b.shape)
        return a @ b


class Mv(_Product):
    """z = A @ v (matrix times vector), so dL/dA = outer(g, v) and dL/dv = A.T @ g."""

    node_name = "MvBackward0"

    @staticmethod
    def backward(ctx, grad_output):
        a, v = ctx.saved_tensors
        return (
            np.outer(grad_output, v) if v is not None else None,
            a.T @ grad_output if a is not None else None,
        )


class Dot(_Product):
    """z = a . b (vectors), so dz/da = b and dz/db = a."""

    node_name = "DotBackward0"

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return (
            grad_output * b if b is not None else None,
            grad_output * a if a is not None else None,
        )


class Vdot(Dot):
    """z = conj(a) . b, for real vectors the dot product (``linalg.vecdot`` of two vectors)."""

    node_name = "VdotBackward0"


class Bmm(_Product):
    """Z[i] = A[i] @ B[i] for each batch i; broadcast batch dims are summed back."""

    node_name = "BmmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(b if need_a else None, a if need_b else None)  # (B first, as Mm)
        ctx.shapes = (a.shape, b.shape)
        return a @ b

    @staticmethod
    def backward(ctx, grad_output):
        b, a = ctx.saved_tensors  # (PyTorch reads B first: its errors name B first too)
        sa, sb = ctx.shapes
        ga = None if b is None else unbroadcast(grad_output @ np.swapaxes(b, -1, -2), sa)
        gb = None if a is None else unbroadcast(np.swapaxes(a, -1, -2) @ grad_output, sb)
        return ga, gb


class Addmm(NumpyFunction):
    """Z = bias + X @ W.T... in PyTorch's form Z = c + A @ B, so dL/dc = G summed to c's shape,
    dL/dA = G @ B.T, dL/dB = A.T @ G. ``Linear`` on a batch records this one node."""

    node_name = "AddmmBackward0"

    ctx_fields = ("c_shape",)

    @staticmethod
    def forward(ctx, c, a, b):
        _, need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(b if need_a else None, a if need_b else None)  # only what's used
        ctx.c_shape = c.shape
        out = a @ b
        if c.dtype != out.dtype or c.ndim > 2:  # (a bias of its own dtype, or more dims)
            return c + out
        out += c  # into the product: one new array, not two (the same sums as c + a @ b)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        b, a = ctx.saved_tensors  # (PyTorch reads B first: its errors name B first too)
        need_c, need_a, need_b = ctx.needs_input_grad  # skip products nobody needs
        return (
            unbroadcast(grad_output, ctx.c_shape) if need_c else None,
            grad_output @ b.T if need_a else None,
            a.T @ grad_output if need_b else None,
        )


class _SqueezeFirst(NumpyFunction):
    """z = a without its leading size-1 dim (PyTorch's in-place ``squeeze_(0)``)."""

    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, a):
        return a[0]

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output[None]


class VectorNorm(NumpyFunction):
    """z = (sum |a|**p) ** (1/p), so dz/da = sign(a) * |a|**(p-1) / z**(p-1) (a / z for p=2);
    for p = inf (-inf) the gradient is sign(a), shared among the largest (smallest) |a|."""

    node_name = "LinalgVectorNormBackward0"
    ctx_fields = ("p", "axes", "keepdim")

    @staticmethod
    def forward(ctx, a, p, axes, keepdim):
        out = row_major(np.asarray(_vector_norm(a, p, axes, keepdim), dtype=a.dtype))
        ctx.save_for_backward(a, out)
        ctx.p, ctx.axes, ctx.keepdim = p, axes, keepdim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        p, axes = ctx.p, ctx.axes
        if p == 0:  # a count of nonzeros: PyTorch sends no gradient at all (.grad stays None)
            return None
        if not ctx.keepdim:  # the reduced dims back as size 1, to broadcast against a
            grad_output, out = np.expand_dims(grad_output, axes), np.expand_dims(out, axes)
        with np.errstate(divide="ignore", invalid="ignore"):  # the norm of zeros: gradient 0
            if np.isinf(p):
                hit = np.abs(a) == out
                local = np.sign(a) * hit / hit.sum(axis=axes, keepdims=True)
            elif p == 2:
                local = a / out
            elif p == 1:
                local = np.sign(a)
            else:
                local = np.sign(a) * np.abs(a) ** (p - 1) / out ** (p - 1)
        zero = np.zeros((), a.dtype)
        return (grad_output * np.where(out == 0, zero, local)).astype(a.dtype)


def _vector_norm(a: np.ndarray, p: float, axes: tuple[int, ...], keepdim: bool) -> np.ndarray:
    # (sum |a|**p) ** (1/p) over axes; inf/-inf the largest/smallest |a|, 0 counts nonzeros
    m = np.abs(a)
    if p == np.inf:
        return m.max(axis=axes, keepdims=keepdim)
    if p == -np.inf:
        return m.min(axis=axes, keepdims=keepdim)
    if p == 0:
        return (m != 0).sum(axis=axes, keepdims=keepdim)
    with np.errstate(divide="ignore", over="ignore"):  # negative p: |0| ** p is inf
        return (m**p).sum(axis=axes, keepdims=keepdim) ** (1 / p)


class NormDim(VectorNorm):
    """``VectorNorm`` as PyTorch's C++ ``at::norm(x, p, dim)`` records it (``NormBackward1``),
    in ``pairwise_distance`` for one."""

    node_name = "NormBackward1"

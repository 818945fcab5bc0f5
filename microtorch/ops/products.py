"""Scaled products added to a tensor: z = beta * c + alpha * (product of a and b), for
addmm (with beta and alpha), addmv, addr, addbmm and baddbmm; and rsub of two tensors.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, PyTorch's errors) are in
``microtorch/api/products.py``. ``c`` is broadcast to the product's shape, so its gradient is
beta * G summed back to c's shape; with beta == 0, c is not read (a nan in it is ignored).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = ["AddmmScaled", "Addmv", "Addr", "Addbmm", "Baddbmm", "RsubTensor", "RsubScalar"]


class _AddProduct(NumpyFunction):
    """z = beta * c + alpha * product(a, b); each subclass gives the product and the two
    gradients of the product (times alpha here)."""

    ctx_fields = ("c_shape", "beta", "alpha")

    @staticmethod
    def product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    @staticmethod
    def grads(g: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx, c, a, b, beta, alpha):
        ctx.save_for_backward(a, b)
        ctx.c_shape, ctx.beta, ctx.alpha = c.shape, beta, alpha
        out = cls.product(a, b)
        if alpha != 1:
            out = (out * alpha).astype(out.dtype, copy=False)
        if beta == 0:  # (c is not read: PyTorch's rule, so nan * 0 does not leak in)
            return np.broadcast_to(out, np.broadcast_shapes(out.shape, c.shape)).copy()
        scaled = c if beta == 1 else (c * beta).astype(c.dtype, copy=False)
        return scaled + out

    @classmethod
    def backward(cls, ctx, grad_output):
        a, b = ctx.saved_tensors
        need_c, need_a, need_b = ctx.needs_input_grad[:3]
        grad_a, grad_b = cls.grads(grad_output, a, b) if need_a or need_b else (None, None)
        return (
            unbroadcast(grad_output * ctx.beta, ctx.c_shape) if need_c else None,
            grad_a * ctx.alpha if need_a else None,
            grad_b * ctx.alpha if need_b else None,
        )


class AddmmScaled(_AddProduct):
    """Z = beta * c + alpha * A @ B, so dL/dA = alpha * G @ B.T and dL/dB = alpha * A.T @ G."""

    node_name = "AddmmBackward0"

    @staticmethod
    def product(a, b):
        return a @ b

    @staticmethod
    def grads(g, a, b):
        return g @ b.T, a.T @ g


class Addmv(_AddProduct):
    """z = beta * c + alpha * A @ v, so dL/dA = alpha * outer(g, v), dL/dv = alpha * A.T @ g."""

    node_name = "AddmvBackward0"

    @staticmethod
    def product(a, b):
        return a @ b

    @staticmethod
    def grads(g, a, b):
        return np.outer(g, b), a.T @ g


class Addr(_AddProduct):
    """Z = beta * c + alpha * outer(u, v), so dL/du = alpha * G @ v, dL/dv = alpha * G.T @ u."""

    node_name = "AddrBackward0"

    @staticmethod
    def product(a, b):
        return np.outer(a, b)

    @staticmethod
    def grads(g, a, b):
        return g @ b, g.T @ a


class Addbmm(_AddProduct):
    """Z = beta * c + alpha * sum_i A[i] @ B[i], so dL/dA[i] = alpha * G @ B[i].T and
    dL/dB[i] = alpha * A[i].T @ G."""

    node_name = "AddbmmBackward0"

    @staticmethod
    def product(a, b):
        return (a @ b).sum(0)

    @staticmethod
    def grads(g, a, b):
        return g @ b.swapaxes(1, 2), a.swapaxes(1, 2) @ g


class Baddbmm(_AddProduct):
    """Z[i] = beta * c[i] + alpha * A[i] @ B[i], so dL/dA[i] = alpha * G[i] @ B[i].T and
    dL/dB[i] = alpha * A[i].T @ G[i]."""

    node_name = "BaddbmmBackward0"

    @staticmethod
    def product(a, b):
        return a @ b

    @staticmethod
    def grads(g, a, b):
        return g @ b.swapaxes(1, 2), a.swapaxes(1, 2) @ g


class RsubTensor(NumpyFunction):
    """z = b - alpha * a (``torch.rsub(a, b)``), so dz/da = -alpha and dz/db = 1."""

    node_name = "RsubBackward0"
    ctx_fields = ("alpha",)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        return b - a if alpha == 1 else b - (alpha * a).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        need_a, need_b = ctx.needs_input_grad[:2]
        return (
            unbroadcast(-grad_output * ctx.alpha, ctx.input_shape(0)) if need_a else None,
            unbroadcast(grad_output, ctx.input_shape(1)) if need_b else None,
        )


class RsubScalar(NumpyFunction):
    """z = c - alpha * a for a number c (``torch.rsub(a, 2, alpha=3)``), so dz/da = -alpha."""

    node_name = "RsubBackward1"
    ctx_fields = ("alpha",)

    @staticmethod
    def forward(ctx, a, c, alpha):
        ctx.alpha = alpha
        return c - a if alpha == 1 else c - (alpha * a).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        return -grad_output if ctx.alpha == 1 else -grad_output * ctx.alpha

"""Householder reflections: ``householder_product`` (Q from reflectors, LAPACK's orgqr) and
``geqrf`` (QR as LAPACK stores it), ``ormqr`` (a product with Q), batched over leading dims.

The formulas: one ``Function`` per op, forward and backward side by side. The public functions
are in ``microtorch/api/householder.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.formula_values import recorded, run_recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import column_major

__all__ = [
    "reflectors", "householder_product", "householder_product_backward", "geqrf",
    "ormqr", "LinalgHouseholderProduct", "Geqrf", "Ormqr",
]  # fmt: skip


def _mt(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


def reflectors(a: np.ndarray, k: int) -> np.ndarray:
    """v_i (as columns, m x k): 1 at row i, A's column i below it, zeros above."""
    v = np.tril(a[..., :, :k], -1)
    v[..., np.arange(k), np.arange(k)] = 1
    return v


def _h(v: np.ndarray, tau: np.ndarray, i: int) -> np.ndarray:
    # H_i = I - tau_i v_i v_i^T
    col = v[..., :, i : i + 1]
    eye = np.eye(v.shape[-2], dtype=v.dtype)
    return eye - tau[..., i, None, None] * (col @ _mt(col))


def householder_product(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """The first n columns of H_1 H_2 ... H_k (k = tau.size(-1))."""
    m, n = a.shape[-2:]
    v = reflectors(a, tau.shape[-1])
    q = np.broadcast_to(np.eye(m, n, dtype=a.dtype), a.shape).copy()
    for i in reversed(range(tau.shape[-1])):
        q = _h(v, tau, i) @ q
    return q


class LinalgHouseholderProduct(NumpyFunction):
    """Q = H_1 ... H_k E (E the first n columns of I), H_i = I - tau_i v_i v_i^T. With
    R_i = H_{i+1} ... H_k E and the gradient gH_i = (H_1 ... H_{i-1})^T G R_i^T:
    dL/dtau_i = -v_i^T gH_i v_i and dL/dv_i = -tau_i (gH_i + gH_i^T) v_i (below the diagonal,
    into A's column i)."""

    node_name = "LinalgHouseholderProductBackward0"

    @staticmethod
    def forward(ctx, a, tau):
        ctx.save_for_backward(a, tau)
        return column_major(householder_product(a, tau))

    @staticmethod
    def backward(ctx, grad_output):
        a, tau = ctx.saved_tensors
        return householder_product_backward(a, tau, grad_output)


def householder_product_backward(
    a: np.ndarray, tau: np.ndarray, grad_output: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """dL/dA and dL/dtau of Q = householder_product(A, tau), from G = dL/dQ (see above)."""
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    v = reflectors(a, k)
    hs = [_h(v, tau, i) for i in range(k)]
    right = [np.broadcast_to(np.eye(m, n, dtype=a.dtype), a.shape)]  # R_k, then R_{k-1} ...
    for i in reversed(range(1, k)):
        right.append(hs[i] @ right[-1])
    right.reverse()  # right[i] = H_{i+1} ... H_k E
    ga, gtau = np.zeros_like(a), np.zeros_like(tau)
    left_t_g = grad_output  # (H_1 ... H_{i-1})^T G
    for i in range(k):
        gh = left_t_g @ _mt(right[i])
        col = v[..., :, i : i + 1]
        gtau[..., i] = -(_mt(col) @ gh @ col)[..., 0, 0]
        gv = -tau[..., i, None, None] * ((gh + _mt(gh)) @ col)
        ga[..., i + 1 :, i] = gv[..., i + 1 :, 0]
        left_t_g = _mt(hs[i]) @ left_t_g
    return ga, gtau


def _square_reflectors(a: np.ndarray, k: int) -> np.ndarray:
    # A's first k columns (the reflectors), then zero columns: m x m, so that
    # householder_product gives all of Q = H_1 ... H_k
    m = a.shape[-2]
    return np.concatenate([a[..., :, :k], np.zeros((*a.shape[:-2], m, m - k), a.dtype)], -1)


def _op_q(a: np.ndarray, tau: np.ndarray, transpose: bool) -> np.ndarray:
    # op(Q), Q = H_1 ... H_k (m x m)
    q = householder_product(_square_reflectors(a, tau.shape[-1]), tau)
    return _mt(q) if transpose else q


class Ormqr(NumpyFunction):
    """Y = op(Q) C (``left``) or C op(Q), Q = H_1 ... H_k the m x m product of geqrf's
    reflectors, op(Q) = Q^T if ``transpose``. dL/dC = op(Q)^T G (G op(Q)^T): ormqr again,
    transposed; dL/dop(Q) = G C^T (C^T G), which reaches A and tau through
    householder_product's derivative (below A's diagonal)."""

    node_name = "OrmqrBackward0"
    ctx_fields = ("left", "transpose")

    @staticmethod
    def forward(ctx, a, tau, c, left, transpose):
        ctx.save_for_backward(a, tau, c)
        ctx.left, ctx.transpose = left, transpose
        return column_major(ormqr(a, tau, c, left, transpose))

    @staticmethod
    def backward(ctx, grad_output):
        a, tau, c = ctx.saved_tensors
        left, transpose = ctx.left, ctx.transpose
        gc = ormqr(a, tau, grad_output, left, not transpose)
        gop = grad_output @ _mt(c) if left else _mt(c) @ grad_output
        gq = _mt(gop) if transpose else gop
        square = _square_reflectors(a, tau.shape[-1])  # (from A and tau: with
        gsquare, gtau = householder_product_backward(square, tau, gq)  # create_graph, recorded)
        m, n = a.shape[-2:]
        if n > m:  # (columns past the reflectors: no gradient)
            gsquare = np.concatenate([gsquare, np.zeros((*a.shape[:-2], m, n - m), a.dtype)], -1)
        return np.tril(gsquare[..., :, :n], -1), gtau, gc


def ormqr(a: np.ndarray, tau: np.ndarray, c: np.ndarray, left: bool, transpose: bool) -> np.ndarray:
    """op(Q) C (``left``) or C op(Q), Q the product of A's reflectors."""
    if recorded(a) or recorded(c):  # (in Ormqr's formula, create_graph=True: OrmqrBackward0)
        return run_recorded(Ormqr, a, tau, c, left, transpose)
    op = _op_q(a, tau, transpose)
    return op @ c if left else c @ op


def geqrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """QR as LAPACK's geqrf: R on and above the diagonal, the reflectors below, and tau. Each
    reflector maps the column (alpha, x) to (beta, 0), beta = -sign(alpha) |(alpha, x)|."""
    r = np.array(a, dtype=a.dtype, copy=True)
    m, n = r.shape[-2:]
    k = min(m, n)
    tau = np.zeros(r.shape[:-2] + (k,), r.dtype)
    for j in range(k):
        alpha, x = r[..., j, j].copy(), r[..., j + 1 :, j].copy()
        xnorm = np.sqrt(np.sum(x * x, axis=-1))
        beta = -np.copysign(np.hypot(alpha, xnorm), alpha)
        skip = xnorm == 0  # (LAPACK: H = I, tau = 0)
        beta = np.where(skip, alpha, beta)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(skip, 0, (beta - alpha) / beta)
            scale = np.where(skip, 0, 1 / (alpha - beta))
        v = np.concatenate([np.ones_like(alpha)[..., None], x * scale[..., None]], -1)
        tail = r[..., j:, j + 1 :]  # (apply H = I - t v v^T to the columns on the right)
        w = np.einsum("...i,...ij->...j", v, tail)
        tail -= t[..., None, None] * v[..., :, None] * w[..., None, :]
        r[..., j, j] = beta
        r[..., j + 1 :, j] = v[..., 1:]
        tau[..., j] = t
    return column_major(r), tau


class Geqrf(NumpyFunction):
    """(a, tau) = geqrf(A); PyTorch has no derivative for it: its backward raises."""

    node_name = "GeqrfBackward0"

    @staticmethod
    def forward(ctx, a):
        return geqrf(a)

    @staticmethod
    def backward(ctx, grad_a, grad_tau):
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")

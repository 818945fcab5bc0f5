"""Tensor (op) number, as PyTorch's formulas record it: ``add.Scalar``, ``mul.Scalar``...

``x * 2`` in your code records ``MulBackward0`` (PyTorch wraps the 2 in a tensor), but inside
PyTorch's own backward formulas ``2 * result`` is ``mul.Scalar``: ``MulBackward1``. These are
the ops a formula's ``grad_output / (2 * out)`` records with ``create_graph=True``
(``api/recorded.py``), and the ones ``linear`` and ``cross_entropy`` record.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["AddScalar", "SubScalar", "MulScalar", "DivScalar"]


class AddScalar(NumpyFunction):
    """z = a + c for a number c, so dz/da = 1 (``add.Scalar``: ``AddBackward1``)."""

    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx, a, c):
        return a + np.asarray(c, a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class SubScalar(NumpyFunction):
    """z = a - alpha * c for numbers c and alpha, so dz/da = 1 (``sub.Scalar``:
    ``SubBackward1``)."""

    node_name = "SubBackward1"

    @staticmethod
    def forward(ctx, a, c, alpha=1):
        c = np.asarray(c, a.dtype)  # (alpha * c in a's dtype, as PyTorch computes it)
        return a - c if alpha == 1 else a - (alpha * c).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class MulScalar(NumpyFunction):
    """z = a * c for a number c, so dz/da = c (``mul.Scalar``: ``MulBackward1``)."""

    node_name = "MulBackward1"

    @staticmethod
    def forward(ctx, a, c):
        ctx.c = c
        return a * np.asarray(c, a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.c  # (a number again: recorded, it is MulBackward1 too)


class DivScalar(NumpyFunction):
    """z = a / c for a number c, so dz/da = 1 / c (``div.Scalar``: ``DivBackward1``)."""

    node_name = "DivBackward1"

    @staticmethod
    def forward(ctx, a, c):
        ctx.c = c
        return a / np.asarray(c, a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output / ctx.c  # (a number again: recorded, it is DivBackward1 too)

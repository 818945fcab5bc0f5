"""The ``Function``s behind ``F.pad``'s ``reflect`` and ``replicate`` modes
(``ReflectionPad1DBackward0`` ... ``ReplicationPad3DBackward0``), and the source positions
of every padded mode.

A padded dimension of size n gets ``left + right`` more positions; each copies one of the
input's: ``reflect`` mirrors at the edges without repeating them (-1 -> 1, n -> n - 2),
``replicate`` repeats the edge, ``circular`` wraps around. The gradient of each input value
is the sum of the gradients of every position that copied it.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import row_major

__all__ = ["pad_positions", "CopyPad", "PAD_FUNCTIONS"]


def pad_positions(n: int, left: int, right: int, mode: str) -> np.ndarray:
    """The input position each of the padded dimension's n + left + right positions copies
    (a negative width crops)."""
    if mode == "circular":  # crop first, then wrap around what is left
        kept = np.arange(max(-left, 0), n - max(-right, 0))
        return kept[np.arange(-max(left, 0), len(kept) + max(right, 0)) % len(kept)]
    p = np.arange(-left, n + right)
    if mode == "reflect":
        return np.where(p < 0, -p, np.where(p > n - 1, 2 * (n - 1) - p, p))
    return np.clip(p, 0, n - 1)  # replicate


class CopyPad(NumpyFunction):
    """z = x at the positions ``pad_positions`` gives along the last dims, so dL/dx adds up
    the gradients of every position that copied each value."""

    ctx_fields = ("key",)

    @staticmethod
    def forward(ctx, x, positions):
        ctx.save_for_backward(x)  # (PyTorch's node saves self)
        ctx.key = (Ellipsis, *np.ix_(*positions))
        return row_major(x[ctx.key])

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad = np.zeros_like(grad_output, shape=x.shape)
        np.add.at(grad, ctx.key, grad_output)  # a value copied twice gets both gradients
        return grad


def _named(kind: str, dims: int) -> type[CopyPad]:
    # CopyPad under PyTorch's names for one mode and number of padded dims:
    # ReflectionPad2DBackward0, and ReflectionPad2DBackwardBackward0 for its backward.
    name = f"{kind}Pad{dims}D"
    names = {"node_name": f"{name}Backward0", "double_backward_name": f"{name}BackwardBackward0"}
    return type(name, (CopyPad,), names)


# mode -> its Function for 1, 2 and 3 padded dims
PAD_FUNCTIONS = {
    mode: (_named(kind, 1), _named(kind, 2), _named(kind, 3))
    for mode, kind in (("reflect", "Reflection"), ("replicate", "Replication"))
}

"""Broadcasting, and the one place it is undone: ``unbroadcast``."""

from __future__ import annotations

import numpy as np

__all__ = ["unbroadcast", "expand", "broadcast_error", "first_broadcast_error"]


def unbroadcast(grad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum ``grad`` back down to ``shape``, undoing the broadcast that made it larger.

    A value broadcast along a dimension was used once per position there, so its gradient
    is the sum over that dimension: for ``(3, 1) + (1, 4)`` the first input's gradient sums
    over the columns and the second's over the rows.
    """
    if grad.shape == shape:
        return grad
    if not shape:  # a number's gradient: the sum of all (numpy's is a scalar: an array again)
        return np.asarray(grad.sum()) if isinstance(grad, np.ndarray) else grad.sum()
    extra = grad.ndim - len(shape)  # leading dimensions the input did not have
    axes = tuple(range(extra)) + tuple(
        extra + i for i, n in enumerate(shape) if n == 1 and grad.shape[extra + i] != 1
    )
    summed = grad.sum(axis=axes, keepdims=True)  # as PyTorch's sum_to: keep the summed
    return summed.reshape(shape) if extra else summed  # dims, then drop the leading ones


def expand(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``a`` repeated along the dimensions it is broadcast over, without a copy (stride 0):
    as PyTorch's ``expand``, writeable where ``a`` is (``np.broadcast_to`` alone is read-only).
    Writing one element writes them all; in-place ops refuse it (see ``api/inplace.py``)."""
    if not isinstance(a, (np.ndarray, np.generic)):  # create_graph=True: a RecordedArray,
        return np.broadcast_to(a, shape)  # whose broadcast_to records PyTorch's expand
    a = np.asarray(a)  # (numpy gives a scalar for arithmetic on 0-d arrays: read-only)
    if a.ndim == 0 and a.dtype.kind in "fc":  # a whole sum's (or mean's) gradient: the one
        # value at every place, as np.broadcast_to gives it, without its Python layers
        return np.ndarray(shape, a.dtype, buffer=a, strides=(0,) * len(shape))
    out = np.broadcast_to(a, shape)
    out.flags.writeable = a.flags.writeable
    return out


def first_broadcast_error(*shapes: tuple[int, ...]) -> RuntimeError:
    """PyTorch's error for several shapes broadcast in turn: the first that clashes with the
    shape broadcast so far."""
    so_far = shapes[0]
    for shape in shapes[1:]:
        try:
            so_far = np.broadcast_shapes(so_far, shape)
        except ValueError:
            return broadcast_error(so_far, shape)
    return broadcast_error(shapes[0], shapes[-1])


def broadcast_error(a: tuple[int, ...], b: tuple[int, ...]) -> RuntimeError:
    """PyTorch's error for shapes that cannot broadcast, naming the first clash."""
    for i in range(1, max(len(a), len(b)) + 1):
        sa = a[-i] if i <= len(a) else 1
        sb = b[-i] if i <= len(b) else 1
        if sa != sb and sa != 1 and sb != 1:
            dim = max(len(a), len(b)) - i
            return RuntimeError(
                f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                f"non-singleton dimension {dim} (shapes {list(a)} and {list(b)}: line the "
                "shapes up from the right; each pair of sizes must be equal or one of them 1)"
            )
    return RuntimeError(f"shapes {list(a)} and {list(b)} cannot be broadcast together")

"""The distinct values of a tensor (``torch.unique``): no gradient, as in PyTorch.

PyTorch records ``Unique2Backward0`` for an input that requires grad, and its backward
raises; so does this one. The public function is in ``microtorch/api/unique.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["consecutive_parts", "UniqueConsecutive", "Unique2", "unique_parts"]


def unique_parts(a: np.ndarray, dim: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct values of ``a`` (sorted; of ``a`` flattened if ``dim`` is None, else its
    distinct slices along ``dim``), where each element (slice) went, and how often each
    occurs. NaNs are not equal to each other, as in PyTorch."""
    flat = a.reshape(-1) if dim is None else a
    values, inverse, counts = np.unique(
        flat, return_inverse=True, return_counts=True, axis=dim, equal_nan=False
    )
    inverse = inverse.reshape(a.shape if dim is None else (a.shape[dim],))
    return values, inverse.astype(np.int64), counts.astype(np.int64)


class Unique2(NumpyFunction):
    """values = the distinct values of a, sorted (see unique_parts). No derivative: a value's
    place in the output jumps as the values change."""

    node_name = "Unique2Backward0"

    @staticmethod
    def forward(ctx, a, dim):
        return unique_parts(a, dim)[0]

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("the derivative for '_unique2' is not implemented.")


def consecutive_parts(a: np.ndarray, dim: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first of each run of equal values of ``a`` (flattened if ``dim`` is None, else of
    equal slices along ``dim``), which run each element (slice) is in, and each run's length."""
    moved = a.reshape(-1) if dim is None else np.moveaxis(a, dim, 0)
    n = moved.shape[0]
    rows = moved.reshape(n, int(np.prod(moved.shape[1:])))
    starts = np.ones(n, bool)
    starts[1:] = np.any(rows[1:] != rows[:-1], axis=1) if n else starts[1:]
    values = moved[starts]
    runs = np.cumsum(starts) - 1
    counts = np.diff(np.append(np.flatnonzero(starts), n))
    inverse = runs.reshape(a.shape) if dim is None else runs
    return (values if dim is None else np.moveaxis(values, 0, dim)), inverse, counts


class UniqueConsecutive(NumpyFunction):
    """values = the first of each run of equal values of a. No derivative (as in PyTorch)."""

    node_name = "UniqueConsecutiveBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        return consecutive_parts(a, dim)[0]

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("the derivative for 'unique_consecutive' is not implemented.")

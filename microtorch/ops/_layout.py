"""Where a result's elements sit in memory (its strides), chosen as PyTorch chooses.

Values never depend on it; ``.view`` does (it refuses a tensor whose memory order it cannot
reshape) and so does which node ``.reshape`` records (a view, or a copy). PyTorch's rules:

- element-wise ops (TensorIterator) lay the result out as their inputs are laid out: a
  transposed input gives a transposed result. When the inputs disagree, the first input that
  orders two dimensions decides (numpy lets row-major order win: hence this module);
- ``clone`` and ``.to(dtype)`` keep the input's order (``preserve_format``);
- softmax, log_softmax, masked_fill, cumsum, cumprod and reductions give row-major results.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "iterator_order",
    "follow_inputs",
    "preserved_copy",
    "preserved_astype",
    "preserved_full",
    "row_major",
    "column_major",
]


def iterator_order(shape: tuple[int, ...], arrays: tuple[np.ndarray, ...]) -> list[int]:
    """The dimensions of a result of ``shape``, outermost first, as TensorIterator orders them
    for inputs ``arrays`` (its ``reorder_dimensions``): an insertion sort, fastest first."""
    ndim = len(shape)
    strides = []
    for a in arrays:
        pad = ndim - a.ndim  # a broadcast dimension (size 1 or missing) counts as stride 0
        strides.append(
            (0,) * pad
            + tuple(
                0 if n == 1 and shape[pad + i] != 1 else s
                for i, (n, s) in enumerate(zip(a.shape, a.strides))
            )
        )

    def should_swap(d0: int, d1: int) -> int:
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:  # broadcast along one of them: the next input decides
                continue
            if s0 != s1:
                return 1 if s0 > s1 else -1
            if shape[d0] > shape[d1]:  # equal strides: the smaller dimension goes inside
                return 1
        return 0

    perm = list(range(ndim))[::-1]  # fastest first: row-major unless an input says otherwise
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm[::-1]


def _empty(shape: tuple[int, ...], dtype: np.dtype, order: list[int]) -> np.ndarray:
    # An array of ``shape`` whose dimensions sit in memory in ``order`` (outermost first).
    memory = np.empty([shape[d] for d in order], dtype)
    return memory.transpose(np.argsort(order))


def _same_layout(a: np.ndarray, b: np.ndarray) -> bool:
    # Equal strides where the size is not 1 (a size-1 dimension's stride is never used).
    return all(n == 1 or s == t for n, s, t in zip(a.shape, a.strides, b.strides))


def follow_inputs(result: np.ndarray, *inputs: np.ndarray) -> np.ndarray:
    """``result`` of an element-wise op on ``inputs``, or a copy of it laid out as PyTorch
    lays it out (row-major inputs give a row-major result in both libraries: kept as is)."""
    if result.ndim < 2 or all(a.flags.c_contiguous for a in inputs):
        return result
    order = iterator_order(result.shape, inputs)
    wanted = _empty(result.shape, result.dtype, order)
    if _same_layout(result, wanted):
        return result
    wanted[...] = result
    return wanted


def preserved_copy(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` in its own memory order (PyTorch's ``preserve_format``): a transposed
    tensor's clone is transposed; an expanded one's is row-major (stride 0 orders nothing)."""
    if a.ndim < 2 or a.flags.c_contiguous and _standard(a):
        return np.array(a, copy=True, order="C")
    out = _preserved_empty(a, a.dtype)
    out[...] = a
    return out


def preserved_astype(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``a`` converted to ``dtype``, laid out as ``preserved_copy`` lays it out (numpy's
    ``astype`` would put an expanded dimension innermost)."""
    if a.ndim < 2 or a.flags.c_contiguous and _standard(a):
        return a.astype(dtype)
    out = _preserved_empty(a, np.dtype(dtype))
    np.copyto(out, a, casting="unsafe")
    return out


def _standard(a: np.ndarray) -> bool:
    # row-major strides also for the size-1 dimensions (numpy calls a (1, 3) array with
    # strides (8, 8) row-major; its size-1 dimension's stride is then not PyTorch's)
    if 1 not in a.shape:
        return True
    step = a.itemsize
    for n, s in zip(reversed(a.shape), reversed(a.strides)):
        if s != step and n == 1 and s != 0:
            return False
        step *= max(n, 1)
    return True


def _preserved_empty(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    # PyTorch's empty_like(preserve_format): a tensor that is non-overlapping and dense keeps
    # its strides exactly (a size-1 dimension's too); any other gets dense strides in the
    # order of its own
    out = _empty(a.shape, dtype, iterator_order(a.shape, (a,)))
    if not _dense(a):
        return out
    kept = tuple(s // a.itemsize * out.itemsize for s in a.strides)
    if all(n == 1 and s == 0 or s == t for n, s, t in zip(a.shape, kept, out.strides)):
        return out
    return np.lib.stride_tricks.as_strided(np.empty(max(a.size, 1), dtype), a.shape, kept)


def _dense(a: np.ndarray) -> bool:
    # every element once, without gaps, in some order of the dimensions (size 1 ignored)
    if a.size == 0 or any(s < 0 for s in a.strides):
        return False
    step = a.itemsize
    for s, n in sorted((s, n) for n, s in zip(a.shape, a.strides) if n != 1):
        if s != step:
            return False
        step *= n
    return True


def row_major(result: np.ndarray) -> np.ndarray:
    """``result`` in row-major order (a copy only if it is not): the layout of PyTorch's
    softmax, masked_fill, cumsum and reductions, whatever their input's layout."""
    if result.ndim < 2 or result.flags.c_contiguous:
        return result
    return np.array(result, order="C")


def preserved_full(a: np.ndarray, value: object, dtype: np.dtype) -> np.ndarray:
    """A new array of ``a``'s shape holding ``value``, laid out as ``preserved_copy`` lays
    ``a`` out (``zeros_like``, ``ones_like``, ``full_like``: ``preserve_format``)."""
    if a.ndim < 2 or a.flags.c_contiguous and _standard(a):
        return np.full(a.shape, value, dtype)
    out = _preserved_empty(a, np.dtype(dtype))
    out[...] = value
    return out


def column_major(a: np.ndarray) -> np.ndarray:
    """``a`` with each matrix stored column by column (strides (1, rows) in its last two
    dims), as LAPACK returns them and PyTorch's linear-algebra results keep them."""
    if a.ndim < 2:
        return a
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)

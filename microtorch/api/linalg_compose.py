"""Linear algebra written with other ops, as PyTorch writes it (so the graph has PyTorch's
nodes): ``tensordot``, ``broadcast_tensors``, ``cartesian_prod``, ``linalg.vecdot``,
``linalg.multi_dot``, ``linalg.vector_norm``, ``linalg.matrix_norm`` and ``linalg.norm``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch.api import shape as S
from microtorch.api._checks import expect_tensor
from microtorch.api.decomposition import svdvals
from microtorch.api.elementwise import mul
from microtorch.api.grids import meshgrid
from microtorch.api.join import stack
from microtorch.api.keywords import torch_keywords
from microtorch.api.linalg import c_name, mm, norm
from microtorch.api.reduction import amax, amin, normalize_dims
from microtorch.api.reduction import sum as sum_
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.linalg import Vdot

__all__ = [
    "tensordot", "broadcast_tensors", "cartesian_prod", "vecdot", "multi_dot", "vector_norm",
    "matrix_norm", "linalg_norm",
]  # fmt: skip


def _dims_pair(a: Any, b: Any, dims: Any) -> tuple[list[int], list[int]]:
    if isinstance(dims, (int, np.integer)) and not isinstance(dims, bool):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a._data.ndim or dims > b._data.ndim:
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(-int(dims), 0)), list(range(int(dims)))
    da, db = dims
    da = [da] if isinstance(da, int) else list(da)
    db = [db] if isinstance(db, int) else list(db)
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    return da, db


@torch_keywords("a", "b", "dims", out=True)
def tensordot(a: Any, b: Any, dims: Any = 2) -> Any:
    """Sum of products over ``dims`` of a with ``dims`` of b: an int n contracts a's last n
    dims with b's first n; a pair of lists names them. Written as PyTorch: permute, reshape
    to matrices, ``mm``, reshape."""
    expect_tensor(a, "tensordot", "input")
    expect_tensor(b, "tensordot", "other", 2)
    da, db = _dims_pair(a, b, dims)
    if a._dtype is not b._dtype:
        raise RuntimeError("both inputs should have same dtype")
    sa, sb = a._data.shape, b._data.shape
    for i, j in zip(da, db):
        if sa[i] != sb[j] and 1 in (sa[i], sb[j]):  # a size 1 broadcasts: sum the other
            if sa[i] == 1:
                b = sum_(b, j, True)
            else:
                a = sum_(a, i, True)
            continue
        if sa[i] != sb[j]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {sa[i]} in dim {i} "
                f"and second has size {sb[j]} in dim {j}"
            )
    sa, sb = a._data.shape, b._data.shape
    ca, cb = normalize_dims(tuple(da), a._data.ndim), normalize_dims(tuple(db), b._data.ndim)
    free_a = [d for d in range(a._data.ndim) if d not in ca]
    free_b = [d for d in range(b._data.ndim) if d not in cb]
    csize = int(np.prod([sa[d] for d in ca]))
    rows = int(np.prod([sa[d] for d in free_a]))
    cols = int(np.prod([sb[d] for d in free_b]))
    t1 = S.reshape(S.permute(a, (*free_a, *ca)), rows, csize)
    t2 = S.reshape(S.permute(b, (*cb, *free_b)), csize, cols)
    return S.reshape(mm(t1, t2), tuple([sa[d] for d in free_a] + [sb[d] for d in free_b]))


def broadcast_tensors(*tensors: Any) -> tuple[Any, ...]:
    """Each tensor expanded to the shape they broadcast to (one already of that shape is
    returned as it is, as PyTorch does)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for k, t in enumerate(tensors):
        expect_tensor(t, "broadcast_tensors", "tensors", k + 1)
    shape: tuple[int, ...] = ()
    for t in tensors:
        try:
            shape = tuple(np.broadcast_shapes(shape, t._data.shape))
        except ValueError:
            raise broadcast_error(shape, t._data.shape) from None
    return tuple(t if t._data.shape == shape else S.expand(t, *shape) for t in tensors)


def cartesian_prod(*tensors: Any) -> Any:
    """All combinations of the elements of 1-D tensors, one per row (as ``itertools.product``);
    one tensor is returned as it is."""
    for t in tensors:
        expect_tensor(t, "cartesian_prod", "tensors")
        if t._data.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t._data.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([S.flatten(g) for g in grids], 1)


def _float_check(x: Any, op: str) -> None:
    if not x._dtype.is_floating_point:
        raise RuntimeError(
            f"{op}: Expected a floating point or complex tensor as input. Got "
            f"{x._dtype._legacy[:-6]}"
        )


@torch_keywords(out=True)
def vecdot(x: Any, y: Any, *, dim: int = -1) -> Any:
    """The dot product of the vectors along ``dim`` (broadcasting): (x * y).sum(dim)."""
    expect_tensor(x, "linalg_vecdot", "x")
    expect_tensor(y, "linalg_vecdot", "y", 2)
    _float_check(x, "linalg.vecdot")
    if x._dtype is not y._dtype:
        raise RuntimeError(
            "linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
            f"{x._dtype._legacy[:-6]} and y of type {y._dtype._legacy[:-6]} instead"
        )
    if x._data.ndim == 1 and y._data.ndim == 1 and x._data.shape == y._data.shape:
        return Vdot.apply(x, y)  # (two vectors: PyTorch's vdot)
    return sum_(mul(x, y), dim)


def _chain_order(sizes: list[int]) -> list[list[int]]:
    # the cheapest way to multiply matrices of sizes[i] x sizes[i + 1]: split[i][j]
    n = len(sizes) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(tensors: Sequence[Any], *, out: Any = None) -> Any:
    """A @ B @ C ... in the cheapest order; the first may be a row vector, the last a
    column vector (1-D)."""
    if out is not None:
        raise NotImplementedError("microtorch's multi_dot does not take out=")
    ts = list(tensors)
    n = len(ts)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    for k, t in enumerate(ts):
        expect_tensor(t, "linalg_multi_dot", "tensors", 1)
        nd = t._data.ndim
        if k in (0, n - 1) and nd not in (1, 2):
            which = "first" if k == 0 else "last"
            raise RuntimeError(f"multi_dot(): the {which} tensor must be 1D or 2D but got {nd}D")
        if 0 < k < n - 1 and nd != 2:
            raise RuntimeError(f"multi_dot(): tensor {k} must be 2D but got {nd}D")
    for k, t in enumerate(ts[1:], 1):
        if t._dtype is not ts[0]._dtype:
            raise RuntimeError(
                "multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{c_name(ts[0]._dtype)} and tensor {k} {c_name(t._dtype)}"
            )
    out_shape = ts[0]._data.shape[:-1] + ts[-1]._data.shape[1:]
    mats = list(ts)
    if mats[0]._data.ndim == 1:
        mats[0] = S.unsqueeze(mats[0], 0)
    if mats[-1]._data.ndim == 1:
        mats[-1] = S.unsqueeze(mats[-1], 1)
    for k in range(n - 1):
        s1, s2 = mats[k]._data.shape, mats[k + 1]._data.shape
        if s1[1] != s2[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {k} and {k + 1} with shapes {list(ts[k]._data.shape)} "
                f"and {list(ts[k + 1]._data.shape)} cannot be multiplied"
            )
    if n == 2:
        return S.view(mm(mats[0], mats[1]), tuple(out_shape))
    split = _chain_order([m._data.shape[0] for m in mats] + [mats[-1]._data.shape[1]])

    def product(i: int, j: int) -> Any:
        if i == j:
            return mats[i]
        k = split[i][j]
        return mm(product(i, k), product(k + 1, j))

    return S.view(product(0, n - 1), tuple(out_shape))


@torch_keywords(out=True)
def vector_norm(
    x: Any,
    ord: float = 2,  # noqa: A002 - PyTorch's name
    dim: int | Sequence[int] | None = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
) -> Any:
    """(sum |x|^ord)^(1/ord) over ``dim`` (all elements if None); inf: max |x|, 0: count."""
    expect_tensor(x, "linalg_vector_norm", "input")
    if isinstance(ord, str):
        raise TypeError(
            "linalg_vector_norm(): argument 'ord' must be Number, not str (Fix: 'fro' and "
            "'nuc' are matrix norms: torch.linalg.matrix_norm)"
        )
    dims = dim if dim is None or isinstance(dim, int) else tuple(dim)
    return norm(x, float(ord), dims, keepdim, dtype)


def _ord_text(ord: Any) -> str:  # noqa: A002
    if isinstance(ord, float) and ord.is_integer():
        return str(int(ord))
    return str(ord)


@torch_keywords("input", out=True)
def matrix_norm(
    A: Any,  # noqa: N803
    ord: float | str = "fro",  # noqa: A002
    dim: tuple[int, int] = (-2, -1),
    keepdim: bool = False,
    *,
    dtype: Any = None,
) -> Any:
    """The matrix norm over the two dims ``dim``: 'fro' (sqrt of the sum of squares), 'nuc'
    (sum of singular values), 2/-2 (largest/smallest singular value), 1/-1 (largest/smallest
    column sum of |A|), inf/-inf (the same for rows)."""
    expect_tensor(A, "linalg_matrix_norm", "input")
    _float_check(A, "linalg.matrix_norm")
    if A._data.ndim < 2:
        raise RuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    if ord not in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {_ord_text(ord)} not supported.")
    if dtype is not None:
        A = A.to(dtype)
    d0, d1 = normalize_dims(tuple(dim), A._data.ndim)
    if ord == "fro":
        return norm(A, 2.0, (d0, d1), keepdim)
    if ord in ("nuc", 2, -2):
        moved = S.permute(A, *[d for d in range(A._data.ndim) if d not in (d0, d1)], d0, d1)
        s = svdvals(moved)
        r = sum_(s, -1) if ord == "nuc" else (amax(s, -1) if ord == 2 else amin(s, -1))
        if keepdim:
            for d in sorted((d0, d1)):
                r = S.unsqueeze(r, d)
        return r
    assert not isinstance(ord, str)  # (the string orders are handled above)
    if abs(ord) == np.inf:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    sums = norm(A, 1.0, d0, keepdim)
    return amax(sums, d1, keepdim) if ord > 0 else amin(sums, d1, keepdim)


@torch_keywords("input", out=True)
def linalg_norm(
    A: Any,  # noqa: N803
    ord: float | str | None = None,  # noqa: A002
    dim: int | Sequence[int] | None = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
) -> Any:
    """A vector norm (1-D input or one ``dim``) or a matrix norm (2-D input or two ``dim``);
    with neither ``ord`` nor ``dim``, the 2-norm of all elements."""
    expect_tensor(A, "linalg_norm", "input")
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) == 2 and ord is not None:
            return matrix_norm(A, ord, dims, keepdim, dtype=dtype)
        return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)  # type: ignore[arg-type]
    if ord is None:
        return vector_norm(A, 2, None, keepdim, dtype=dtype)
    nd = A._data.ndim
    if nd not in (1, 2):
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
            f"Got {nd}D."
        )
    if nd == 2 or isinstance(ord, str):
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, float(ord), None, keepdim, dtype=dtype)

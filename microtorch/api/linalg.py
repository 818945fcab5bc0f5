"""Matrix products: ``@``/matmul (dot, mv, mm, bmm and batched), and addmm for ``Linear``.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/linalg.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import shape as S
from microtorch.api._checks import expect_tensor, views_first
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import node as _node
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.linalg import Addmm, Bmm, Dot, Mm, Mv, VectorNorm, _SqueezeFirst

__all__ = ["matmul", "mm", "mv", "dot", "bmm", "addmm", "norm", "c_name"]


def _shape(x: Any) -> str:
    return "x".join(str(n) for n in x._data.shape)


_C_NAMES = {
    "Long": "long int",
    "Short": "short int",
    "Byte": "unsigned char",
    "Char": "signed char",
    "Half": "c10::Half",
    "BFloat16": "c10::BFloat16",
}


def c_name(dt: Any) -> str:
    """The C++ type PyTorch names a dtype by in mm's message: "long int", "float" ..."""
    name = dt._legacy[:-6]
    return _C_NAMES.get(name, name.lower())


def _check_dtypes(a: Any, b: Any) -> None:
    if a._dtype is not b._dtype:
        views_first(a, b)
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {c_name(a._dtype)} != "
            f"{c_name(b._dtype)} (Fix: convert one, e.g. b.to(a.dtype))"
        )


def _tensors(op: str, a: Any, b: Any, second: str = "mat2") -> None:
    expect_tensor(a, op)
    expect_tensor(b, op, second, 2)


@torch_keywords("input", "mat2", out=True)
def mm(a: Any, b: Any) -> Any:
    """Matrix product of two 2-D tensors."""
    Tensor = _node.Tensor
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        _tensors("mm", a, b)
    if a._data.ndim != 2 or b._data.ndim != 2:
        raise RuntimeError(f"{'self' if a._data.ndim != 2 else 'mat2'} must be a matrix")
    return _mm(a, b)


def _mm(a: Any, b: Any) -> Any:
    # mm once both are known to be 2-D tensors (matmul's common case comes straight here).
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_shape(a)} and {_shape(b)}) (the "
            "inner sizes must match: A's columns and B's rows)"
        )
    if a._dtype is not b._dtype:
        _check_dtypes(a, b)
    if a._data.size and b._data.size:  # (with an empty one, PyTorch runs no kernel)
        no_bool(a, "addmm_impl_cpu_")
    return Mm.apply(a, b)


def no_bool(a: Any, kernel: str) -> None:
    """PyTorch's error for a bool operand of a matrix kernel (they have no bool version)."""
    if a._dtype.name == "bool":
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for 'Bool' (Fix: convert first, e.g. x.int())"
        )


@torch_keywords("input", "vec", out=True)
def mv(a: Any, v: Any) -> Any:
    """Matrix times vector."""
    _tensors("mv", a, v, "vec")
    if a._data.ndim != 2 or v._data.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got 1, {a._data.ndim}, {v._data.ndim}"
        )
    if a._data.shape[1] != v._data.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a._data.shape[0]}), mat ({_shape(a)}), "
            f"vec ({v._data.shape[0]})"
        )
    if a._dtype is not v._dtype:  # (PyTorch's mv is addmv into a result of v's dtype)
        views_first(a, v)
        names = [t._dtype._legacy[:-6] for t in (v, a, v)]
        raise RuntimeError(
            f"addmv input tensors must have the same dtype, but got {names[0]}, {names[1]}, and "
            f"{names[2]} (Fix: convert one, e.g. v.to(a.dtype))"
        )
    if a._data.size and v._data.size:  # (with an empty one, PyTorch runs no kernel)
        no_bool(a, "addmv_impl_cpu")
    return Mv.apply(a, v)


@torch_keywords("input", "tensor", out=True)
def dot(a: Any, b: Any) -> Any:
    """Inner product of two vectors of the same length."""
    _tensors("dot", a, b, "tensor")
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {a._data.ndim}D and {b._data.ndim}D tensors"
        )
    n, m = a._data.shape[0], b._data.shape[0]
    if n != m:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
            f"number of elements, but got {n} and {m} elements respectively (Fix: a dot "
            "product needs two vectors of the same length)"
        )
    if a._dtype is not b._dtype:
        views_first(a, b)
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{a._dtype._legacy[:-6]} and {b._dtype._legacy[:-6]} (Fix: convert one, e.g. "
            "b.to(a.dtype))"
        )
    no_bool(a, "dot")
    return Dot.apply(a, b)


@torch_keywords("input", "mat2", out=True)
def bmm(a: Any, b: Any) -> Any:
    """Batched matrix product of two 3-D tensors with the same batch size."""
    _tensors("bmm", a, b)
    if a._data.ndim != 3 or b._data.ndim != 3:
        raise RuntimeError(
            "batch1 must be a 3D tensor" if a._data.ndim != 3 else "batch2 must be a 3D tensor"
        )
    (n, _, k), (n2, k2, _) = a._data.shape, b._data.shape
    if (n2, k2) != (n, k):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {k}] but got: "
            f"[{n2}, {k2}]."
        )
    if a._dtype is not b._dtype:
        views_first(a, b)
        raise RuntimeError(
            f"expected scalar type {a._dtype._legacy[:-6]} but found {b._dtype._legacy[:-6]} "
            "(Fix: convert one, e.g. b.to(a.dtype))"
        )
    if a._data.size and b._data.size:  # (with an empty one, PyTorch runs no kernel)
        no_bool(a, "bmm")
    return Bmm.apply(a, b)


@torch_keywords("input", "other", out=True)
def matmul(a: Any, b: Any) -> Any:
    """``a @ b``: dot for vectors, mv/mm for matrices, batched for more dims (broadcasting).

    The batched cases are decomposed exactly as PyTorch decomposes them (fold the batch into
    one matrix when that needs no copy, else expand, reshape and ``bmm``), so the graph has the
    same nodes and a shape error names the same sizes.
    """
    Tensor = _node.Tensor
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        _tensors("matmul", a, b, "other")
    da, db = a._data.ndim, b._data.ndim
    if da == 2 and db == 2:  # the common case first
        return _mm(a, b)
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)

    if da == 1 and db == 2:
        return _SqueezeFirst.apply(mm(S.unsqueeze(a, 0), b))
    if _should_fold(a, b):
        transpose = db > da
        t1 = S.transpose(b, -1, -2) if transpose else a  # the tensor with >= 3 dims
        t2 = (S.t(a) if da == 2 else a) if transpose else b
        out_shape = t1._data.shape[:-1] + t2._data.shape[1:]
        folded = S.reshape(t1, -1, t1._data.shape[-1])
        product = mm(folded, t2) if t2._data.ndim == 2 else mv(folded, t2)
        out = S.UnsafeView.apply(product, out_shape)
        return S.contiguous(S.transpose(out, -1, -2)) if transpose and da == 2 else out
    if da == 3 and db == 3 and a._data.shape[0] != b._data.shape[0]:
        # a batch of one that needs a gradient is squeezed, so its gradient is not expanded
        if a._data.shape[0] == 1 and a.requires_grad:
            return matmul(S.squeeze(a, 0), b)
        if b._data.shape[0] == 1 and b.requires_grad:
            return matmul(a, S.squeeze(b, 0))
    n = a._data.shape[-2] if da > 1 else 1
    m1, m2 = a._data.shape[-1], b._data.shape[-2] if db > 1 else b._data.shape[0]
    p = b._data.shape[-1] if db > 1 else 1
    batch = _broadcast_shapes(a._data.shape[:-2], b._data.shape[:-2])
    size = int(np.prod(batch))
    a3 = S.reshape(S.expand(a, *batch, n, m1), size, n, m1)
    b_exp = S.expand(b, *batch, m2) if db == 1 else S.expand(b, *batch, m2, p)
    b3 = S.unsqueeze(S.reshape(b_exp, size, m2), 2) if db == 1 else S.reshape(b_exp, size, m2, p)
    out = bmm(a3, b3)
    out_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    return S.UnsafeView.apply(S.squeeze(out, -1) if db == 1 else out, out_shape)


def _should_fold(a: Any, b: Any) -> bool:
    # PyTorch's rule: fold (batch, n, k) into (batch * n, k) and call mm/mv when the other
    # operand has <= 2 dims and the fold needs no copy (or when that operand needs a gradient).
    larger = a._data.ndim >= b._data.ndim
    t1 = a._data if larger else np.swapaxes(b._data, -1, -2)
    small = b if larger else a
    if not (t1.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a._data.ndim == 2:
        return False
    if t1.size == 0:
        return True
    strides, shape = t1.strides, t1.shape
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(t1.ndim - 2))


def _broadcast_shapes(sa: tuple[int, ...], sb: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(sa, sb))
    except ValueError:
        raise broadcast_error(sa, sb) from None


@torch_keywords("input", "mat1", "mat2", out=True)
def addmm(c: Any, a: Any, b: Any) -> Any:
    """c + a @ b with c broadcast to the result (what ``Linear`` computes on a batch)."""
    _tensors("addmm", a, b)
    expect_tensor(c, "addmm", "input")
    # (PyTorch checks the dtypes first: a float64 bias is refused, not promoted)
    for x, name in ((c, "self"), (a, "mat1")):
        if x._dtype is not b._dtype:
            raise RuntimeError(
                f"{name} and mat2 must have the same dtype, but got {x._dtype._legacy[:-6]} and "
                f"{b._dtype._legacy[:-6]} (Fix: convert one, e.g. bias.to(weight.dtype))"
            )
    target = (a._data.shape[0], b._data.shape[-1])
    lead = 2 - c._data.ndim
    for i, n in enumerate(c._data.shape):
        if n != 1 and lead + i >= 0 and n != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing "
                f"size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{list(target)}.  Tensor sizes: {list(c._data.shape)} (Fix: the bias needs one "
                "value per output feature)"
            )
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_shape(a)} and {_shape(b)}) (the "
            "inner sizes must match: A's columns and B's rows)"
        )
    _check_dtypes(a, b)
    if a._data.size and b._data.size:
        no_bool(a, "addmm_impl_cpu_")
    return Addmm.apply(c, a, b)


def norm(
    input: Any,  # noqa: A002 - PyTorch's name
    p: float | str | None = "fro",
    dim: int | tuple[int, ...] | None = None,
    keepdim: bool = False,
    dtype: Any = None,
) -> Any:
    """The p-norm (2: Euclidean length) of all elements or along ``dim``, as
    ``torch.norm``; ``p='fro'`` is the 2-norm. The matrix norm ``p='nuc'`` is not supported."""
    if dtype is not None:
        input = input.to(dtype)
    if not input._dtype.is_floating_point:
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{input._dtype._legacy[: -len('Tensor')]}"
        )
    if p == "fro" or p is None:
        p = 2.0
    if isinstance(p, str):
        raise NotImplementedError(
            f"microtorch's norm supports p='fro' and numbers, not p={p!r} (the nuclear norm "
            "needs a singular value decomposition)"
        )
    ndim = input._data.ndim
    axes = tuple(range(ndim)) if dim is None else normalize_dims(dim, ndim)
    return VectorNorm.apply(input, float(p), axes if ndim else (), bool(keepdim))

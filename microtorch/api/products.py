"""More products: addmm with beta and alpha (``x.addmm``), addmv, addr, addbmm, baddbmm and
their in-place twins; and, made of other ops as PyTorch makes them, chain_matmul
(linalg.multi_dot), inner (tensordot), ger (outer), vdot, kron (a product of views) and rsub.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/products.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api import composites, linalg, linalg_compose
from microtorch.api import elementwise as ew
from microtorch.api import shape as shape_ops
from microtorch.api._checks import expect_number, expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.inplace import apply_inplace
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import _binary
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import node as _node
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.linalg import Vdot
from microtorch.ops.products import (
    Addbmm,
    AddmmScaled,
    Addmv,
    Addr,
    Baddbmm,
    RsubScalar,
    RsubTensor,
)
from microtorch.ops.shape import UnsafeView

__all__ = [
    "addmm", "addmv", "addr", "addbmm", "baddbmm", "addmm_", "addmv_", "addr_", "addbmm_",
    "baddbmm_", "chain_matmul", "inner", "ger", "vdot", "kron", "rsub",
]  # fmt: skip


def _expandable(c: Any, target: tuple[int, ...]) -> None:
    # PyTorch's expand error for an input that does not broadcast to the product's shape
    shape, lead = c._data.shape, len(target) - c._data.ndim
    for i, n in enumerate(shape):
        if n != 1 and (lead + i < 0 or n != target[lead + i]):
            wanted = target[lead + i] if lead + i >= 0 else 1
            raise RuntimeError(
                f"The expanded size of the tensor ({wanted}) must match the existing size ({n}) "
                f"at non-singleton dimension {lead + i}.  Target sizes: {list(target)}.  Tensor "
                f"sizes: {list(shape)}"
            )


def _same_dtype(op: str, *tensors: Any) -> None:
    if any(t._dtype is not tensors[0]._dtype for t in tensors):
        names = [t._dtype._legacy[:-6] for t in tensors]
        raise RuntimeError(
            f"{op} input tensors must have the same dtype, but got {', '.join(names[:-1])}, and "
            f"{names[-1]} (Fix: convert them to one dtype, e.g. x.double())"
        )


def _dims(op: str, t: Any, name: str, ndim: int) -> None:
    if t._data.ndim != ndim:
        raise RuntimeError(f"{op}: Expected {ndim}-D argument {name}, but got {t._data.ndim}-D")


def _scaled(fn: Any, c: Any, a: Any, b: Any, beta: float, alpha: float) -> Any:
    if a._dtype.name == "bool" and a._data.size and b._data.size:  # (an empty one: no kernel)
        linalg.no_bool(a, _KERNELS[fn.__name__])
    if not c._dtype.is_floating_point and (isinstance(beta, float) or isinstance(alpha, float)):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    return fn.apply(c, a, b, beta, alpha)


# PyTorch's kernel of each, as its error for bool operands names it (addr has a bool one)
_KERNELS = {
    "AddmmScaled": "addmm_impl_cpu_", "Addmv": "addmv_impl_cpu", "Addbmm": "addmm_impl_cpu_",
    "Baddbmm": "baddbmm",
}  # fmt: skip


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: float = 1, alpha: float = 1) -> Any:  # noqa: A002
    """beta * input + alpha * mat1 @ mat2 (``AddmmBackward0``)."""
    if beta == 1 and alpha == 1:
        return linalg.addmm(input, mat1, mat2)
    for t, name, k in ((input, "input", 1), (mat1, "mat1", 2), (mat2, "mat2", 3)):
        expect_tensor(t, "addmm", name, k)
    if mat1._data.ndim != 2 or mat2._data.ndim != 2:
        raise RuntimeError(f"{'mat1' if mat1._data.ndim != 2 else 'mat2'} must be a matrix")
    for x, name in ((input, "self"), (mat1, "mat1")):  # (PyTorch's order of checks)
        if x._dtype is not mat2._dtype:
            raise RuntimeError(
                f"{name} and mat2 must have the same dtype, but got {x._dtype._legacy[:-6]} and "
                f"{mat2._dtype._legacy[:-6]}"
            )
    _expandable(input, (mat1._data.shape[0], mat2._data.shape[1]))
    if mat1._data.shape[1] != mat2._data.shape[0]:
        shapes = ["x".join(map(str, m._data.shape)) for m in (mat1, mat2)]
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({shapes[0]} and {shapes[1]})"
        )
    return _scaled(AddmmScaled, input, mat1, mat2, beta, alpha)


def addmv(input: Any, mat: Any, vec: Any, *, beta: float = 1, alpha: float = 1) -> Any:  # noqa: A002
    """beta * input + alpha * mat @ vec (``AddmvBackward0``)."""
    for t, name, k in ((input, "input", 1), (mat, "mat", 2), (vec, "vec", 3)):
        expect_tensor(t, "addmv", name, k)
    if mat._data.ndim != 2 or vec._data.ndim != 1 or input._data.ndim > 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got {input._data.ndim}, {mat._data.ndim}, "
            f"{vec._data.ndim}"
        )
    (n, m), size = mat._data.shape, input._data.shape
    if m != vec._data.shape[0] or size not in ((), (1,), (n,)):
        shown = size[0] if size else 1
        raise RuntimeError(
            f"size mismatch, got input ({shown}), mat ({n}x{m}), vec ({vec._data.shape[0]})"
        )
    _same_dtype("addmv", input, mat, vec)
    return _scaled(Addmv, input, mat, vec, beta, alpha)


def addr(input: Any, vec1: Any, vec2: Any, *, beta: float = 1, alpha: float = 1) -> Any:  # noqa: A002
    """beta * input + alpha * outer(vec1, vec2) (``AddrBackward0``)."""
    for t, name, k in ((input, "input", 1), (vec1, "vec1", 2), (vec2, "vec2", 3)):
        expect_tensor(t, "addr", name, k)
    _dims("addr", vec1, "vec1", 1)
    _dims("addr", vec2, "vec2", 1)
    _expandable(input, (vec1._data.shape[0], vec2._data.shape[0]))
    _same_dtype("addr", input, vec1, vec2)
    if input._dtype.name == "bool":  # (PyTorch's addr of masks: and/or, not * and +)
        out = np.logical_or(
            input._data & bool(beta), np.outer(vec1._data, vec2._data) & bool(alpha)
        )
        return _node.plain_tensor(out, input._device)
    return _scaled(Addr, input, vec1, vec2, beta, alpha)


def _batches(op: str, b1: Any, b2: Any) -> None:
    for t, name in ((b1, "batch1"), (b2, "batch2")):
        if t._data.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")


def addbmm(input: Any, batch1: Any, batch2: Any, *, beta: float = 1, alpha: float = 1) -> Any:  # noqa: A002
    """beta * input + alpha * the sum over i of batch1[i] @ batch2[i] (``AddbmmBackward0``)."""
    for t, name, k in ((input, "input", 1), (batch1, "batch1", 2), (batch2, "batch2", 3)):
        expect_tensor(t, "addbmm", name, k)
    # PyTorch checks the input first, against batch1.size(1) and batch2.size(2) (an
    # IndexError when they have fewer dimensions)
    normalize_dims(1, batch1._data.ndim)
    normalize_dims(2, batch2._data.ndim)
    _expandable(input, (batch1._data.shape[1], batch2._data.shape[2]))
    _batches("addbmm", batch1, batch2)
    (n, rows, k), (n2, k2, cols) = batch1._data.shape, batch2._data.shape
    if n != n2:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {n} and {n2}")
    if k != k2:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({rows}x{k} and {k2}x{cols})")
    _expandable(input, (rows, cols))
    _same_dtype("addbmm", input, batch1, batch2)
    return _scaled(Addbmm, input, batch1, batch2, beta, alpha)


def baddbmm(input: Any, batch1: Any, batch2: Any, *, beta: float = 1, alpha: float = 1) -> Any:  # noqa: A002
    """beta * input + alpha * batch1[i] @ batch2[i] for each i (``BaddbmmBackward0``)."""
    for t, name, k in ((input, "input", 1), (batch1, "batch1", 2), (batch2, "batch2", 3)):
        expect_tensor(t, "baddbmm", name, k)
    _batches("baddbmm", batch1, batch2)
    (n, rows, k), (n2, k2, cols) = batch1._data.shape, batch2._data.shape
    _expandable(input, (n, rows, cols))
    if (n2, k2) != (n, k):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {k}] but "
            f"got: [{n2}, {k2}]."
        )
    _same_dtype("baddbmm", input, batch1, batch2)
    return _scaled(Baddbmm, input, batch1, batch2, beta, alpha)


_RESULT_SHAPES: dict[str, Callable[..., tuple[int, ...]]] = {
    "addmm_": lambda m1, m2: (m1.shape[0], m2.shape[1]),
    "addmv_": lambda m, v: (m.shape[0],),
    "addr_": lambda v1, v2: (v1.shape[0], v2.shape[0]),
    "addbmm_": lambda b1, b2: (b1.shape[1], b2.shape[2]),
    "baddbmm_": lambda b1, b2: (b1.shape[0], b1.shape[1], b2.shape[2]),
}


_TORCH_NAMES = {  # PyTorch's names of the two factors: x.addmm_(mat1=a, mat2=b)
    "addmm_": ("mat1", "mat2"),
    "addmv_": ("mat", "vec"),
    "addr_": ("vec1", "vec2"),
    "addbmm_": ("batch1", "batch2"),
    "baddbmm_": ("batch1", "batch2"),
}


def _in_place(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def in_place(self: Any, a: Any, b: Any, *, beta: float = 1, alpha: float = 1) -> Any:
        expect_tensor(self, name)
        shape = _RESULT_SHAPES[name](a._data, b._data) if hasattr(b, "_data") else None
        if shape is not None and a._data.ndim and b._data.ndim and shape != self._data.shape:
            try:
                _expandable(self, shape)
            except RuntimeError:
                pass  # (the function's own error, below, comes first)
            else:
                raise RuntimeError(
                    f"Bad in-place call: input tensor size {list(self._data.shape)} and output "
                    f"tensor size {list(shape)} should match"
                )
        return apply_inplace(self, name, function, a, b, beta=beta, alpha=alpha)

    in_place.__name__ = in_place.__qualname__ = name
    in_place.__doc__ = f"``{name[:-1]}``, written into this tensor; returns it."
    return torch_keywords("input", *_TORCH_NAMES[name])(in_place)


addmm_, addmv_, addr_, addbmm_, baddbmm_ = (
    _in_place(f.__name__ + "_", f) for f in (addmm, addmv, addr, addbmm, baddbmm)
)

_chain_warned: list[bool] = []


def chain_matmul(*matrices: Any) -> Any:
    """The product of the matrices, in the cheapest order (deprecated: linalg.multi_dot)."""
    if not _chain_warned:  # (PyTorch warns once per process)
        _chain_warned.append(True)
        warn(
            "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
            "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors "
            "rather than multiple parameters.",
        )
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        expect_tensor(m, "chain_matmul", "matrices")
        if m._data.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {m._data.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return shape_ops.clone(matrices[0])
    return linalg_compose.multi_dot(list(matrices))


def inner(input: Any, other: Any) -> Any:  # noqa: A002
    """The sum of products over the last dimension of both (a * b if either is 0-d)."""
    expect_tensor(input, "inner")
    expect_tensor(other, "inner", "other", 2)
    if input._data.ndim == 0 or other._data.ndim == 0:
        return ew.mul(input, other)
    if input._data.shape[-1] != other._data.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{list(input._data.shape)} and {list(other._data.shape)}"
        )
    if input._dtype is not other._dtype:
        raise RuntimeError("both inputs should have same dtype")
    if input._data.ndim == 1 and other._data.ndim == 1:  # (PyTorch's tensordot: a dot)
        return shape_ops.view(linalg.dot(input, other), ())
    return linalg_compose.tensordot(input, other, ([-1 % input.ndim], [-1 % other.ndim]))


def ger(input: Any, vec2: Any) -> Any:  # noqa: A002
    """The outer product of two vectors (``outer``'s old name)."""
    expect_tensor(input, "ger")
    expect_tensor(vec2, "ger", "vec2", 2)
    _dims("outer", input, "self", 1)
    _dims("outer", vec2, "vec2", 1)
    return composites.outer(input, vec2)


def vdot(input: Any, other: Any) -> Any:  # noqa: A002
    """The dot product of two vectors (conj(a) . b, for real ones a . b)."""
    expect_tensor(input, "vdot")
    expect_tensor(other, "vdot", "other", 2)
    bad_shape = input._data.ndim != 1 or other._data.shape != input._data.shape
    if bad_shape or input._dtype is not other._dtype:
        linalg.dot(input, other)  # (raises dot's error, which is PyTorch's for vdot too)
    return Vdot.apply(input, other)


def kron(input: Any, other: Any) -> Any:  # noqa: A002
    """The Kronecker product: every entry of ``input`` times a whole block ``other``."""
    expect_tensor(input, "kron")
    expect_tensor(other, "kron", "other", 2)
    n = max(input._data.ndim, other._data.ndim)
    sa = (1,) * (n - input._data.ndim) + input._data.shape
    sb = (1,) * (n - other._data.ndim) + other._data.shape
    # a as (a0, 1, a1, 1, ...) and b as (1, b0, 1, b1, ...): their product holds the blocks
    a = UnsafeView.apply(input, tuple(x for s in sa for x in (s, 1)))
    b_shape = tuple(x for s in sb for x in (1, s))
    b = other if other._data.ndim == 0 else UnsafeView.apply(other, b_shape)
    out = ew.mul(a, b)
    return UnsafeView.apply(out, tuple(x * y for x, y in zip(sa, sb)))


@parsed(
    "rsub",
    "Tensor input, Tensor other, *, Number alpha=1",
    "Tensor input, Number other, Number alpha=1",
)
def rsub(input: Any, other: Any, alpha: float = 1) -> Any:  # noqa: A002
    """other - alpha * input (alpha by position too, as PyTorch's overload for a number)."""
    expect_tensor(input, "rsub")
    expect_number(alpha, "rsub", "alpha", None)  # (the parser's cue)
    ew._check_bool_sub(input, other)
    if alpha != 1:
        ew._check_alpha(input, other, alpha)
    if isinstance(other, _node.Tensor):
        try:
            np.broadcast_shapes(other._data.shape, input._data.shape)
        except ValueError:
            raise broadcast_error(other._data.shape, input._data.shape) from None
        return _binary(RsubTensor, input, other, None, (alpha,))
    target = result_type(input, other)
    cast = input if input._dtype is target else input.to(target)
    return RsubScalar.apply(cast, np.asarray(other, dtype=target.numpy), alpha)

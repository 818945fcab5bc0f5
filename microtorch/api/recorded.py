"""``RecordedArray``: a Tensor as a built-in backward formula sees it under ``create_graph=True``.

The formulas in ``microtorch/ops`` are written once, in numpy: ``grad_output * b``,
``np.where(...)``, ``grad.sum(axis=..., keepdims=True)``. On the first-order path they get
numpy arrays and compute with numpy. With ``create_graph=True`` (gradients of gradients) the
engine hands them ``RecordedArray``s instead: each wraps a Tensor, and answers numpy's own
dispatch protocols (``__array_ufunc__``, ``__array_function__``) and ndarray's methods by
running microtorch's ops on that Tensor. So the same formula records itself into a graph,
and its result can be differentiated again.

Why a wrapper, not ``Tensor`` itself: a formula speaks ndarray's API (``sum(axis=...,
keepdims=...)``, ``.dtype`` a numpy dtype, ``astype``), where a Tensor speaks PyTorch's
(``sum(dim, keepdim)``, ``.dtype`` a microtorch dtype); and a student's own ``np.exp(x)`` on a
Tensor keeps behaving as before. A formula's scatters into its own zeros (``np.add.at``,
``np.put_along_axis``) record PyTorch's ``index_put_(accumulate=True)`` and ``scatter``, the
wrapper then holding the result. Anything numpy would compute outside the graph (turning the
wrapper into an array, a write into a numpy array) raises instead, so a formula that cannot be
recorded fails loudly rather than giving a wrong second derivative.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch.api import (
    bessel,
    cross,
    cumulative,
    division,
    einsum,
    gamma,
    join,
    linalg,
    linalg_square,
    normal_tails,
    rearrange,
    rounding,
    scan,
    special,
    special_functions,
    take_put,
    trigonometry,
    unary,
)
from microtorch.api import elementwise as ew
from microtorch.autograd import node as _node
from microtorch.dtypes import from_numpy_dtype
from microtorch.ops.bessel import i0_each, i0e_each, i1_each, i1e_each
from microtorch.ops.gamma_functions import digamma_each, lgamma_each, trigamma_each
from microtorch.ops.gamma_sampling import StandardGammaGrad, standard_gamma_grad_each
from microtorch.ops.indexing import Gather, IndexPutAccumulate, Scatter
from microtorch.ops.normal_tails import erfcx_each
from microtorch.ops.polygamma import polygamma_each, zeta_each
from microtorch.ops.scalar import AddScalar, DivScalar, MulScalar, SubScalar
from microtorch.ops.special import erf_each, erfinv_each

__all__ = ["RecordedArray", "record", "tensor_of"]


def _unsupported(what: str) -> NotImplementedError:
    return NotImplementedError(
        f"microtorch cannot record {what} inside a backward formula, so this op has no "
        "second derivative with create_graph=True in microtorch (Fix: use PyTorch for "
        "gradients of gradients through this op)"
    )


def record(t: Any) -> Any:
    """``t`` as a formula sees it: a Tensor wrapped, anything else as it is."""
    if isinstance(t, _node.Tensor):
        return RecordedArray(t)
    if type(t) is tuple:
        return tuple([record(x) for x in t])
    if type(t) is list:
        return [record(x) for x in t]
    return t


def tensor_of(x: Any) -> Any:
    """The Tensor behind a formula's value: a RecordedArray's, or a constant for an array."""
    if isinstance(x, RecordedArray):
        return x.tensor
    if isinstance(x, np.ndarray):
        return _node.plain_tensor(x)
    if isinstance(x, np.generic):  # a numpy scalar: a Python number, as PyTorch takes it
        return x.item()
    if type(x) in (tuple, list):
        return type(x)([tensor_of(v) for v in x])
    return x


def _recorded(fn: Callable[..., Any]) -> Callable[..., Any]:
    # fn on Tensors, called with the formula's values and giving back RecordedArrays
    def call(*args: Any, **kwargs: Any) -> Any:
        return record(fn(*[tensor_of(a) for a in args], **kwargs))

    return call


def _flip_args(fn: Callable[..., Any], flipped: Callable[..., Any]) -> Callable[..., Any]:
    # number (op) tensor: PyTorch records the reflected op (2 - x is rsub, 2 / x is rdiv)
    def call(a: Any, b: Any) -> Any:
        if not isinstance(a, _node.Tensor) and isinstance(b, _node.Tensor):
            return flipped(b, a)
        return fn(a, b)

    return call


def _number_first(fn: Callable[..., Any]) -> Callable[..., Any]:
    # number - tensor, number / tensor in a formula: PyTorch's C++ writes them as a tensor
    # filled with the number, then sub_ / div_ (SubBackward0, DivBackward0: no edge for it)
    def call(a: Any, b: Any) -> Any:
        if type(a) in (int, float) and isinstance(b, _node.Tensor) and b._dtype.is_floating_point:
            a = _node.plain_tensor(np.full(b._data.shape, a, b._data.dtype))
        return fn(a, b)

    return call


def _scalar(fn: Callable[..., Any], op: Any, both_ways: bool = False) -> Callable[..., Any]:
    # tensor (op) Python number inside a formula: PyTorch's formulas record the Scalar form
    # (``2 * result`` is mul.Scalar, MulBackward1); for + and *, number (op) tensor too
    def call(a: Any, b: Any) -> Any:
        if both_ways and type(a) in (int, float):
            a, b = b, a
        if type(b) in (int, float) and isinstance(a, _node.Tensor) and a._dtype.is_floating_point:
            return op.apply(a, b)
        return fn(a, b)

    return call


def _against_number(fn: Callable[..., Any]) -> Callable[..., Any]:
    # maximum(x, 0): PyTorch's takes tensors only; a number becomes a 0-d one of x's dtype
    def call(a: Any, b: Any) -> Any:
        if not isinstance(b, _node.Tensor):
            b = _node.plain_tensor(np.asarray(b, a._data.dtype))
        if not isinstance(a, _node.Tensor):
            a = _node.plain_tensor(np.asarray(a, b._data.dtype))
        return fn(a, b)

    return call


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(a % ndim if ndim else 0 for a in axes)


def _sum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    t = tensor_of(a)
    if dtype is not None and np.dtype(dtype) != t._data.dtype:
        t = t.to(from_numpy_dtype(np.dtype(dtype)))
    if axis is None and not keepdims:
        return record(t.sum())
    return record(t.sum(_axes(axis, t.ndim), keepdim=keepdims))


def _mean(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    t = tensor_of(a)
    if axis is None and not keepdims:
        return record(t.mean())
    return record(t.mean(_axes(axis, t.ndim), keepdim=keepdims))


def _extreme(name: str) -> Callable[..., Any]:
    def reduce(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
        t = tensor_of(a)
        if axis is None and not keepdims:
            return record(getattr(t, name)())
        return record(getattr(t, "a" + name)(_axes(axis, t.ndim), keepdim=keepdims))

    return reduce


def _reshape(a: Any, *shape: Any, order: str = "C") -> Any:
    if order != "C":
        raise _unsupported(f"reshape(order={order!r})")
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return record(tensor_of(a).reshape(tuple(shape)))


def _transpose(a: Any, *axes: Any) -> Any:
    t = tensor_of(a)
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    if not axes or axes[0] is None:  # a.T: PyTorch's formulas write mat.t() (TBackward0)
        if t.ndim == 2:
            return record(t.t())
        axes = tuple(range(t.ndim))[::-1]
    return record(t.permute(tuple(axes)))


def _expand_dims(a: Any, axis: Any) -> Any:
    t = tensor_of(a)
    ndim = t.ndim + (len(axis) if isinstance(axis, tuple) else 1)
    for d in sorted(_axes(axis, ndim)):
        t = t.unsqueeze(d)
    return record(t)


def _squeeze(a: Any, axis: Any = None) -> Any:
    t = tensor_of(a)
    if axis is None:
        return record(t.squeeze())
    for d in sorted(_axes(axis, t.ndim), reverse=True):
        t = t.squeeze(d)
    return record(t)


def _moveaxis(a: Any, source: Any, destination: Any) -> Any:
    t = tensor_of(a)
    src, dst = _axes(source, t.ndim), _axes(destination, t.ndim)
    order = [d for d in range(t.ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return record(t.permute(tuple(order)))


def _where(cond: Any, *values: Any) -> Any:
    if len(values) != 2:
        raise _unsupported("np.where with one argument")
    c, a, b = tensor_of(cond), tensor_of(values[0]), tensor_of(values[1])
    if not isinstance(c, _node.Tensor):
        c = _node.plain_tensor(np.asarray(c))
    return record(ew.where(c, a, b))


def _like(fill: Callable[..., np.ndarray]) -> Callable[..., Any]:
    # zeros_like and friends: a constant tensor, no graph (as PyTorch's formulas make them),
    # which a formula may write into (``grad[key] = grad_output`` records that write)
    def make(a: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None):
        return RecordedArray(
            _node.plain_tensor(fill(a.shape if shape is None else shape, dtype or a.dtype)),
            owned=True,
        )

    return make


def _concatenate(arrays: Any, axis: int = 0) -> Any:
    return record(join.cat(tensor_of(list(arrays)), axis))


def _stack(arrays: Any, axis: int = 0) -> Any:
    return record(join.stack(tensor_of(list(arrays)), axis))


def _split(a: Any, sections: Any, axis: int = 0) -> Any:
    t = tensor_of(a)
    n = t.shape[axis]
    if isinstance(sections, int):
        sizes = [n // sections] * sections
    else:
        bounds = [0, *[builtins.min(int(i), n) for i in sections], n]
        sizes = [hi - lo for lo, hi in zip(bounds, bounds[1:])]
    return list(record(join.split(t, sizes, axis)))


def _broadcast_to(a: Any, shape: Any) -> Any:
    t = tensor_of(a)
    if not isinstance(t, _node.Tensor):
        t = _node.plain_tensor(np.asarray(t))
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    return record(t.expand(shape))


def _outer(a: Any, b: Any) -> Any:
    ta, tb = tensor_of(a), tensor_of(b)  # (a vector b as it is: broadcasting, as PyTorch's)
    return record(ta.reshape((-1, 1)) * (tb if tb.ndim == 1 else tb.reshape((1, -1))))


def _count_nonzero(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    # a count is an integer: no gradient, computed on the values
    return np.count_nonzero(np.asarray(tensor_of(a)._data), axis=axis, keepdims=keepdims)


def _atleast_1d(a: Any) -> Any:
    t = tensor_of(a)
    return record(t.reshape((1,)) if t.ndim == 0 else t)


def _cumsum(a: Any, axis: Any = None) -> Any:
    t = tensor_of(a)
    if axis is None:
        t, axis = t.reshape((-1,)), 0
    return record(cumulative.cumsum(t, axis))


def _prod(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    t = tensor_of(a)
    if axis is None and not keepdims:
        return record(cumulative.prod(t))
    if not isinstance(axis, int):
        raise _unsupported("np.prod over several axes")
    return record(cumulative.prod(t, axis, keepdim=keepdims))


def _values(x: Any) -> Any:
    # an index as numpy takes it: a RecordedArray (integer, no gradient) by its values
    if isinstance(x, RecordedArray):
        return x.tensor._data
    if type(x) is tuple:
        return tuple([_values(v) for v in x])
    return x


def _operand(v: Any, like: Any) -> Any:
    # the value a scatter writes, as a Tensor (a number or an array: a constant of like's dtype)
    v = tensor_of(v)
    if isinstance(v, _node.Tensor):
        return v
    return _node.plain_tensor(np.asarray(v, like._data.dtype))


def _add_at(target: Any, key: Any, values: Any) -> None:
    # np.add.at(grad, key, g) on a formula's own zeros: recorded out of place (PyTorch's
    # index_put_ with accumulate=True), the wrapper then holds the result
    if not isinstance(target, RecordedArray) or not target.owned:
        raise _unsupported("np.add.at into a numpy array or a view")
    t = target.tensor
    target.tensor = IndexPutAccumulate.apply(t, _operand(values, t), _values(key))


def _put_along_axis(arr: Any, indices: Any, values: Any, axis: int) -> None:
    if not isinstance(arr, RecordedArray) or not arr.owned:
        raise _unsupported("np.put_along_axis into a numpy array or a view")
    t = arr.tensor
    arr.tensor = Scatter.apply(t, _operand(values, t), _values(indices), axis % t.ndim)


def _take_along_axis(arr: Any, indices: Any, axis: int) -> Any:
    t = tensor_of(arr)
    return record(Gather.apply(t, _values(indices), axis % t.ndim))


def _same(a: Any, *args: Any, **kwargs: Any) -> Any:
    return a  # (contiguity is numpy's business: the values are the same)


_UFUNCS: dict[Any, Callable[..., Any]] = {
    np.add: _scalar(ew.add, AddScalar, both_ways=True),
    np.subtract: _scalar(_number_first(_flip_args(ew.sub, ew.rsub)), SubScalar),
    np.multiply: _scalar(ew.mul, MulScalar, both_ways=True),
    np.true_divide: _scalar(_number_first(_flip_args(ew.div, ew.rdiv)), DivScalar),
    np.power: _flip_args(ew.pow, ew.rpow),
    np.maximum: _against_number(ew.maximum),
    np.minimum: _against_number(ew.minimum),
    np.matmul: linalg.matmul,
    erf_each: special.erf,  # (gelu's formula: erf of its input)
    erfinv_each: special.erfinv,  # (ErfinvBackward0's formula computes erfinv again)
    lgamma_each: gamma.lgamma,
    i0_each: bessel.i0,
    standard_gamma_grad_each: StandardGammaGrad.apply,  # (StandardGammaBackward0's formula)
    erfcx_each: normal_tails.erfcx,  # (SpecialLogNdtrBackward0's formula)
    i0e_each: bessel.i0e,
    i1_each: bessel.i1,
    i1e_each: bessel.i1e,
    digamma_each: gamma.digamma,  # (LgammaBackward0's formula: grad * digamma(self))
    trigamma_each: lambda a: gamma.polygamma(1, a),  # (DigammaBackward0's: polygamma(1, self))
    polygamma_each: gamma.polygamma,
    zeta_each: gamma.zeta,
    # (RemainderBackward1's formula: PyTorch's writes self.div(other, rounding_mode="floor"))
    np.floor_divide: lambda a, b: division.div_rounded(a, b, "floor"),
    np.negative: unary.neg,
    np.positive: lambda a: a,
    np.absolute: unary.abs,
    np.exp: unary.exp,
    np.exp2: special_functions.exp2,  # (LdexpBackward0's formula: grad * 2 ** other)
    np.log: unary.log,
    np.log1p: unary.log1p,
    np.sqrt: unary.sqrt,
    np.sin: unary.sin,
    np.cos: unary.cos,
    np.tanh: unary.tanh,
    np.sinh: trigonometry.sinh,
    np.cosh: trigonometry.cosh,
    np.reciprocal: unary.reciprocal,
    np.square: lambda a: ew.pow(a, 2),
    np.sign: rounding.sign,
    np.trunc: rounding.trunc,
}

# ufuncs whose results are truth values (no gradient): computed by numpy on the values
_TRUTH = {
    np.isnan, np.isinf, np.isfinite, np.equal, np.not_equal, np.less, np.less_equal,
    np.greater, np.greater_equal, np.logical_and, np.logical_or, np.logical_not,
    np.logical_xor, np.bitwise_and, np.bitwise_or, np.invert,
}  # fmt: skip

_FUNCTIONS: dict[Any, Callable[..., Any]] = {
    np.where: _where,
    np.sum: _sum,
    np.mean: _mean,
    np.max: _extreme("max"),
    np.amax: _extreme("max"),
    np.min: _extreme("min"),
    np.amin: _extreme("min"),
    np.reshape: _reshape,
    np.ravel: lambda a: _reshape(a, (-1,)),
    np.transpose: lambda a, axes=None: _transpose(a, axes),
    np.swapaxes: lambda a, i, j: record(tensor_of(a).transpose(i, j)),  # TransposeBackward0
    np.moveaxis: _moveaxis,
    np.expand_dims: _expand_dims,
    np.squeeze: _squeeze,
    np.broadcast_to: _broadcast_to,
    np.concatenate: _concatenate,
    np.stack: _stack,
    np.split: _split,
    np.outer: _outer,
    np.tril: lambda m, k=0: record(rearrange.tril(tensor_of(m), k)),
    np.triu: lambda m, k=0: record(rearrange.triu(tensor_of(m), k)),
    np.flip: lambda m, axis=None: record(rearrange.flip(tensor_of(m), _axes(axis, m.ndim))),
    np.roll: lambda a, shift, axis=None: record(rearrange.roll(tensor_of(a), shift, axis)),
    np.rot90: lambda m, k=1, axes=(0, 1): record(take_put.rot90(tensor_of(m), k, list(axes))),
    np.cross: lambda a, b, axis=-1: record(
        cross.linalg_cross(tensor_of(a), tensor_of(b), dim=axis)
    ),
    np.clip: lambda a, a_min, a_max: record(unary.clamp(tensor_of(a), a_min, a_max)),
    np.cumsum: _cumsum,
    np.prod: _prod,
    np.count_nonzero: _count_nonzero,
    np.put_along_axis: _put_along_axis,
    np.take_along_axis: _take_along_axis,
    np.atleast_1d: _atleast_1d,
    np.ascontiguousarray: _same,
    np.copy: lambda a, **kwargs: RecordedArray(tensor_of(a).clone(), owned=True),
    np.zeros_like: _like(np.zeros),
    np.ones_like: _like(np.ones),
    np.full_like: lambda a, fill_value, dtype=None, shape=None: _like(
        lambda shape, dtype: np.full(shape, fill_value, dtype)
    )(a, dtype, shape=shape),
    np.einsum: lambda subscripts, *operands: record(
        einsum.einsum(subscripts, *tensor_of(list(operands)))
    ),
    np.linalg.inv: lambda a: record(linalg_square.inv(tensor_of(a))),
    np.linalg.solve: lambda a, b: record(linalg_square.solve(tensor_of(a), tensor_of(b))),
    np.shape: lambda a: a.shape,
    np.ndim: lambda a: a.ndim,
    np.size: lambda a: a.size,
}


def _binary(ufunc: Any) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        return self.__array_ufunc__(ufunc, "__call__", self, other)

    return method


def _reflected(ufunc: Any) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        return self.__array_ufunc__(ufunc, "__call__", other, self)

    return method


class RecordedArray:
    """A Tensor that numpy's functions and ndarray's methods run microtorch's ops on."""

    __slots__ = ("tensor", "owned")
    __array_priority__ = 2000  # above Tensor's: ndarray (op) RecordedArray comes here

    def __init__(self, tensor: Any, owned: bool = False) -> None:
        self.tensor = tensor
        # a formula's own array (zeros_like, copy): a scatter into it records a new tensor
        # that this wrapper then holds. Not for a view of one, whose base would not see it.
        self.owned = owned

    # --- what numpy asks of an array ----------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self.tensor._data.shape

    @property
    def ndim(self) -> int:
        return self.tensor._data.ndim

    @property
    def size(self) -> int:
        return self.tensor._data.size

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.tensor._data.dtype

    @property
    def itemsize(self) -> int:
        return self.tensor._data.itemsize

    @property
    def T(self) -> RecordedArray:  # noqa: N802 - ndarray's name
        return _transpose(self)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if ufunc in _TRUTH and method == "__call__":  # a mask has no gradient: numpy's own
            values = [x.tensor._data if isinstance(x, RecordedArray) else x for x in inputs]
            return ufunc(*values, **kwargs)  # (``inside &= a >= lo`` writes into inside)
        if ufunc is np.add and method == "at" and not kwargs:
            return _add_at(*inputs)
        if ufunc is np.logaddexp and method == "accumulate" and set(kwargs) <= {"axis"}:
            (a,) = inputs  # (a running log-sum-exp: PyTorch's logcumsumexp)
            return record(scan.logcumsumexp(tensor_of(a), kwargs.get("axis", 0)))
        fn = _UFUNCS.get(ufunc)
        if fn is None or method != "__call__" or kwargs:
            name = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
            raise _unsupported(f"numpy's {name}" + (" with keywords" if kwargs else ""))
        return _recorded(fn)(*inputs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        fn = _FUNCTIONS.get(func)
        if fn is None:
            raise _unsupported(f"numpy's {func.__name__}")
        return fn(*args, **kwargs)

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise _unsupported("a conversion to a numpy array (an in-place write, or np.asarray)")

    # --- ndarray's methods ----------------------------------------------------------------
    sum, mean, reshape, transpose, squeeze, prod, cumsum = (
        _sum, _mean, _reshape, _transpose, _squeeze, _prod, _cumsum,
    )  # fmt: skip
    max, min = _extreme("max"), _extreme("min")

    def ravel(self) -> RecordedArray:
        return _reshape(self, (-1,))

    def copy(self) -> RecordedArray:
        return RecordedArray(self.tensor.clone(), owned=True)

    def swapaxes(self, i: int, j: int) -> RecordedArray:
        return RecordedArray(self.tensor.transpose(i, j))

    def astype(self, dtype: Any, copy: bool = True) -> RecordedArray:
        target = from_numpy_dtype(np.dtype(dtype))
        if target is self.tensor._dtype:
            return RecordedArray(self.tensor.clone()) if copy else self
        return RecordedArray(self.tensor.to(target))

    def any(self, axis: Any = None) -> Any:
        return self.tensor._data.any(axis)  # (a truth value: no gradient)

    def all(self, axis: Any = None) -> Any:
        return self.tensor._data.all(axis)

    def item(self) -> Any:
        return self.tensor.item()

    def __getitem__(self, index: Any) -> RecordedArray:
        return RecordedArray(self.tensor[tensor_of(index)])

    def __setitem__(self, index: Any, value: Any) -> None:
        self.tensor[tensor_of(index)] = tensor_of(value)  # (recorded as PyTorch's CopySlices)

    def __len__(self) -> int:
        return len(self.tensor)

    def __bool__(self) -> bool:
        return bool(self.tensor)

    def __float__(self) -> float:
        return float(self.tensor)

    def __repr__(self) -> str:
        return f"RecordedArray({self.tensor!r})"

    __add__, __radd__ = _binary(np.add), _reflected(np.add)
    __sub__, __rsub__ = _binary(np.subtract), _reflected(np.subtract)
    __mul__, __rmul__ = _binary(np.multiply), _reflected(np.multiply)
    __truediv__, __rtruediv__ = _binary(np.true_divide), _reflected(np.true_divide)
    __pow__, __rpow__ = _binary(np.power), _reflected(np.power)
    __floordiv__, __rfloordiv__ = _binary(np.floor_divide), _reflected(np.floor_divide)
    __matmul__, __rmatmul__ = _binary(np.matmul), _reflected(np.matmul)
    __and__, __rand__ = _binary(np.bitwise_and), _reflected(np.bitwise_and)
    __or__, __ror__ = _binary(np.bitwise_or), _reflected(np.bitwise_or)
    __lt__, __le__ = _binary(np.less), _binary(np.less_equal)
    __gt__, __ge__ = _binary(np.greater), _binary(np.greater_equal)
    __eq__, __ne__ = _binary(np.equal), _binary(np.not_equal)
    __hash__ = None  # type: ignore[assignment]

    def __neg__(self) -> RecordedArray:
        return RecordedArray(unary.neg(self.tensor))

    def __pos__(self) -> RecordedArray:
        return self

    def __abs__(self) -> RecordedArray:
        return RecordedArray(unary.abs(self.tensor))

    def __invert__(self) -> Any:
        return np.invert(self)

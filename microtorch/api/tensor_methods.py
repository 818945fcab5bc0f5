"""The methods of ``Tensor`` that hand over to an op: ``x.sum()``, ``x.add_(y)``, ``x.float()``.

``Tensor`` (``microtorch/tensor.py``) is the data: values, dtype, device, ``requires_grad``,
``grad``, ``grad_fn``, version and view state, and Python's protocols. Its op methods live here,
in a base class it inherits from, as PyTorch's generated methods live in ``torch._C.TensorBase``.
Most are the api functions themselves (``sum = reduction.sum``); the rest are one-line hand-overs.
Those of rarely used areas (``x.det()``, ``x.erf()``, ``x.sort()``) are ``Method``s: their module
is imported on the method's first use (microtorch/_lazy.py), so ``import microtorch`` stays fast.
"""

from __future__ import annotations

import builtins
import functools
import importlib
from typing import Any

import numpy as np

from microtorch._lazy import Method
from microtorch._warn import warn
from microtorch.api import binary_functions as binary
from microtorch.api import (
    bitwise,
    cumulative,
    division,
    indexing,
    join,
    linalg,
    pointwise,
    random_fill,
    real_only,
    rearrange,
    reduction,
    trigonometry,
    truth,
    twins,
    unary,
)
from microtorch.api import elementwise as ew
from microtorch.api import inplace as inplace_ops
from microtorch.api import multinomial as multinomial_ops
from microtorch.api import shape as shape_ops
from microtorch.api.arguments import alias, expect_ints, method_of, parsed, parser_error, reraise
from microtorch.api.inplace import apply_inplace, arith_inplace
from microtorch.api.keywords import method_keywords
from microtorch.api.operands import as_operand
from microtorch.api.operators import op_method, unrecorded
from microtorch.api.tensor_options import check_memory_format, tensor_options
from microtorch.autograd import node as _node
from microtorch.autograd.grad_mode import state as _grad
from microtorch.device import as_device
from microtorch.dtypes import bool as bool_
from microtorch.dtypes import (
    dtype,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    strided,
    uint8,
)  # fmt: skip
from microtorch.ops import unary as uops
from microtorch.ops.reduction import Sum
from microtorch.storage import TypedStorage, memory_of

__all__ = ["TensorMethods"]

# scatter_'s signatures, as PyTorch declares them (scatter's, without out=)
# The new_* methods' signature, after their size (and fill_value) as PyTorch declares it
_NEW_OPTIONS = (
    "Tensor input, {}, *, torch.dtype dtype=None, torch.layout layout=None, "
    "torch.device device=None, bool pin_memory=False, bool requires_grad=False"
)

# Tensor.to's keywords and signatures, as PyTorch declares them
_TO_KEYWORDS = {"dtype", "device", "non_blocking", "copy", "memory_format"}
_TO_SIGNATURES = [
    f"{first}, bool non_blocking=False, bool copy=False, *, torch.memory_format memory_format=None"
    for first in ("torch.device device=None, torch.dtype dtype=None", "torch.dtype dtype")
    + ("Tensor tensor",)
]

# Inside the class, "float" and "dtype" name methods; annotations use these.
Number = float
DType = dtype
Tensor = Any  # (microtorch.tensor.Tensor, which inherits these methods)


# The modules of rarely used methods, imported on first use (see Method above):
_COMPOSITES, _HISTOGRAM, _SEQUENCES = (
    "microtorch.api.composites:", "microtorch.api.histogram:", "microtorch.api.sequences:",
)  # fmt: skip
_SORTING, _SPECIAL, _STATISTICS = (
    "microtorch.api.sorting:", "microtorch.api.special:", "microtorch.api.statistics:",
)  # fmt: skip
_LINALG_SQUARE = "microtorch.api.linalg_square:"


def _methods(module: str, names: str, wrap: Any = None) -> Any:
    """``Method("microtorch.api.<module>:<name>", wrap)`` for each of the space-separated names."""
    return (Method(f"microtorch.api.{module}:{name}", wrap) for name in names.split())


def _twins(module: str, names: str) -> Any:
    """The in-place twins ``f_`` of ``microtorch.api.<module>``'s ``f`` (``twins.twin``)."""
    return (
        Method(f"microtorch.api.{module}:{name[:-1]}", functools.partial(twins.twin, name))
        for name in names.split()
    )


_T_WARNINGS = {  # PyTorch warns once per process (TORCH_WARN_ONCE) for x.T not of a matrix
    0: "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
    1: "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
    "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose "
    "batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
    "dimensions of a tensor.",
}
_t_warned: set[int] = set()


def _deprecated_T(ndim: int) -> None:  # noqa: N802
    kind = builtins.min(ndim, 1)
    if kind not in _t_warned:
        _t_warned.add(kind)
        warn(_T_WARNINGS[kind])


_sum_method, _pow_method = method_of(reduction.sum), binary.method("pow")


def _sum(self: Any, *args: Any, **kwargs: Any) -> Any:
    """``x.sum(...)``; ``x.sum()`` runs ``Sum`` itself, as ``reduction.sum`` would (its dtype:
    the tensor's if floating-point, else int64), and without ``apply`` when nothing is
    recorded."""
    if args or kwargs:
        return _sum_method(self, *args, **kwargs)
    dtype = None if self._dtype.is_floating_point else int64.numpy
    if _grad.grad_enabled and (self._rg or self._base is not None):
        return Sum.apply(self, dtype)  # (recorded, or a view apply renews)
    return unrecorded(Sum, self._device, self._data, dtype)


def _pow(self: Any, *args: Any, **kwargs: Any) -> Any:
    """``x.pow(...)``; ``x.pow(n)`` of a floating-point tensor and a Python number is
    ``x ** n`` (straight to ``PowScalar``: see operators.pow_operator)."""
    if len(args) == 1 and not kwargs and type(args[0]) in (builtins.int, builtins.float):
        return self ** args[0]
    return _pow_method(self, *args, **kwargs)


class TensorMethods:
    """Base class of ``Tensor``: its methods that run an op."""

    __slots__ = ()
    _data: np.ndarray  # (the fields are Tensor's: see microtorch/tensor.py)
    _dtype: Any
    _device: Any

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's name
        """All dimensions reversed (``PermuteBackward0``)."""
        if self._data.ndim != 2:
            _deprecated_T(self._data.ndim)
        return shape_ops.permute(self, tuple(range(self._data.ndim))[::-1])

    @property
    def mT(self) -> Tensor:  # noqa: N802
        """The last two dimensions swapped."""
        if self._data.ndim < 2:
            _matrices_only(self, "mT")
            return self
        return shape_ops.transpose(self, -2, -1)

    @property
    def H(self) -> Tensor:  # noqa: N802
        """The conjugate transpose of a matrix: for real dtypes, its transpose."""
        if self._data.ndim != 2:
            _matrix_only(self, "tensor.H", "Tensor.H")
            return self
        return shape_ops.transpose(self, 0, 1)

    @property
    def mH(self) -> Tensor:  # noqa: N802
        """The last two dimensions swapped (conjugated: for real dtypes, nothing to do)."""
        if self._data.ndim < 2:
            _matrices_only(self, "mH", deprecated="Tensor.mH")
            return self
        return shape_ops.transpose(self, -2, -1)

    def adjoint(self) -> Tensor:
        """The last two dimensions swapped (conjugated: for real dtypes, nothing to do)."""
        if self._data.ndim < 2:
            _matrices_only(self, "adjoint()", deprecated="adjoint()")
            return self
        return shape_ops.transpose(self, -2, -1)

    def ravel(self) -> Tensor:
        """The elements as one dimension: ``x.contiguous().view(-1)``."""
        return shape_ops.view(self.contiguous(), (-1,))

    def msort(self) -> Tensor:
        """Sorted along dimension 0: ``sort(dim=0).values``."""
        return self.sort(0).values

    def where(self, condition: Any, other: Any) -> Tensor:
        """``torch.where(condition, self, other)``."""
        return ew.where(condition, self, other)

    def isreal(self) -> Tensor:
        """True for every element: microtorch's dtypes are all real."""
        return self.new_ones(self._data.shape, dtype=bool_)

    def is_signed(self) -> builtins.bool:
        """Whether the dtype holds negative numbers (not bool, not uint8)."""
        return self._dtype.is_signed

    def is_same_size(self, other: Tensor) -> builtins.bool:
        """Whether ``other`` has the same shape."""
        return self._data.shape == other._data.shape

    def is_nonzero(self) -> builtins.bool:
        """The one element's truth: ``bool(x)``, with PyTorch's errors for 0 or 2+ elements."""
        return builtins.bool(self)

    def is_pinned(self) -> builtins.bool:
        """False: a CPU tensor is not in pinned memory (no accelerator to pin it for)."""
        return False

    is_meta = is_mps = False  # (a CPU tensor: not on the meta or MPS device)

    @property
    def itemsize(self) -> builtins.int:
        """Bytes per element (``element_size()``)."""
        return self._dtype.itemsize

    @property
    def layout(self) -> Any:
        """``torch.strided``: microtorch's tensors are dense, laid out by strides."""
        return strided

    # --- conversion ---------------------------------------------------------------------
    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """Convert dtype and/or device: ``x.to(torch.float64)``, ``x.to('cpu')``, ``x.to(y)``;
        then ``non_blocking`` (nothing to wait for here) and ``copy`` (a new tensor even when
        nothing changes), by position or keyword."""
        if kwargs and not kwargs.keys() <= _TO_KEYWORDS:  # x.to(other=y): PyTorch's parser
            raise TypeError(parser_error("to", _TO_SIGNATURES, args, kwargs))
        target_dtype, target_device = kwargs.get("dtype"), kwargs.get("device")
        flags = [kwargs.get("non_blocking", False), kwargs.get("copy", False)]
        check_memory_format("to", kwargs.get("memory_format"))
        given = 0  # the bools after the dtype, device or tensor: non_blocking, copy
        for a in args:
            if isinstance(a, (builtins.bool, np.bool_)) and given < 2:
                flags[given], given = a, given + 1
            elif isinstance(a, dtype):
                target_dtype = a
            elif isinstance(a, _node.Tensor):
                target_dtype, target_device = a._dtype, a._device
            else:
                target_device = a
        out: Any = self
        if target_dtype is not None or flags[1]:
            out = shape_ops.to_dtype(
                self, target_dtype or self._dtype, copy=builtins.bool(flags[1])
            )
        if target_device is not None and as_device(target_device) is not self._device:
            if self._device.type == "meta":  # a meta tensor has a shape but no values to copy
                raise NotImplementedError(
                    "Cannot copy out of meta tensor; no data! (Fix: create the tensor on the "
                    "device you need, e.g. torch.zeros(2, 2, device='cpu').)"
                )
            moved = _node.plain_tensor(out._data.copy(), as_device(target_device))
            moved._rg, moved._grad_fn, moved._output_nr = out._rg, out._grad_fn, out._output_nr
            out = moved
        return out

    def float(self) -> Tensor:
        return shape_ops.to_dtype(self, float32)

    def double(self) -> Tensor:
        return shape_ops.to_dtype(self, float64)

    def half(self) -> Tensor:
        return shape_ops.to_dtype(self, float16)

    def long(self) -> Tensor:
        return shape_ops.to_dtype(self, int64)

    def int(self) -> Tensor:
        return shape_ops.to_dtype(self, int32)

    def bool(self) -> Tensor:
        return shape_ops.to_dtype(self, bool_)

    def short(self) -> Tensor:
        return shape_ops.to_dtype(self, int16)

    def byte(self) -> Tensor:
        return shape_ops.to_dtype(self, uint8)

    def char(self) -> Tensor:
        return shape_ops.to_dtype(self, int8)

    def type(self, dtype: Any = None, non_blocking: builtins.bool = False) -> Any:
        """The legacy type's name (``'microtorch.FloatTensor'``), or a copy converted to
        ``dtype``: a dtype, a legacy type (``torch.LongTensor``) or its name."""
        if dtype is None:
            return f"microtorch.{self._dtype._legacy}"
        return shape_ops.to_dtype(self, _api_module("legacy_types").dtype_of_type(dtype))

    def cpu(self, *, memory_format: Any = None) -> Tensor:
        check_memory_format("cpu", memory_format)
        return self.to("cpu")

    def pin_memory(self, device: Any = None) -> Tensor:
        """PyTorch's answer on a machine without a GPU: pinned memory needs one."""
        raise RuntimeError(
            "Cannot access accelerator device when none is available. (Fix: drop the call; "
            "pinned memory only speeds up copies to a GPU, and microtorch runs on the CPU)"
        )

    def cuda(
        self, device: Any = None, non_blocking: builtins.bool = False, *, memory_format: Any = None
    ) -> Tensor:
        """``self.to("cuda")``: raises PyTorch's error, as there is no GPU here."""
        if device is not None and as_device(device).type != "cuda":
            raise RuntimeError("Invalid device, must be cuda device")
        return self.to("cuda" if device is None else device)

    def clone(self, *, memory_format: Any = None) -> Tensor:
        check_memory_format("clone", memory_format)
        return shape_ops.clone(self)

    def contiguous(self, *, memory_format: Any = None) -> Tensor:
        check_memory_format("contiguous", memory_format)
        return shape_ops.contiguous(self)

    # --- in-place ops: version counters, leaf checks, graph rebasing in api/inplace.py ---
    def add_(self, other: Any, *, alpha: Number = 1) -> Tensor:
        return arith_inplace(self, "add_", ew.add, other, alpha)

    def sub_(self, other: Any, *, alpha: Number = 1) -> Tensor:
        return arith_inplace(self, "sub_", ew.sub, other, alpha)

    def mul_(self, other: Any) -> Tensor:
        return arith_inplace(self, "mul_", ew.mul, other)

    def div_(self, other: Any, *, rounding_mode: str | None = None) -> Tensor:
        if rounding_mode is None:
            return arith_inplace(self, "div_", ew.div, other)
        return apply_inplace(self, "div_", ew.div, other, rounding_mode=rounding_mode)

    def pow_(self, exponent: Any) -> Tensor:
        return apply_inplace(self, "pow_", ew.pow, exponent)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
        return apply_inplace(self, "clamp_", unary.clamp, min, max)

    def zero_(self) -> Tensor:
        return apply_inplace(self, "zero_", inplace_ops.zero)

    def fill_(self, value: Any) -> Tensor:
        if not isinstance(value, (_node.Tensor, int, Number, np.generic)):
            kind = type(value).__name__
            raise TypeError(f"fill_(): value must be a number or a Tensor, not {kind}")
        return apply_inplace(self, "fill_", inplace_ops.fill, value)

    def copy_(self, other: Any, non_blocking: builtins.bool = False) -> Tensor:
        if isinstance(other, (int, float)):  # a number fills, as in PyTorch (CopyBackwards)
            other = as_operand(other, self._dtype, self._device)
        if not isinstance(other, _node.Tensor):
            raise TypeError(
                f"copy_(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}"
            )
        return apply_inplace(self, "copy_", inplace_ops.copy, other)

    def masked_fill_(self, *args: Any, **kwargs: Any) -> Tensor:  # (mask, value)
        try:
            return apply_inplace(self, "masked_fill_", ew.masked_fill, *args, **kwargs)
        except Exception as error:
            signatures = ("Tensor mask, Tensor value", "Tensor mask, Number value")
            reraise("masked_fill_", signatures, args, kwargs, error)
            raise

    def relu_(self) -> Tensor:
        return apply_inplace(self, "relu_", unary.relu)

    def __setitem__(self, index: Any, value: Any) -> None:
        apply_inplace(self, "index_put_", _index_put, index, value)

    # x += y is x.add_(y), as in PyTorch
    __iadd__, __isub__, __imul__, __itruediv__, __ipow__ = add_, sub_, mul_, div_, pow_

    def remainder_(self, other: Any) -> Tensor:
        return apply_inplace(self, "remainder_", division.remainder, other)

    def floor_divide_(self, other: Any) -> Tensor:
        return apply_inplace(self, "floor_divide_", division.floor_divide, other)

    def bitwise_and_(self, other: Any) -> Tensor:
        return apply_inplace(self, "bitwise_and_", bitwise.bitwise_and, other)

    def bitwise_or_(self, other: Any) -> Tensor:
        return apply_inplace(self, "bitwise_or_", bitwise.bitwise_or, other)

    def bitwise_xor_(self, other: Any) -> Tensor:
        return apply_inplace(self, "bitwise_xor_", bitwise.bitwise_xor, other)

    __imod__, __ifloordiv__ = remainder_, floor_divide_
    __iand__, __ior__, __ixor__ = bitwise_and_, bitwise_or_, bitwise_xor_

    # --- methods that mirror the functions in microtorch.ops ----------------------------
    # (with PyTorch's keyword names, x.add(other=y), and out= for torch.add(a, b, out=c);
    # the operators above skip both)
    # (and PyTorch's argument-parser errors, x.add("a"): api/binary_functions.py)
    add, sub, mul, div, maximum, minimum, eq, ne, lt, le, gt, ge = (
        binary.method(name)
        for name in ("add", "sub", "mul", "div", "maximum", "minimum")
        + ("eq", "ne", "lt", "le", "gt", "ge")
    )
    pow = functools.wraps(_pow_method)(_pow)  # noqa: A003
    masked_fill = method_of(ew.masked_fill)
    logical_not, isclose, allclose, equal = ew.logical_not, ew.isclose, ew.allclose, ew.equal
    # x.exp() takes no input= and no out= (torch.exp does): the methods skip that wrapper;
    # x.exp() of a floating-point tensor runs Exp itself, as x * y runs Mul (op_method)
    neg, exp, log, log1p, sqrt, abs, sin, cos, sigmoid, tanh, relu, reciprocal = (
        op_method(op, method_keywords(f))
        for op, f in (
            (uops.Neg, unary.neg), (uops.Exp, unary.exp), (uops.Log, unary.log),
            (uops.Log1p, unary.log1p), (uops.Sqrt, unary.sqrt), (uops.Abs, unary.abs),
            (uops.Sin, unary.sin), (uops.Cos, unary.cos), (uops.Sigmoid, unary.sigmoid),
            (uops.Tanh, unary.tanh), (uops.Relu, unary.relu), (uops.Reciprocal, unary.reciprocal),
        )
    )  # fmt: skip
    clamp, clip = method_of(unary.clamp), method_of(unary.clip)
    sum = functools.wraps(_sum_method)(_sum)
    mean, max, min, amax, amin = (
        method_of(reduction.mean),
        method_of(reduction.max),
        method_of(reduction.min),
        method_of(reduction.amax),
        method_of(reduction.amin),
    )
    argmax, argmin = method_of(reduction.argmax), method_of(reduction.argmin)
    var, std = method_of(reduction.var), method_of(reduction.std)
    softmax, log_softmax, logsumexp = (
        method_of(reduction.softmax),
        method_of(reduction.log_softmax),
        method_of(reduction.logsumexp),
    )
    view, reshape, flatten, squeeze, unsqueeze = (
        method_of(shape_ops.view),
        method_of(shape_ops.reshape),
        method_of(shape_ops.flatten),
        method_of(shape_ops.squeeze),
        method_of(shape_ops.unsqueeze),
    )
    expand, transpose, t, permute = (
        method_of(shape_ops.expand),
        method_of(shape_ops.transpose),
        shape_ops.t,
        method_of(shape_ops.permute),
    )
    split, chunk, unbind = join.split, method_of(join.chunk), method_of(join.unbind)
    matmul, mm, mv, dot, bmm = linalg.matmul, linalg.mm, linalg.mv, linalg.dot, linalg.bmm
    sort, argsort, nonzero = (
        Method(_SORTING + "sort", method_of), Method(_SORTING + "argsort", method_of),
        Method(_SORTING + "nonzero"),
    )  # fmt: skip
    topk = Method(_SORTING + "topk", method_of)
    # PyTorch's other names for the same methods:
    absolute, negative = abs, neg
    multiply, divide, subtract = (binary.method(n) for n in ("multiply", "divide", "subtract"))
    swapdims = method_of(alias(shape_ops.transpose, "swapdims"))
    swapaxes = method_of(
        alias(shape_ops.transpose, "swapaxes", "Tensor input, int axis0, int axis1")
    )
    logical_and, logical_or, logical_xor, floor_divide, remainder, fmod = (
        binary.method(n)
        for n in ("logical_and", "logical_or", "logical_xor", "floor_divide", "remainder", "fmod")
    )
    bitwise_and, bitwise_or, bitwise_xor = (
        binary.method(n) for n in ("bitwise_and", "bitwise_or", "bitwise_xor")
    )
    bitwise_not, positive = bitwise.bitwise_not, bitwise.positive
    round, floor, ceil, trunc, sign = _methods("rounding", "round floor ceil trunc sign")
    isnan, isinf, isfinite, any, all = (
        truth.isnan,
        truth.isinf,
        truth.isfinite,
        method_of(truth.any),
        method_of(truth.all),
    )
    log10, log2 = _methods("logarithms", "log10 log2")
    norm = linalg.norm
    prod, cumsum, cumprod = (
        method_of(cumulative.prod),
        method_of(cumulative.cumsum),
        method_of(cumulative.cumprod),
    )
    histc = Method(_HISTOGRAM + "histc", method_of)
    histogram = Method(_HISTOGRAM + "histogram", method_of)
    tan, sinh, cosh, asin, acos, atan, asinh, acosh, atanh = (
        method_keywords(f)
        for f in (trigonometry.tan, trigonometry.sinh, trigonometry.cosh, trigonometry.asin)
        + (trigonometry.acos, trigonometry.atan, trigonometry.asinh, trigonometry.acosh)
        + (trigonometry.atanh,)
    )
    arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh
    greater, greater_equal, less, less_equal, not_equal, true_divide = (
        binary.method(n)
        for n in ("greater", "greater_equal", "less", "less_equal", "not_equal", "true_divide")
    )
    fix = Method("microtorch.tensor:Tensor.trunc")  # (the same function: its own Method)
    eq_, ne_, lt_, le_, gt_, ge_ = twins.eq_, twins.ne_, twins.lt_, twins.le_, twins.gt_, twins.ge_
    greater_, greater_equal_, less_, less_equal_, not_equal_ = gt_, ge_, lt_, le_, ne_
    logical_and_, logical_or_, logical_xor_, logical_not_ = (
        twins.logical_and_,
        twins.logical_or_,
        twins.logical_xor_,
        twins.logical_not_,
    )
    true_divide_, fix_ = twins.true_divide_, Method("microtorch.tensor:Tensor.trunc_")
    deg2rad, rad2deg, sgn, gcd, lcm = (
        method_keywords(f)
        for f in (pointwise.deg2rad, pointwise.rad2deg, pointwise.sgn, pointwise.gcd)
        + (pointwise.lcm,)
    )
    hypot, logaddexp, logaddexp2, copysign, fmax, fmin = (
        binary.method(n, method_keywords(getattr(pointwise, n)))
        for n in ("hypot", "logaddexp", "logaddexp2", "copysign", "fmax", "fmin")
    )
    deg2rad_, rad2deg_, hypot_, copysign_, sgn_, gcd_, lcm_ = (
        twins.deg2rad_,
        twins.rad2deg_,
        twins.hypot_,
        twins.copysign_,
        twins.sgn_,
        twins.gcd_,
        twins.lcm_,
    )

    atan2, arctan2 = binary.method("atan2"), binary.method("arctan2")

    # --- the in-place twins of the functions above (api/twins.py) ----------------------
    abs_, neg_, exp_, log_, log1p_, sqrt_ = (
        twins.abs_, twins.neg_, twins.exp_, twins.log_, twins.log1p_, twins.sqrt_,
    )  # fmt: skip
    sin_, cos_, sigmoid_, tanh_, reciprocal_ = (
        twins.sin_, twins.cos_, twins.sigmoid_, twins.tanh_, twins.reciprocal_,
    )  # fmt: skip
    log10_, log2_ = _twins("logarithms", "log10_ log2_")
    square_ = twins.square_
    ceil_, floor_, trunc_, sign_ = _twins("rounding", "ceil_ floor_ trunc_ sign_")
    round_ = Method("microtorch.api.rounding:round_", method_of)
    cumsum_, cumprod_ = (
        method_of(parsed(name, "Tensor input, int dim, *, torch.dtype dtype=None")(twin))
        for name, twin in (("cumsum_", twins.cumsum_), ("cumprod_", twins.cumprod_))
    )
    bitwise_not_, fmod_ = (
        twins.bitwise_not_, twins.fmod_,
    )  # fmt: skip
    tan_, sinh_, cosh_, asin_, acos_, atan_, asinh_, acosh_, atanh_, atan2_ = (
        twins.tan_, twins.sinh_, twins.cosh_, twins.asin_, twins.acos_, twins.atan_,
        twins.asinh_, twins.acosh_, twins.atanh_, twins.atan2_,
    )  # fmt: skip
    absolute_, negative_, clip_ = abs_, neg_, clamp_
    multiply_, divide_, subtract_ = mul_, div_, method_of(binary.subtract_)
    # in place, but not element-wise: a new shape (api/reshape_inplace.py), random numbers
    unsqueeze_, squeeze_, t_, transpose_, swapaxes_, swapdims_ = _methods(
        "reshape_inplace", "unsqueeze_ squeeze_ t_ transpose_ swapaxes_ swapdims_"
    )
    (resize_,) = _methods("reshape_inplace", "resize_", method_of)
    random_ = random_fill.random_
    uniform_, exponential_, geometric_, cauchy_, log_normal_ = (
        random_fill.uniform_, random_fill.exponential_, random_fill.geometric_,
        random_fill.cauchy_, random_fill.log_normal_,
    )  # fmt: skip

    gather, scatter, scatter_add, scatter_reduce = _methods(
        "scatter", "gather scatter scatter_add scatter_reduce", method_keywords
    )
    (scatter_,) = _methods("scatter", "scatter_", method_of)

    def scatter_add_(self, dim: builtins.int, index: Tensor, src: Tensor) -> Tensor:
        scatter_ops = _api_module("scatter")
        return apply_inplace(self, "scatter_add_", scatter_ops.scatter_add, dim, index, src)

    scatter_add_ = method_of(
        parsed("scatter_add_", "Tensor input, int dim, Tensor index, Tensor src")(scatter_add_)
    )

    def scatter_reduce_(
        self, dim: builtins.int, index: Tensor, src: Tensor, reduce: str, **kwargs: Any
    ) -> Tensor:
        scatter_ops = _api_module("scatter")
        return apply_inplace(
            self, "scatter_reduce_", scatter_ops.scatter_reduce, dim, index, src, reduce, **kwargs
        )

    scatter_reduce_ = method_of(
        parsed(
            "scatter_reduce_",
            "Tensor input, int dim, Tensor index, Tensor src, str reduce, *, "
            "bool include_self=True",
        )(scatter_reduce_)
    )

    rsqrt, expm1, tril, triu, tile, index_select, masked_select = (
        method_keywords(f)
        for f in (rearrange.rsqrt, rearrange.expm1, rearrange.tril, rearrange.triu)
        + (rearrange.tile, rearrange.index_select, rearrange.masked_select)
    )
    flip, roll = method_keywords(rearrange.flip), method_keywords(rearrange.roll)
    repeat = method_of(rearrange.repeat)
    rsqrt_, expm1_ = twins.twin("rsqrt_", rearrange.rsqrt), twins.twin("expm1_", rearrange.expm1)
    tril_, triu_ = (
        method_of(parsed(name, "Tensor input, int diagonal=0")(twins.twin(name, fn)))
        for name, fn in (("tril_", rearrange.tril), ("triu_", rearrange.triu))
    )
    narrow, movedim, moveaxis, outer, clamp_min, clamp_max, nan_to_num = (
        Method(_COMPOSITES + name, method_keywords)
        for name in ("narrow", "movedim", "moveaxis", "outer", "clamp_min", "clamp_max")
        + ("nan_to_num",)
    )
    # x.broadcast_to(2, 3) or ((2, 3)): expand, which takes the sizes either way too (not so
    # torch.broadcast_to(x, 2, 3))
    broadcast_to = method_of(
        parsed("broadcast_to", "Tensor input, tuple of ints size")(shape_ops.expand)
    )
    count_nonzero, argwhere = (
        Method(_COMPOSITES + "count_nonzero", method_of),
        Method(_COMPOSITES + "argwhere"),
    )
    clamp_min_, clamp_max_ = (
        Method(_COMPOSITES + name, method_of) for name in ("clamp_min_", "clamp_max_")
    )

    def nan_to_num_(
        self: Any, nan: Any = 0.0, posinf: Any = None, neginf: Any = None
    ) -> Any:  # fmt: skip
        """``nan_to_num``, written into this tensor; returns it."""
        composites = _api_module("composites")  # (imported on first use)
        composites.check_replacements("nan_to_num_", nan, posinf, neginf)
        return twins.twin("nan_to_num_", composites.nan_to_num)(self, nan, posinf, neginf)

    cross = Method("microtorch.api.cross:cross", method_of)
    unique = Method("microtorch.api.unique:unique")
    erf, erfc, erfinv, addcmul, addcdiv = (
        Method(_SPECIAL + name, method_keywords)
        for name in ("erf", "erfc", "erfinv", "addcmul", "addcdiv")
    )
    lerp = Method(_SPECIAL + "lerp", method_of)
    normal_, bernoulli_ = _methods("sampling", "normal_ bernoulli_")

    def bernoulli(self, p: Any = None, *, generator: Any = None) -> Tensor:
        return _api_module("sampling").bernoulli(self, p, generator=generator)

    diff, repeat_interleave = (
        Method(_SEQUENCES + name, method_keywords) for name in ("diff", "repeat_interleave")
    )
    median, bincount = (
        Method(_STATISTICS + name, method_keywords) for name in ("median", "bincount")
    )
    erf_, erfc_, erfinv_, lerp_, addcmul_, addcdiv_ = (
        Method(_SPECIAL + name[:-1], functools.partial(twins.twin, name))
        for name in ("erf_", "erfc_", "erfinv_", "lerp_", "addcmul_", "addcdiv_")
    )
    (frac,) = _methods("rounding", "frac", method_keywords)
    isposinf, isneginf, signbit = truth.isposinf, truth.isneginf, truth.signbit
    (frac_,) = _twins("rounding", "frac_")
    nansum, nanmean, kthvalue, mode = (
        Method(_STATISTICS + name, method_of) for name in ("nansum", "nanmean", "kthvalue", "mode")
    )
    diagonal, diag, diag_embed, trace = (
        Method("microtorch.api.diagonal:" + name, method_keywords)
        for name in ("diagonal", "diag", "diag_embed", "trace")
    )
    svd = Method("microtorch.api.decomposition:svd")
    det, inverse = (Method(_LINALG_SQUARE + name, method_keywords) for name in ("det", "inverse"))
    slogdet = Method(_LINALG_SQUARE + "slogdet")

    is_complex, conj, resolve_conj, is_conj = (
        real_only.is_complex, real_only.conj, real_only.resolve_conj, real_only.is_conj,
    )  # fmt: skip
    real, imag = property(real_only.real), property(real_only.imag)
    is_sparse = is_quantized = property(lambda self: False)  # (dense, unquantized: always)

    def storage(self) -> TypedStorage:
        """The memory this tensor shares with its views, as a flat sequence of values."""
        return TypedStorage(memory_of(self._data), self._dtype, self._device)

    arcsin_, arccos_, arctan_, arcsinh_, arccosh_, arctanh_, arctan2_ = (
        asin_, acos_, atan_, asinh_, acosh_, atanh_, atan2_,
    )  # fmt: skip

    select = method_of(indexing.select)

    def square(self) -> Tensor:
        return ew.pow(self, 2)

    def view_as(self, other: Tensor) -> Tensor:
        return shape_ops.view(self, other._data.shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        return shape_ops.reshape(self, other._data.shape)

    def expand_as(self, other: Tensor) -> Tensor:
        return shape_ops.expand(self, other._data.shape)

    def type_as(self, other: Tensor) -> Tensor:
        return shape_ops.to_dtype(self, other._dtype)

    # --- new tensors like this one: its dtype and device unless told otherwise -----------
    def new_tensor(
        self,
        data: Any,
        dtype: DType | None = None,
        device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:
        """``data`` (copied) as a new leaf tensor."""
        if isinstance(data, _node.Tensor):
            warn(_NEW_TENSOR_WARNING)
            data = data._data
        return self._new(np.array(data, (dtype or self._dtype).numpy), device, requires_grad)

    @method_of
    @parsed("new_zeros", _NEW_OPTIONS.format("tuple of ints size"))
    @tensor_options()
    def new_zeros(
        self, *sizes: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:  # fmt: skip
        """Zeros of the given size."""
        data = np.zeros(_dims(sizes, size), (dtype or self._dtype).numpy)
        return self._new(data, device, requires_grad)

    @method_of
    @parsed("new_ones", _NEW_OPTIONS.format("tuple of ints size"))
    @tensor_options()
    def new_ones(
        self, *sizes: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:  # fmt: skip
        """Ones of the given size."""
        data = np.ones(_dims(sizes, size), (dtype or self._dtype).numpy)
        return self._new(data, device, requires_grad)

    @method_of
    @parsed("new_empty", _NEW_OPTIONS.format("tuple of ints size"))
    @tensor_options()
    def new_empty(
        self, *sizes: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:  # fmt: skip
        """A tensor of the given size (zeros here; PyTorch leaves the memory uninitialised)."""
        data = np.zeros(_dims(sizes, size), (dtype or self._dtype).numpy)
        return self._new(data, device, requires_grad)

    @method_of
    @parsed("new_full", _NEW_OPTIONS.format("tuple of ints size, Number fill_value"))
    @tensor_options()
    def new_full(
        self, size: Any, fill_value: Any, *, dtype: DType | None = None, device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:  # fmt: skip
        """``fill_value`` everywhere (in this tensor's dtype unless ``dtype`` is given)."""
        data = np.full(_dims((size,), None), fill_value, (dtype or self._dtype).numpy)
        return self._new(data, device, requires_grad)

    def _new(self, data: np.ndarray, device: Any, requires_grad: builtins.bool) -> Tensor:
        t = _node.plain_tensor(data, self._device if device is None else as_device(device))
        if requires_grad:
            t._set_requires_grad(True, "Only Tensors of floating point and complex dtype")
        return t

    # --- walka: issue 24's shapes, cuts, indexing and products (docs/api_walk.md)
    tensor_split, hsplit, vsplit, dsplit = _methods(
        "splits", "tensor_split hsplit vsplit dsplit", method_keywords
    )
    (split_with_sizes,) = _methods("splits", "split_with_sizes", method_of)
    fliplr, flipud = _methods("splits", "fliplr flipud")
    _unflatten, sum_to_size = _methods("splits", "unflatten sum_to_size", method_of)

    def unflatten(self, dim: Any, sizes: Any) -> Tensor:
        """``unflatten(self, dim, sizes)``: PyTorch writes this method in Python, so a wrong
        keyword gets Python's TypeError, named ``Tensor.unflatten()`` (``input=``)."""
        return self._unflatten(dim, sizes)

    unflatten.__qualname__ = "Tensor.unflatten"  # (the name Python's TypeErrors give)
    (diagflat,) = _methods("splits", "diagflat", method_of)
    (unique_consecutive,) = _methods("unique", "unique_consecutive")
    addmm, addmv, addr, addbmm, baddbmm = _methods("products", "addmm addmv addr addbmm baddbmm")
    addmm_, addmv_, addr_, addbmm_, baddbmm_ = _methods(
        "products", "addmm_ addmv_ addr_ addbmm_ baddbmm_"
    )
    inner, ger, vdot, kron = _methods("products", "inner ger vdot kron")
    take, put, put_ = _methods("take_put", "take put put_")
    (rot90,) = _methods("take_put", "rot90", method_of)
    (take_along_dim,) = _methods("take_put", "take_along_dim", method_of)
    index_put, index_put_, masked_scatter, masked_scatter_, fill_diagonal_ = _methods(
        "take_put", "index_put index_put_ masked_scatter masked_scatter_ fill_diagonal_"
    )
    cummax, cummin, logcumsumexp, aminmax = _methods(
        "scan", "cummax cummin logcumsumexp aminmax", method_of
    )
    # --- end walka
    # --- walkb
    lgamma, digamma, mvlgamma = _methods("gamma", "lgamma digamma mvlgamma", method_keywords)
    lgamma_, digamma_ = _twins("gamma", "lgamma_ digamma_")

    def mvlgamma_(self, p: builtins.int) -> Tensor:
        """``mvlgamma(p)``, written into this tensor; returns it."""
        gamma_ops = _api_module("gamma")
        gamma_ops.no_bool(self)
        if not self._dtype.is_floating_point:  # (PyTorch's words, its types swapped)
            raise RuntimeError(
                f"mvlgamma: result type {self._dtype._legacy[:-6]} can't be cast to the "
                f"desired output type {gamma_ops.get_default_dtype()._legacy[:-6]}"
            )
        return apply_inplace(self, "mvlgamma_", gamma_ops.mvlgamma, p)

    mvlgamma_ = method_of(parsed("mvlgamma_", "Tensor input, int p")(mvlgamma_))

    (i0,) = _methods("bessel", "i0", method_keywords)
    (i0_,) = _twins("bessel", "i0_")

    float_power, ldexp, frexp, nextafter, heaviside = _methods(
        "float_bits", "float_power ldexp frexp nextafter heaviside", method_keywords
    )
    float_power_, ldexp_ = _methods("float_bits", "float_power_ ldexp_")
    nextafter_, heaviside_ = _twins("float_bits", "nextafter_ heaviside_")
    (hardshrink,) = _methods("shrink", "hardshrink", method_keywords)
    igamma, igammac = _methods("incomplete_gamma", "igamma igammac", method_keywords)
    igamma_, igammac_ = _twins("incomplete_gamma", "igamma_ igammac_")
    (dist,) = _methods("dist", "dist", method_keywords)
    bitwise_left_shift, bitwise_right_shift = _methods(
        "shifts", "bitwise_left_shift bitwise_right_shift", method_keywords
    )
    bitwise_left_shift_, bitwise_right_shift_ = _twins(
        "shifts", "bitwise_left_shift_ bitwise_right_shift_"
    )
    __ilshift__, __irshift__ = _twins("shifts", "bitwise_left_shift_ bitwise_right_shift_")

    def __lshift__(self, other: Any) -> Tensor:
        return _api_module("shifts").shift(self, other, True, "bitwise_left_shift")

    def __rlshift__(self, other: Any) -> Tensor:
        return _api_module("shifts").shift(other, self, True, "bitwise_left_shift")

    def __rshift__(self, other: Any) -> Tensor:
        return _api_module("shifts").shift(self, other, False, "bitwise_right_shift")

    def __rrshift__(self, other: Any) -> Tensor:
        return _api_module("shifts").shift(other, self, False, "bitwise_right_shift")

    def polygamma(self, n: builtins.int) -> Tensor:
        """The n-th derivative of digamma at this tensor's values."""
        return _api_module("gamma").polygamma(n, self)

    def polygamma_(self, n: builtins.int) -> Tensor:
        """``polygamma(n)``, written into this tensor; returns it."""
        return apply_inplace(self, "polygamma_", _polygamma_of, n)

    # --- walkd (issue 24): linear algebra methods; the four PyTorch 1.9 removed raise its error
    def eig(self, eigenvectors: builtins.bool = False) -> Any:
        """Removed in PyTorch (since 1.9): raises its error; microtorch has no complex dtypes
        for ``torch.linalg.eig``, and ``torch.linalg.eigh`` takes a symmetric matrix."""
        raise RuntimeError(_REMOVED + _REMOVED_EIG)

    def symeig(self, eigenvectors: builtins.bool = False) -> Any:
        """Removed in PyTorch (since 1.9): raises its error; use ``torch.linalg.eigh``."""
        raise RuntimeError(_REMOVED + _REMOVED_SYMEIG)

    def lstsq(self, other: Any) -> Any:
        """Removed in PyTorch (since 1.9): raises its error; use ``torch.linalg.lstsq``."""
        raise RuntimeError(_REMOVED + _REMOVED_LSTSQ)

    def solve(self, other: Any) -> Any:
        """Removed in PyTorch (since 1.9): raises its error; use ``torch.linalg.solve``."""
        raise RuntimeError(_REMOVED + _REMOVED_SOLVE)

    def cholesky(self, upper: builtins.bool = False) -> Any:
        """Deprecated: ``torch.linalg.cholesky`` (``upper=True``: its ``.mH``)."""
        return _linalg_triangular().cholesky(self, upper)

    def cholesky_inverse(self, upper: builtins.bool = False) -> Any:
        """inv(A) of A = L L^T given by this Cholesky factor L (``upper``: A = U^T U)."""
        return _linalg_triangular().cholesky_inverse(self, upper)

    def cholesky_solve(self, input2: Any, upper: builtins.bool = False) -> Any:
        """X with A X = self, A = L L^T given by its Cholesky factor L = ``input2``."""
        return _linalg_triangular().cholesky_solve(self, input2, upper)

    def logdet(self) -> Any:
        """log det(A): nan where det A < 0, -inf where it is 0."""
        return _linalg_triangular().logdet(self)

    def pinverse(self, rcond: builtins.float = 1e-15) -> Any:
        """The pseudo-inverse (``torch.linalg.pinv(self, rtol=rcond)``)."""
        return _linalg_triangular().pinverse(self, rcond)

    def qr(self, some: builtins.bool = True) -> Any:
        """Deprecated: ``torch.linalg.qr(self, 'reduced' if some else 'complete')``."""
        return _linalg_triangular().qr(self, some)

    def triangular_solve(
        self, A: Any, upper: builtins.bool = True, transpose: builtins.bool = False,  # noqa: N803
        unitriangular: builtins.bool = False,
    ) -> Any:  # fmt: skip
        """Deprecated: X with op(T) X = self, and a copy of A (``linalg.solve_triangular``)."""
        return _linalg_triangular().triangular_solve(self, A, upper, transpose, unitriangular)

    def matrix_exp(self) -> Any:
        """exp(A) = I + A + A^2 / 2! + ... of each square matrix."""
        return _api_module("linalg_square").matrix_exp(self)

    matrix_power = Method(_LINALG_SQUARE + "torch_matrix_power", method_of)

    def register_post_accumulate_grad_hook(self, hook: Any) -> Any:
        """Call ``hook(self)`` after a backward pass has added into this leaf's ``.grad``
        (``backward()``, not ``autograd.grad``); it must return None."""
        t: Any = self
        if not t._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if t._grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        hooks = self.__dict__.setdefault("_post_accumulate_grad_hooks", [])
        hooks.append(hook)
        return _node.RemovableHandle(hooks, hook)

    (new_empty_strided,) = _methods("memory_layout", "new_empty_strided", method_of)

    def lu(self, pivot: builtins.bool = True, get_infos: builtins.bool = False) -> Any:
        """Deprecated: ``torch.linalg.lu_factor`` (``get_infos``: ``lu_factor_ex``)."""
        return _api_module("linalg_lu").tensor_lu(self, pivot, get_infos)

    def lu_solve(self, LU_data: Any, LU_pivots: Any) -> Any:  # noqa: N803
        """Deprecated: ``torch.linalg.lu_solve(LU_data, LU_pivots, self)``."""
        return _api_module("linalg_lu").torch_lu_solve(self, LU_data, LU_pivots)

    def geqrf(self) -> Any:
        """(a, tau): QR as LAPACK's geqrf stores it."""
        return _api_module("householder").geqrf(self)

    def orgqr(self, input2: Any) -> Any:
        """``torch.linalg.householder_product(self, input2)``."""
        return _api_module("householder").orgqr(self, input2)

    (ormqr,) = _methods("householder", "ormqr")  # (walkh)

    # --- walke
    cov, corrcoef = _methods("correlation", "cov corrcoef")
    (renorm,) = _methods("renorm", "renorm", method_keywords)
    renorm_ = Method(
        "microtorch.api.renorm:renorm_",
        lambda fn: method_of(
            parsed("renorm_", "Tensor input, Number p, int dim, Number maxnorm")(fn)
        ),
    )
    (nanmedian,) = _methods("nanmedian", "nanmedian", method_keywords)
    # --- walkf
    (prelu,) = _methods("prelu", "prelu")
    (resize_as_,) = _methods("reshape_inplace", "resize_as_")
    multinomial = multinomial_ops.multinomial

    # --- walkg
    index_reduce, index_reduce_ = _methods("index_reduce", "index_reduce index_reduce_", method_of)


_NEW_TENSOR_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than "
    "tensor.new_tensor(sourceTensor)."
)


def _dims(sizes: tuple[Any, ...], size: Any) -> tuple[int, ...]:
    # new_zeros(2, 3), new_zeros((2, 3)) and new_zeros(size=(2, 3)) are one shape
    if size is not None:
        sizes = (size,)
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):  # (a Size is a tuple)
        sizes = tuple(sizes[0])
    expect_ints(sizes, "size")  # (the parser's cue: new_zeros(n / 2))
    return tuple(int(s) for s in sizes)


def _index_put(a: Any, index: Any, value: Any) -> Tensor:
    return indexing.index_put(a, index, value)


def _matrices_only(t: Any, name: str, deprecated: str = "", stacklevel: int = 3) -> None:
    # PyTorch's error for x.mT of a 1-d tensor; a 0-d one is its own transpose (deprecated).
    if t._data.ndim == 1:
        raise RuntimeError(
            f"tensor.{name} is only supported on matrices or batches of matrices. Got 1-D "
            "tensor. (Fix: a 1-d tensor has nothing to transpose; x.unsqueeze(0) is a row)"
        )
    text = f"Tensor.{name} is deprecated on 0-D tensors. This function is the identity in these "
    if deprecated:  # adjoint() and H say so in other words
        text = f"{deprecated} is deprecated on 0-D tensors. Consider using x.conj()."
    warn(text if deprecated else text + "cases.")


def _matrix_only(t: Any, name: str, deprecated: str) -> None:
    # x.H: 2-d only (mH for batches); a 0-d tensor is its own transpose (deprecated)
    if t._data.ndim != 0:
        hint = " For batches of matrices, consider using tensor.mH" if t._data.ndim > 2 else ""
        raise RuntimeError(
            f"{name} is only supported on matrices (2-D tensors). Got {t._data.ndim}-D "
            f"tensor.{hint}"
        )
    _matrices_only(t, name, deprecated=deprecated, stacklevel=5)


def _polygamma_of(a: Any, n: Any) -> Tensor:
    return _api_module("gamma").polygamma(n, a)


_REMOVED = "This function was deprecated since version 1.9 and is now removed. "
_REMOVED_EIG = (
    "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than "
    "real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\n"
    "L_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) "
    "should be replaced with:\nL_complex, V_complex = torch.linalg.eig(A)"
)
_REMOVED_SYMEIG = (
    "The default behavior has changed from using the upper triangular portion of the matrix "
    "by default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) "
    "should be replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\n"
    "and\n\nL, V = torch.symeig(A, eigenvectors=True) should be replaced with:\n"
    "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"
)
_REMOVED_LSTSQ = (
    "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has "
    "reversed arguments and does not return the QR decomposition in the returned tuple "
    "(although it returns other information about the problem).\n\nX, _ = torch.lstsq(B, A)"
    ".solution[:A.size(1)]\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution"
)
_REMOVED_SOLVE = (
    "`torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has "
    "its arguments reversed and does not return the LU factorization.\n\nX = torch.solve(B, "
    "A).solution should be replaced with:\nX = torch.linalg.solve(A, B)"
)


def _linalg_triangular() -> Any:
    return _api_module("linalg_triangular")


def _api_module(name: str) -> Any:
    # microtorch/api/<name>.py, imported on first use (import microtorch stays fast)
    return importlib.import_module(f"microtorch.api.{name}")

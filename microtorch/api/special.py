"""erf, erfc, erfinv, lerp, addcmul and addcdiv.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas in
``microtorch/ops/special.py``. Integer and bool tensors give float32 results in erf, erfc and
erfinv; lerp takes floating-point tensors of one dtype; addcmul and addcdiv promote their
three tensors as ``+`` and ``*`` do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand
from microtorch.api.unary import _float
from microtorch.dtypes import result_type
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.special import Addcdiv, Addcmul, Erf, Erfc, Erfinv, LerpScalar, LerpTensor

__all__ = ["erf", "erfc", "erfinv", "lerp", "addcmul", "addcdiv"]

_TYPE_NAMES = {  # (the C++ names PyTorch's dtype errors use)
    "float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
    "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
}  # fmt: skip


@torch_keywords("input", out=True)
def erf(a: Any) -> Any:
    """The error function, 2/sqrt(pi) * the integral of exp(-t**2) from 0 to a."""
    return Erf.apply(_float(a, "erf"))


@torch_keywords("input", out=True)
def erfc(a: Any) -> Any:
    """1 - erf(a), keeping its digits where erf(a) is close to 1."""
    return Erfc.apply(_float(a, "erfc"))


@torch_keywords("input", out=True)
def erfinv(a: Any) -> Any:
    """The inverse of erf: nan outside [-1, 1], -inf and inf at -1 and 1."""
    return Erfinv.apply(_float(a, "erfinv"))


def _broadcast_check(*tensors: Any) -> None:
    shape: tuple[int, ...] = ()
    for t in tensors:
        try:
            shape = np.broadcast_shapes(shape, t._data.shape)
        except ValueError:
            raise broadcast_error(shape, t._data.shape) from None


@parsed(
    "lerp",
    "Tensor input, Tensor end, Tensor weight, *, Tensor out=None",
    "Tensor input, Tensor end, Number weight, *, Tensor out=None",
)
@torch_keywords("input", "end", "weight", out=True)
def lerp(a: Any, end: Any, weight: Any) -> Any:
    """a + weight * (end - a): the straight line from a (weight 0) to end (weight 1)."""
    expect_tensor(a, "lerp")
    expect_tensor(end, "lerp", "end", 2)
    if end._dtype is not a._dtype:
        raise RuntimeError(
            f"expected dtype {_name(a._dtype)} for `end` but got dtype {_name(end._dtype)}"
        )
    weighted = isinstance(weight, type(a))
    if weighted and weight._dtype is not a._dtype:
        raise RuntimeError(
            f"expected dtype {_name(a._dtype)} for `weight` but got dtype {_name(weight._dtype)}"
        )
    if not a._dtype.is_floating_point:
        kernel = "lerp_kernel_tensor" if weighted else "lerp_kernel_scalar"
        raise NotImplementedError(f'"{kernel}" not implemented for {_torch_name(a._dtype)}')
    if not weighted:
        if type(weight) not in (int, float, bool):
            expect_tensor(weight, "lerp", "weight", 3)
        _broadcast_check(a, end)
        return LerpScalar.apply(a, end, float(weight))
    _broadcast_check(a, end, weight)
    return LerpTensor.apply(a, end, weight)


def _name(d: Any) -> str:
    return _TYPE_NAMES.get(d.name, d.name)


def _torch_name(d: Any) -> str:
    names = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte"}
    return "'" + names.get(d.name, "Bool") + "'"


def _three(op: str, a: Any, t1: Any, t2: Any) -> tuple[Any, Any, Any]:
    # the three tensors in their common dtype, after PyTorch's checks
    expect_tensor(a, op)
    expect_tensor(t1, op, "tensor1", 2)
    expect_tensor(t2, op, "tensor2", 3)
    _broadcast_check(a, t1, t2)
    target = result_type(a, t1, t2)
    return (
        as_operand(a, target),
        as_operand(t1, target),
        as_operand(t2, target),
    )


def _value(value: Any, like: Any) -> Any:
    # value in the result's kind: a whole number for integer tensors, as PyTorch casts it
    if like._dtype.is_floating_point:
        return float(value)
    return int(value)


@torch_keywords("input", "tensor1", "tensor2", out=True)
def addcmul(a: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """a + value * tensor1 * tensor2, broadcasting (the update of Adam's second moment)."""
    a, t1, t2 = _three("addcmul", a, tensor1, tensor2)
    return Addcmul.apply(a, t1, t2, _value(value, a))


@torch_keywords("input", "tensor1", "tensor2", out=True)
def addcdiv(a: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """a + value * tensor1 / tensor2, broadcasting (Adam's step: p - lr * m / (sqrt(v) + eps))."""
    expect_tensor(a, "addcdiv")
    expect_tensor(tensor1, "addcdiv", "tensor1", 2)
    expect_tensor(tensor2, "addcdiv", "tensor2", 3)
    if not (tensor1._dtype.is_floating_point or tensor2._dtype.is_floating_point):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
            "for float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes."
        )
    a, t1, t2 = _three("addcdiv", a, tensor1, tensor2)
    return Addcdiv.apply(a, t1, t2, _value(value, a))

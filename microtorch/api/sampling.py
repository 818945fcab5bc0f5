"""torch.normal (its four forms), torch.bernoulli, and the in-place x.normal_(),
x.bernoulli_(): random numbers from the global generator (or ``generator=``).

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/sampling.py``. The numbers follow microtorch's generator, not PyTorch's:
``manual_seed(0)`` repeats microtorch's draws, but they are not PyTorch's draws.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import random_fill
from microtorch.api.inplace import apply_inplace
from microtorch.api.operands import wrap
from microtorch.api.random_fill import refill
from microtorch.api.shape import expand
from microtorch.api.tensor_options import tensor_options
from microtorch.autograd import node as _node
from microtorch.dtypes import get_default_dtype
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.sampling import (
    Bernoulli,
    BernoulliFill,
    BernoulliTensorFill,
    NormalFill,
    NormalNumberTensor,
    NormalTensorNumber,
    NormalTensorTensor,
)

__all__ = ["normal", "bernoulli", "normal_", "bernoulli_"]

_NORMAL_FORMS = (
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, "
    "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device "
    "device = None, bool pin_memory = False, bool requires_grad = False)\n"
)
_NUMBER = (int, float)


def _rng(generator: Any) -> np.random.Generator:
    return (generator or random_fill._default[0])._rng


def _kind(value: Any) -> str:
    return "Tensor" if isinstance(value, _node.Tensor) else type(value).__name__


def _floats(t: Any) -> None:
    if not t._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"normal_kernel_cpu\" not implemented for '{_C_NAMES.get(t._dtype.name, 'Bool')}'"
        )


_C_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte"}


def _check_std(std: Any) -> None:
    if isinstance(std, _node.Tensor):
        if std._data.size and (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


@tensor_options()
def normal(
    mean: Any,
    std: Any = 1.0,
    size: Any = None,
    *,
    generator: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Any:
    """Normal random numbers: ``normal(mean, std)`` with a tensor for either (one number per
    element, broadcasting), or ``normal(mean, std, size)`` with two numbers."""
    m_tensor, s_tensor = isinstance(mean, _node.Tensor), isinstance(std, _node.Tensor)
    if m_tensor and (s_tensor or type(std) in _NUMBER) and size is None:
        _floats(mean)
        _check_std(std)
        if s_tensor:
            try:
                shape = np.broadcast_shapes(mean._data.shape, std._data.shape)
            except ValueError:
                raise broadcast_error(mean._data.shape, std._data.shape) from None
            noise = _rng(generator).standard_normal(shape)
            return NormalTensorTensor.apply(mean, std.to(mean._dtype), noise)
        noise = _rng(generator).standard_normal(mean._data.shape)
        return NormalTensorNumber.apply(mean, float(std), noise)
    if type(mean) in _NUMBER and s_tensor and size is None:
        _floats(std)
        _check_std(std)
        noise = _rng(generator).standard_normal(std._data.shape)
        return NormalNumberTensor.apply(std, float(mean), noise)
    if type(mean) in _NUMBER and type(std) in _NUMBER and isinstance(size, (tuple, list)):
        target = dtype or get_default_dtype()
        if not target.is_floating_point:
            raise NotImplementedError(
                f"\"normal_kernel_cpu\" not implemented for '{_C_NAMES.get(target.name, 'Bool')}'"
            )
        _check_std(std)
        values = _rng(generator).normal(mean, std, tuple(size)).astype(target.numpy)
        return wrap(values, device).requires_grad_(requires_grad)
    got = ", ".join(_kind(v) for v in (mean, std, size)[: 2 + (size is not None)])
    raise TypeError(
        f"normal() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{_NORMAL_FORMS}"
    )


def bernoulli(input: Any, p: float | None = None, *, generator: Any = None) -> Any:  # noqa: A002
    """0 or 1 for each element: 1 with probability ``input`` (its values in [0, 1]), or with
    probability ``p`` for all of them."""
    if not isinstance(input, _node.Tensor):
        raise TypeError(
            f"bernoulli(): argument 'input' (position 1) must be Tensor, not {_kind(input)}"
        )
    if p is not None:
        _check_p(p)
        draws = _rng(generator).random(input._data.shape) < p
        return wrap(draws.astype(input._data.dtype), input._device)
    _floats_p(input, "bernoulli_tensor_cpu_p_")
    if input._data.size and ((input._data < 0) | (input._data > 1)).any():
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)"
        )
    return Bernoulli.apply(input, _rng(generator).random(input._data.shape))


def _check_p(p: float) -> None:
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")


def _floats_p(t: Any, kernel: str) -> None:
    if not t._dtype.is_floating_point:
        name = _C_NAMES.get(t._dtype.name, "Bool")
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


def normal_(self: Any, mean: float = 0.0, std: float = 1.0, *, generator: Any = None) -> Any:
    """Fill ``self`` with normal random numbers; returns ``self``."""
    _floats(self)
    _check_std(std)
    values = _rng(generator).normal(mean, std, self._data.shape)
    return apply_inplace(self, "normal_", refill, values, NormalFill)


def bernoulli_(self: Any, p: Any = 0.5, *, generator: Any = None) -> Any:
    """Fill ``self`` with 0s and 1s, 1 with probability ``p`` (a number, or a tensor that
    broadcasts to ``self``); returns ``self``."""
    if isinstance(p, _node.Tensor):
        _floats_p(p, "bernoulli_tensor_cpu_p_")
        probs = expand(p.detach(), *self._data.shape)._data
        values = _rng(generator).random(self._data.shape) < probs
        return apply_inplace(self, "bernoulli_", _refill_with_p, p, values)
    _check_p(p)
    values = _rng(generator).random(self._data.shape) < p
    return apply_inplace(self, "bernoulli_", refill, values, BernoulliFill)


def _refill_with_p(a: Any, p: Any, values: np.ndarray) -> Any:
    return BernoulliTensorFill.apply(a, p, values)

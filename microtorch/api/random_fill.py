"""Fill a tensor in place with random numbers from the global generator: ``x.random_()``,
``x.uniform_(from, to)``, ``exponential_``, ``geometric_``, ``cauchy_``, ``log_normal_``.

A fill of a tensor that is part of a graph records a node whose gradient is 0, as PyTorch's
(``UniformBackward0`` ...): the tensor's old values no longer count. The numbers come from
numpy's generator, so they are not PyTorch's (see the README).

``x.random_(to)`` draws from ``[0, to)``, ``x.random_(from, to)`` from ``[from, to)``, and
``x.random_()`` from ``[0, 2**24]`` for float32 (every whole number float32 holds exactly;
``2**53`` for float64, ``2**11`` for float16) or ``[0, max]`` for an integer dtype. The
generator lives in ``creation.py``, which is imported after this module and hands it over with
``use_default_generator`` (so the api layer does not import upwards).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api.inplace import apply_inplace
from microtorch.autograd import node as _node
from microtorch.ops.sampling import (
    CauchyFill,
    ExponentialFill,
    GeometricFill,
    LogNormalFill,
    RandomFill,
    RandomFromToFill,
    RandomToFill,
    UniformFill,
)

__all__ = [
    "random_", "uniform_", "exponential_", "geometric_", "cauchy_", "log_normal_", "refill",
    "use_default_generator",
]  # fmt: skip

_default: list[Any] = []  # [the global Generator], set by creation.py
_WHOLE_FLOATS = {"float16": 2**11, "float32": 2**24, "float64": 2**53}
_C_TYPES = {"uint8": "unsigned char", "int8": "signed char", "int16": "short", "int32": "int"}
_C_TYPES |= {"int64": "long", "bool": "bool"}


def use_default_generator(generator: Any) -> None:
    """Called once by creation.py: the generator ``random_`` draws from by default."""
    _default[:] = [generator]


def random_(self: Any, *args: Any, to: Any = None, generator: Any = None) -> Any:
    """Fill ``self`` with random whole numbers (from 0, or ``args[0]``, to below ``to``);
    returns ``self``."""
    if to is not None:  # x.random_(to=5), x.random_(2, to=5)
        args = (*args, to)
    if len(args) > 2 or not all(type(a) is int for a in args):
        got = ", ".join(type(a).__name__ for a in args)
        raise TypeError(
            f"random_() received an invalid combination of arguments - got ({got}), but "
            "expected one of:\n * (*, torch.Generator generator = None)\n * (int from, int to, "
            "*, torch.Generator generator = None)\n * (int to, *, torch.Generator generator = "
            "None)\n"
        )
    name = self._dtype.name
    if not args:  # (top included)
        top = 1 if name == "bool" else _WHOLE_FLOATS.get(name) or int(np.iinfo(name).max)
        low, high = 0, top + 1
    else:
        low, high = (0, args[0]) if len(args) == 1 else args
        if low >= high:
            raise RuntimeError(
                f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )
        _check_bounds(name, low, high)
    values = _rng(generator).integers(low, high - 1, self._data.shape, np.int64, endpoint=True)
    kind = (RandomFill, RandomToFill, RandomFromToFill)[len(args)]
    return apply_inplace(self, "random_", refill, values, kind)


def refill(a: Any, values: np.ndarray, kind: Any) -> Any:
    """``values`` in place of ``a``'s: in a graph, a ``kind`` node whose gradient is 0."""
    return kind.apply(a, values)


def generator_rng(generator: Any) -> np.random.Generator:
    """The numpy generator behind ``generator`` (the default generator for None)."""
    return (generator or _default[0])._rng


_rng = generator_rng


def _check_bounds(name: str, low: int, high: int) -> None:
    if name.startswith("float"):
        return
    info = np.iinfo(np.int64) if name == "bool" else np.iinfo(np.dtype(name))
    top = 1 if name == "bool" else int(info.max)
    if not (0 if name == "bool" else int(info.min)) <= low <= top:
        raise RuntimeError(f"from is out of bounds for {_C_TYPES[name]}")
    if high - 1 > top:
        raise RuntimeError(f"to - 1 is out of bounds for {_C_TYPES[name]}")


def uniform_(self: Any, *args: Any, generator: Any = None, **bounds: Any) -> Any:
    """Fill ``self`` with numbers drawn evenly from [from, to) (default [0, 1)); returns it."""
    given = dict(zip(("from", "to"), args))
    for name, value in bounds.items():
        if name not in ("from", "to") or name in given:
            raise TypeError(f"uniform_() got an unexpected keyword argument '{name}'")
        given[name] = value
    low = _number(given.get("from", 0.0), "uniform_", "from", 1)
    high = _number(given.get("to", 1.0), "uniform_", "to", 2)
    _continuous(self, "check_uniform_bounds", None)
    top = float(np.finfo(self._data.dtype).max)
    for name, value in (("from", low), ("to", high)):
        if not -top <= value <= top:
            raise RuntimeError(f"{name} is out of bounds for {_C_FLOATS[self._dtype.name]}")
    if low > high:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={low:g} > to={high:g}"
        )
    values = _rng(generator).uniform(low, high, self._data.shape)
    return apply_inplace(self, "uniform_", refill, values, UniformFill)


def exponential_(self: Any, lambd: Any = 1.0, *, generator: Any = None) -> Any:
    """Fill ``self`` with exponential random numbers of rate ``lambd`` (mean 1 / lambd)."""
    lambd = _number(lambd, "exponential_", "lambd", 1)
    _continuous(self, None, "Exponential")
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    values = _rng(generator).exponential(1 / lambd, self._data.shape)
    return apply_inplace(self, "exponential_", refill, values, ExponentialFill)


def geometric_(self: Any, *args: Any, generator: Any = None, **kwargs: Any) -> Any:
    """Fill ``self`` with the number of trials up to a first success of probability ``p``."""
    if not args and "p" not in kwargs:
        raise TypeError('geometric_() missing 1 required positional arguments: "p"')
    p = _number(args[0] if args else kwargs.pop("p"), "geometric_", "p", 1)
    for name in kwargs:
        raise TypeError(f"geometric_() got an unexpected keyword argument '{name}'")
    if self._dtype.name == "bool":
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    values = _rng(generator).geometric(p, self._data.shape)
    return apply_inplace(self, "geometric_", refill, values, GeometricFill)


def cauchy_(self: Any, median: Any = 0.0, sigma: Any = 1.0, *, generator: Any = None) -> Any:
    """Fill ``self`` with Cauchy random numbers around ``median``, of scale ``sigma``."""
    median = _number(median, "cauchy_", "median", 1)
    sigma = _number(sigma, "cauchy_", "sigma", 2)
    _continuous(self, None, "Cauchy")
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    values = median + sigma * _rng(generator).standard_cauchy(self._data.shape)
    return apply_inplace(self, "cauchy_", refill, values, CauchyFill)


def log_normal_(self: Any, mean: Any = 1.0, std: Any = 2.0, *, generator: Any = None) -> Any:
    """Fill ``self`` with exp(normal(mean, std)) random numbers."""
    mean = _number(mean, "log_normal_", "mean", 1)
    std = _number(std, "log_normal_", "std", 2)
    _continuous(self, "log_normal_cpu", None)
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    values = _rng(generator).lognormal(mean, std, self._data.shape)
    return apply_inplace(self, "log_normal_", refill, values, LogNormalFill)


_C_FLOATS = {"float16": "c10::Half", "float32": "float", "float64": "double"}
_KERNEL_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char"}
_KERNEL_NAMES |= {"uint8": "Byte", "bool": "Bool"}
_LONG_C_TYPES = {"int64": "long int", "int32": "int", "int16": "short int"}
_LONG_C_TYPES |= {"int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _number(value: Any, op: str, name: str, position: int) -> float:
    # PyTorch's parser: a float argument takes a Python number (or a 0-d tensor's value)
    if isinstance(value, _node.Tensor) and value._data.ndim == 0:
        return float(value._data)
    if type(value) not in (int, float, bool) and not isinstance(value, np.number):
        kind = "Tensor" if isinstance(value, _node.Tensor) else type(value).__name__
        raise TypeError(
            f"{op}(): argument '{name}' (position {position}) must be float, not {kind}"
        )
    return float(value)


def _continuous(t: Any, kernel: str | None, distribution: str | None) -> None:
    # PyTorch's errors for a continuous distribution drawn into an integer or bool tensor:
    # a kernel that is "not implemented", or a sentence naming the distribution
    if t._dtype.is_floating_point:
        return
    name = t._dtype.name
    if kernel is not None:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_KERNEL_NAMES[name]}'")
    kind = _KERNEL_NAMES[name] if distribution == "Exponential" else _LONG_C_TYPES[name]
    raise RuntimeError(
        f"{distribution} distribution is a continuous probability distribution. dtype must be "
        f"a floating point but you specified {kind}"
    )

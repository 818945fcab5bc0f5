"""``x.random_()``: fill a tensor in place with random whole numbers from the global generator.

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
from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node

__all__ = ["random_", "use_default_generator"]

_default: list[Any] = []  # [the global Generator], set by creation.py
_WHOLE_FLOATS = {"float16": 2**11, "float32": 2**24, "float64": 2**53}
_C_TYPES = {"uint8": "unsigned char", "int8": "signed char", "int16": "short", "int32": "int"}
_C_TYPES |= {"int64": "long", "bool": "bool"}


def use_default_generator(generator: Any) -> None:
    """Called once by creation.py: the generator ``random_`` draws from by default."""
    _default[:] = [generator]


def random_(self: Any, *args: Any, generator: Any = None) -> Any:
    """Fill ``self`` with random whole numbers; returns ``self``."""
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
    if grad_mode.state.grad_enabled and self.requires_grad and self.grad_fn is not None:
        raise NotImplementedError(
            "microtorch does not record random_ in the graph (Fix: draw the numbers first, "
            "e.g. x = torch.randint(low, high, x.shape).to(x.dtype))"
        )
    rng = (generator or _default[0])._rng
    return apply_inplace(self, "random_", _draw, rng, low, high)


def _draw(a: Any, rng: np.random.Generator, low: int, high: int) -> Any:
    values = rng.integers(low, high - 1, size=a._data.shape, dtype=np.int64, endpoint=True)
    return _node.plain_tensor(values.astype(a._data.dtype), a._device)


def _check_bounds(name: str, low: int, high: int) -> None:
    if name.startswith("float"):
        return
    info = np.iinfo(np.int64) if name == "bool" else np.iinfo(np.dtype(name))
    top = 1 if name == "bool" else int(info.max)
    if not (0 if name == "bool" else int(info.min)) <= low <= top:
        raise RuntimeError(f"from is out of bounds for {_C_TYPES[name]}")
    if high - 1 > top:
        raise RuntimeError(f"to - 1 is out of bounds for {_C_TYPES[name]}")

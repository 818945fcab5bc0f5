"""scalar_tensor (a 0-d tensor from a number) and can_cast (PyTorch's casting rule)."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_number
from microtorch.api.operands import wrap
from microtorch.device import as_device
from microtorch.dtypes import dtype as _dtype
from microtorch.dtypes import get_default_dtype

__all__ = ["can_cast", "scalar_tensor"]


def scalar_tensor(
    s: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
    pin_memory: Any = None, requires_grad: bool = False,
) -> Any:  # fmt: skip
    """A 0-d tensor holding the number s, in the default float dtype unless ``dtype``."""
    if not (getattr(s, "ndim", None) == 0 and hasattr(s, "item")):  # (a 0-d tensor is a number)
        expect_number(s, "scalar_tensor", "s", 1)
    target = get_default_dtype() if dtype is None else dtype
    value = s.item() if hasattr(s, "item") else s
    t = wrap(np.asarray(value, dtype=target.numpy), as_device(device or "cpu"))
    return t.requires_grad_(requires_grad) if requires_grad else t


def _rank(d: Any) -> int:
    return 0 if d.name == "bool" else 2 if d.is_floating_point else 1


def can_cast(from_: Any, to: Any) -> bool:
    """Whether PyTorch's type promotion lets a ``from_`` value be written into ``to``: not a
    float into an integer type, nor a number into bool."""
    for value, name, position in ((from_, "from_", 1), (to, "to", 2)):
        if not isinstance(value, _dtype):
            raise TypeError(
                f"can_cast(): argument '{name}' (position {position}) must be torch.dtype, "
                f"not {type(value).__name__}"
            )
    return _rank(from_) <= _rank(to)

"""scalar_tensor (a 0-d tensor from a number), can_cast (PyTorch's casting rule) and
torch.result_type (its promotion rule, dtypes.py's, by PyTorch's keyword names too)."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_number
from microtorch.api.operands import wrap
from microtorch.device import as_device
from microtorch.dtypes import dtype as _dtype
from microtorch.dtypes import get_default_dtype
from microtorch.dtypes import result_type as promoted

__all__ = ["can_cast", "result_type", "scalar_tensor"]


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


# PyTorch's names for the two operands in its four signatures (tensor, other; scalar, tensor;
# scalar1, scalar2)
_OPERAND_NAMES = ("tensor", "other", "scalar", "scalar1", "scalar2")


def result_type(*operands: Any, **named: Any) -> Any:
    """The dtype an element-wise op of the operands gives (``torch.result_type(x, 2.5)``,
    ``torch.result_type(tensor=x, other=y)``)."""
    for name in named:
        if name not in _OPERAND_NAMES:
            raise TypeError(f"result_type() got an unexpected keyword argument '{name}'")
    return promoted(*operands, *named.values())

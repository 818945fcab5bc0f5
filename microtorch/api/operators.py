"""Binary operators that give way to Python for operands they do not take.

``x // "a"`` should fail as PyTorch's does, with Python's own ``TypeError: unsupported operand
type(s) for //: 'Tensor' and 'str'``: the operator returns ``NotImplemented`` and Python
raises. (The functions, ``torch.floor_divide(x, "a")``, raise their own errors.)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch.autograd import node as _node

__all__ = ["operator"]

_OPERANDS = (int, float, np.number, np.bool_)  # (bool is an int)


def operator(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``fn`` as a binary operator: ``NotImplemented`` for operands that are not numbers or
    tensors, so Python raises its ``unsupported operand type(s)`` error."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        if not isinstance(other, (_node.Tensor, *_OPERANDS)):
            return NotImplemented
        return fn(self, other)

    return binary_operator

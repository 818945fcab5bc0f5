"""Binary operators that give way to Python for operands they do not take.

``x + "a"`` fails as PyTorch's does, with Python's own ``TypeError: unsupported operand type(s)
for +: 'Tensor' and 'str'`` (and ``x > None`` with ``'>' not supported between instances``):
the operator returns ``NotImplemented`` and Python raises, or tries the other operand
(``x == None`` is then ``False``, Python's identity test). The functions, ``torch.add(x, "a")``,
raise PyTorch's argument-parser errors instead (api/binary_signatures.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch.autograd import node as _node

__all__ = ["operator", "arithmetic_operator", "matrix_operator"]

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


def arithmetic_operator(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``operator(fn)`` for ``+ - * / **`` and the comparisons, which also take a numpy array
    (the op then says what to do with it)."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        if isinstance(other, (_node.Tensor, *_OPERANDS, np.ndarray)):
            return fn(self, other)
        return NotImplemented

    return binary_operator


def matrix_operator(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``operator(fn)`` for ``@``, which takes tensors (and numpy arrays) only: ``x @ 2.0`` is
    Python's TypeError, as in PyTorch."""

    @functools.wraps(fn)
    def binary_operator(self: Any, other: Any) -> Any:
        if isinstance(other, (_node.Tensor, np.ndarray)):
            return fn(self, other)
        return NotImplemented

    return binary_operator

"""``Variable``: the wrapper old PyTorch code uses; today every tensor is one.

Since PyTorch 0.4 tensors carry ``requires_grad`` themselves. ``Variable(t)`` still works and
gives a new tensor sharing ``t``'s memory, cut out of the graph (a leaf), with the
``requires_grad`` asked for; ``isinstance(t, Variable)`` is True for every tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.autograd import node as _node

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, _node.Tensor)  # every tensor is a Variable


class Variable(metaclass=_VariableMeta):
    """``Variable(t, requires_grad=False)``: ``t``'s values as a new leaf tensor."""

    def __new__(  # returns a Tensor, as PyTorch's does
        cls, data: Any = None, requires_grad: bool = False, volatile: Any = None
    ) -> Any:
        if volatile is not None:
            warn(
                "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
            )
        if data is None:
            return _node.plain_tensor(np.zeros(0, np.float32))
        if not isinstance(data, _node.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()  # the same memory, no grad_fn
        if requires_grad:
            out._set_requires_grad(True, "Only Tensors of floating point and complex dtype")
        return out

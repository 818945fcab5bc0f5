"""``Parameter``: a tensor that a ``Module`` registers as learnable when assigned to it."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from microtorch.tensor import Tensor, plain_tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A leaf tensor with ``requires_grad=True`` that ``Module.parameters()`` finds.

    It shares memory (and the in-place version counter) with the tensor it wraps, as in
    PyTorch. Results of operations on it are plain ``Tensor``s.

    >>> import microtorch as torch
    >>> torch.nn.Parameter(torch.ones(2))
    Parameter containing:
    tensor([1., 1.], requires_grad=True)
    """

    __slots__ = ()

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            data = plain_tensor(np.zeros(0, np.float32))
        if not isinstance(data, Tensor):
            raise TypeError(
                f"Parameter expects a Tensor as data, but got {type(data).__name__} "
                "(Fix: wrap it first, e.g. nn.Parameter(torch.tensor(values)))"
            )
        p = cast(Parameter, plain_tensor(data._data, data._device, kind=cls))
        if requires_grad:
            p._set_requires_grad(True, "Only Tensors of floating point and complex dtype")
        return p

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        # copy.deepcopy(model): a new Parameter with its own memory, same requires_grad.
        out = Parameter(plain_tensor(self._data.copy(), self._device), self._rg)
        if self._grad is not None:
            out._grad = plain_tensor(self._grad._data.copy(), self._device)
        memo[id(self)] = out
        return out

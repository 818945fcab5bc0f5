"""Tiny duck-typed stand-ins for tensors and autograd nodes, for graphs no library makes easily.

They have exactly what ``microtorch.viz`` reads: ``grad_fn``, ``requires_grad``, ``shape``,
``dtype``, ``grad``, ``detach().numpy()``, and nodes with ``name()``, ``next_functions`` and
optionally ``_scope`` and ``variable``.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class FakeTensor:
    def __init__(self, shape: tuple[int, ...] = (2,), grad_fn: Any = None) -> None:
        self.shape, self.grad_fn, self.grad = shape, grad_fn, None
        self.requires_grad, self.dtype = True, "fake.float32"

    def detach(self) -> FakeTensor:
        return self

    def numpy(self) -> np.ndarray:
        return np.zeros(self.shape, dtype=np.float32)


class FakeNode:
    def __init__(self, name: str, inputs: tuple[Any, ...] = (), scope: str | None = None) -> None:
        self._name, self._scope = name, scope
        self.next_functions = tuple((node, 0) for node in inputs)

    def name(self) -> str:
        return self._name


class FakeAccumulate(FakeNode):
    def __init__(self, variable: FakeTensor) -> None:
        super().__init__("torch::autograd::AccumulateGrad")
        self.variable = variable


def leaf(shape: tuple[int, ...] = (2,)) -> tuple[FakeTensor, FakeAccumulate]:
    tensor = FakeTensor(shape)
    return tensor, FakeAccumulate(tensor)


def chain(length: int) -> tuple[FakeTensor, FakeTensor]:
    """``(x, y)`` where y = f(f(...f(x))) through ``length`` nodes, built without recursion."""
    x, node = leaf()
    for _ in range(length):
        node = FakeNode("MulBackward0", (node,))
    return x, FakeTensor(grad_fn=node)

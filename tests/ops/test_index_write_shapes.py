"""``t[k] = v`` where v's shape is not the slot's: PyTorch views v without its leading 1s first
(``t[0] = torch.tensor([5.])`` into a 0-d slot, ``[1, 2]`` into a ``[2]`` row), which records a
``ViewBackward0`` between ``CopySlices`` and v's graph; v with more dimensions than the slot gets
expand's error, in PyTorch's words. Each case runs on torch 2.13 and microtorch: values, the
graph's node names, v's gradient and the error class and first line."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch

# (target shape, key, value shape, value dtype)
CASES = [
    ((3,), 0, (1,), "float32"),
    ((3,), 1, (1, 1), "float32"),
    ((3, 2), 0, (1, 2), "float32"),
    ((3, 2), 0, (2,), "float32"),
    ((3, 2), 0, (1, 1, 2), "float64"),
    ((3, 2, 2), 0, (1, 2), "float32"),
    ((3, 2), (slice(None), 0), (1, 3), "float32"),
    ((3, 2), [0, 2], (1, 2, 2), "float32"),
    ((3,), 0, (2,), "float32"),
    ((3,), 0, (2,), "int64"),
    ((3,), 0, (2,), "bool"),
    ((3, 2), 0, (3, 2), "float32"),
    ((3, 2), 0, (1, 3, 2), "float32"),
    ((3, 2), 0, (3,), "float32"),
    ((3, 2), 0, (), "float32"),
    ((3, 2), slice(0, 2), (2,), "float32"),
    ((3, 2), slice(0, 2), (1,), "float64"),
    ((3, 2), Ellipsis, (1, 2), "float32"),
    ((3, 2), Ellipsis, (2, 2), "float32"),
    ((3, 2), Ellipsis, (1, 3, 2), "float32"),
    ((3, 2), Ellipsis, (1,), "float32"),
    ((3, 2), 0, (2,), "float64"),
    ((3, 2), [0, 1], (2,), "float64"),
    ((3, 2), [0, 1], (1, 2), "float32"),
    ((3, 2), [0, 1], (3,), "float32"),
]


def _names(fn: Any, depth: int = 0) -> list[str]:
    if fn is None or depth > 3:
        return []
    out = [fn.name().replace("torch::autograd::", "")]
    for f, _ in fn.next_functions:
        out += [f"{'  ' * (depth + 1)}{n}" for n in _names(f, depth + 1)]
    return out


def _write(lib: ModuleType, target: tuple, key: Any, shape: tuple, dtype: str) -> Any:
    t = lib.zeros(target)
    value = lib.tensor(np.arange(1, 1 + int(np.prod(shape))).reshape(shape))
    value = value.to(getattr(lib, dtype))
    grad = dtype.startswith("float")
    x = value.clone().requires_grad_(grad) if grad else value
    try:
        t[key] = x * 2 if grad else x
    except Exception as error:
        return ("raises", type(error).__name__, str(error).split(" (Fix")[0])
    names = _names(t.grad_fn) if grad else []
    if grad:
        t.sum().backward()
    grad_of_x = x.grad.tolist() if grad else None
    return t.tolist(), names, grad_of_x


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}[{c[1]}]={c[2]}{c[3]}")
def test_values_of_other_shapes_are_written_as_torch(case: Any, torch_module: ModuleType) -> None:
    theirs, ours = _write(torch_module, *case), _write(microtorch, *case)
    if ours[0] == "raises":
        ours = (*ours[:2], ours[2].replace("microtorch.", "torch."))
    assert ours == theirs

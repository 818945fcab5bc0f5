"""walkc (issue 24): ``nn.Buffer`` against PyTorch 2.13: what it returns, isinstance, and how a
Module registers it (buffers, state_dict, persistent, its place, wrong assignments)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.layer_parity import error_of


def _describe(t: ModuleType) -> dict[str, Any]:
    data = t.ones(2)
    b = t.nn.Buffer(data, persistent=False)
    b.add_(1)  # (shares memory with data)
    m = t.nn.Module()
    m.a = t.nn.Buffer(t.zeros(3))
    m.b = b
    m.register_buffer("c", t.ones(1))
    m.a = t.nn.Buffer(t.ones(2))  # (keeps its place)
    m.c = t.nn.Buffer(t.zeros(1), persistent=False)
    grad = t.nn.Buffer(t.ones(2, requires_grad=True))
    return {
        "type": type(b).__name__, "repr": repr(b), "persistent": b.persistent,
        "is": isinstance(b, t.nn.Buffer), "plain": isinstance(t.ones(1), t.nn.Buffer),
        "data": data.tolist(), "empty": repr(t.nn.Buffer()),
        "state": list(m.state_dict()), "buffers": [n for n, _ in m.named_buffers()],
        "a": m.a.tolist(), "grad": (grad.requires_grad, grad.is_leaf),
        "params": len(list(m.parameters())),
    }  # fmt: skip


def test_buffer_matches_torch(torch_module: ModuleType) -> None:
    assert _describe(microtorch) == _describe(torch_module)


def test_buffer_moves_with_the_module_and_loads(torch_module: ModuleType) -> None:
    m = microtorch.nn.Linear(2, 2)
    m.scale = microtorch.nn.Buffer(microtorch.ones(2))
    m.double()
    assert m.scale.dtype == microtorch.float64
    m.load_state_dict({**m.state_dict(), "scale": microtorch.full((2,), 3.0)})
    np.testing.assert_array_equal(m.scale.numpy(), [3.0, 3.0])


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.nn.Buffer([1.0]),
        lambda t: setattr(_with_linear(t), "l", t.nn.Buffer(t.ones(1))),
        lambda t: setattr(t.nn.Linear(1, 1), "weight", t.nn.Buffer(t.ones(1))),
    ],
)
def test_buffer_errors_match_torch(torch_module: ModuleType, call: Any) -> None:
    theirs = error_of(lambda: call(torch_module))
    assert theirs[0] != "no error"
    mine = error_of(lambda: call(microtorch))
    assert mine[0] == theirs[0] and mine[1].startswith(theirs[1])


def _with_linear(t: ModuleType) -> Any:
    m = t.nn.Module()
    m.l = t.nn.Linear(1, 1)
    return m

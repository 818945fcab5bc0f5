"""nn.utils gradient clipping against PyTorch."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch


def _clip(lib: ModuleType, norm_type: float, max_norm: float) -> tuple[float, list[list[float]]]:
    params = []
    for values, grad in [([3.0, 4.0], [3.0, -4.0]), ([1.0], [12.0]), ([2.0], None)]:
        p = lib.nn.Parameter(lib.tensor(values))
        if grad is not None:
            p.grad = lib.tensor(grad)
        params.append(p)
    total = lib.nn.utils.clip_grad_norm_(params, max_norm, norm_type=norm_type)
    return total.item(), [p.grad.tolist() for p in params[:2]]


@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
@pytest.mark.parametrize("max_norm", [1.0, 100.0])
def test_clip_grad_norm_matches_torch(torch_module: ModuleType, norm_type, max_norm) -> None:
    mine_total, mine = _clip(microtorch, norm_type, max_norm)
    theirs_total, theirs = _clip(torch_module, norm_type, max_norm)
    assert mine_total == pytest.approx(theirs_total, rel=1e-6)
    for m, t in zip(mine, theirs):
        np.testing.assert_allclose(m, t, rtol=1e-6)


def test_clip_grad_norm_value_and_clip_grad_value() -> None:
    p = microtorch.nn.Parameter(microtorch.tensor([3.0, 4.0]))
    p.grad = microtorch.tensor([3.0, 4.0])
    assert microtorch.nn.utils.clip_grad_norm_(p, 1.0).item() == 5.0
    np.testing.assert_allclose(p.grad.tolist(), [0.6, 0.8], rtol=1e-5)
    microtorch.nn.utils.clip_grad_value_([p], 0.7)
    np.testing.assert_allclose(p.grad.tolist(), [0.6, 0.7], rtol=1e-6)
    assert microtorch.nn.utils.clip_grad_norm_([], 1.0).item() == 0.0


def _vectors(lib: ModuleType) -> list[Any]:
    layer = lib.nn.Linear(3, 2)
    with lib.no_grad():
        layer.weight.copy_(lib.arange(6.0).view(2, 3))
        layer.bias.fill_(-1.0)
    v = lib.nn.utils.parameters_to_vector(layer.parameters())
    seen: list[Any] = [v.tolist(), type(v.grad_fn).__name__]
    seen.append([type(n).__name__ for n, _ in v.grad_fn.next_functions])
    lib.nn.utils.vector_to_parameters(lib.arange(8.0) * 2, layer.parameters())
    seen += [p.tolist() for p in layer.parameters()]
    seen.append([p.requires_grad for p in layer.parameters()])
    try:
        lib.nn.utils.vector_to_parameters([1.0], layer.parameters())
    except TypeError as error:
        seen.append(str(error))
    return seen


def test_parameters_to_vector_and_back_match_torch(torch_module: ModuleType) -> None:
    assert _vectors(microtorch) == _vectors(torch_module)

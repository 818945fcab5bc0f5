"""Issue 24 (walkh): torch.nn.SyncBatchNorm against PyTorch 2.13 in one process (no process
group, PyTorch's fallback to plain batch norm): outputs, grad_fn names, gradients, running
statistics over steps (training, eval, momentum None, no running stats), 2-D to 5-D input,
convert_sync_batchnorm, repr and the input errors.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(3)
INPUTS = [RNG.standard_normal(s) for s in [(4, 3), (4, 3, 5), (2, 3, 4, 2), (2, 3, 2, 2, 3)]]
OPTIONS: list[dict[str, Any]] = [
    {}, {"momentum": None}, {"track_running_stats": False}, {"affine": False},
    {"bias": False, "eps": 1e-3}, {"momentum": 0.3},
]  # fmt: skip


def _run(lib: ModuleType, options: dict, x: np.ndarray) -> list:
    m = lib.nn.SyncBatchNorm(3, **options).double()
    seen: list = [repr(m)]
    for step in range(3):
        if step == 2:
            m.eval()
        inp = lib.tensor(x * (step + 1), requires_grad=True)
        y = m(inp)
        y.backward(lib.tensor(np.cos(x)))
        seen += [y.detach().numpy(), type(y.grad_fn).__name__, inp.grad.numpy()]
        seen += [None if b is None else b.numpy().copy() for b in m.buffers()]
        seen += [p.grad.numpy().copy() for p in m.parameters()]
    return seen


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("i", range(len(INPUTS)))
def test_matches_pytorch(options: dict, i: int, torch_module: ModuleType) -> None:
    mine, theirs = _run(microtorch, options, INPUTS[i]), _run(torch_module, options, INPUTS[i])
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        if isinstance(b, np.ndarray):
            assert a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        else:
            assert a == b


def test_convert_sync_batchnorm(torch_module: ModuleType) -> None:
    seen = []
    for lib in (microtorch, torch_module):
        nn = lib.nn
        model = nn.Sequential(
            nn.Linear(2, 3), nn.BatchNorm1d(3, momentum=0.2), nn.Sequential(nn.BatchNorm2d(3))
        )
        model[1].eval()
        converted = nn.SyncBatchNorm.convert_sync_batchnorm(model, process_group="group")
        seen.append([repr(converted), converted[1].weight is model[1].weight,
                     converted[1].running_mean is model[1].running_mean, converted[1].training,
                     converted[2][0].process_group, type(converted[2][0]).__name__])  # fmt: skip
    assert seen[0] == seen[1]


def test_errors_match_pytorch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        m = lib.nn.SyncBatchNorm(3)
        return [lambda: m(lib.ones(3)), lambda: m(lib.ones(2, 0)), lambda: m(lib.ones(2, 4))]

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]


# ruff: noqa: E501 - the case tables: one case per line

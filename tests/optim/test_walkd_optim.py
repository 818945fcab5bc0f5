"""Issue 24 (walkd): torch.optim.ASGD, Rprop, Adafactor and SparseAdam against PyTorch 2.13:
parameters over several steps (float64 exactly, float32 closely), state_dict before and after
steps and its round trip, param groups, reprs and the constructors' errors.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(7)
W0 = RNG.standard_normal((3, 4))
V0 = RNG.standard_normal(4)
GRADS = [(RNG.standard_normal((3, 4)), RNG.standard_normal(4)) for _ in range(6)]

MAKERS: dict[str, Callable[[Any, list], Any]] = {
    "ASGD": lambda o, p: o.ASGD(p),
    "ASGD t0": lambda o, p: o.ASGD(p, lr=0.1, lambd=0.01, alpha=0.5, t0=2, weight_decay=0.1),
    "ASGD maximize": lambda o, p: o.ASGD(p, lr=0.05, t0=0, maximize=True),
    "Rprop": lambda o, p: o.Rprop(p),
    "Rprop etas": lambda o, p: o.Rprop(p, lr=0.1, etas=(0.3, 1.5), step_sizes=(0.01, 0.2)),
    "Rprop maximize": lambda o, p: o.Rprop(p, maximize=True),
    "Adafactor": lambda o, p: o.Adafactor(p),
    "Adafactor options": lambda o, p: o.Adafactor(
        p, lr=0.5, beta2_decay=-0.5, eps=(1e-6, 1e-2), d=1.5, weight_decay=0.1
    ),
    "Adafactor maximize": lambda o, p: o.Adafactor(p, lr=0.1, maximize=True),
    "Adafactor groups": lambda o, p: o.Adafactor([{"params": [p[0]], "lr": 0.2}, {"params": [p[1]]}]),
    "ASGD groups": lambda o, p: o.ASGD([{"params": [p[0]], "lr": 0.2}, {"params": [p[1]], "t0": 1}]),
    "Rprop groups": lambda o, p: o.Rprop([{"params": [p[0]], "lr": 0.2}, {"params": [p[1]]}]),
}  # fmt: skip


def _run(lib: ModuleType, make: Any, dtype: str, steps: int = 6) -> list[Any]:
    dt = getattr(lib, dtype)
    params = [
        lib.tensor(W0, dtype=dt, requires_grad=True),
        lib.tensor(V0, dtype=dt, requires_grad=True),
    ]
    opt = make(lib.optim, params)
    seen: list[Any] = [repr(opt).replace("microtorch", "torch")]
    for i in range(steps):
        for p, g in zip(params, GRADS[i]):
            p.grad = lib.tensor(g, dtype=dt)
        opt.step()
        seen.append([p.detach().numpy().copy() for p in params])
    sd = opt.state_dict()
    seen.append(sd["param_groups"])
    seen.append({i: {k: (str(v.dtype).split(".")[1], np.asarray(v).copy()) for k, v in s.items()}
                 for i, s in sd["state"].items()})  # fmt: skip
    return seen


def _same(mine: Any, theirs: Any, rtol: float) -> None:
    if isinstance(theirs, np.ndarray):
        np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=rtol * 1e-3)
        assert mine.dtype == theirs.dtype
    elif isinstance(theirs, (list, tuple)):
        assert len(mine) == len(theirs)
        for m, t in zip(mine, theirs):
            _same(m, t, rtol)
    elif isinstance(theirs, dict):
        assert mine.keys() == theirs.keys()
        for k in theirs:
            _same(mine[k], theirs[k], rtol)
    else:
        assert mine == theirs


@pytest.mark.parametrize("case", list(MAKERS))
def test_steps_and_state_match_pytorch_float64(case: str, torch_module: ModuleType) -> None:
    _same(
        _run(microtorch, MAKERS[case], "float64"),
        _run(torch_module, MAKERS[case], "float64"),
        1e-13,
    )


@pytest.mark.parametrize("case", list(MAKERS))
def test_steps_match_pytorch_float32(case: str, torch_module: ModuleType) -> None:
    _same(
        _run(microtorch, MAKERS[case], "float32"), _run(torch_module, MAKERS[case], "float32"), 1e-5
    )


@pytest.mark.parametrize("case", ["ASGD t0", "Rprop etas", "Adafactor options"])
def test_state_dict_round_trip_continues_the_same(case: str) -> None:
    lib, make = microtorch, MAKERS[case]
    runs = []
    for reload in (False, True):
        params = [
            lib.tensor(W0, dtype=lib.float32, requires_grad=True),
            lib.tensor(V0, dtype=lib.float32, requires_grad=True),
        ]
        opt = make(lib.optim, params)
        for i in range(6):
            if reload and i == 3:
                saved = opt.state_dict()
                opt = make(lib.optim, params)
                opt.load_state_dict(saved)
            for p, g in zip(params, GRADS[i]):
                p.grad = lib.tensor(g, dtype=lib.float32)
            opt.step()
        runs.append([p.detach().numpy() for p in params])
    for a, b in zip(*runs):
        assert np.array_equal(a, b)


def test_parameters_without_grad_are_skipped(torch_module: ModuleType) -> None:
    for name in ("ASGD", "Rprop", "Adafactor"):
        for lib in (microtorch, torch_module):
            p, q = lib.ones(2, requires_grad=True), lib.ones(2, requires_grad=True)
            opt = getattr(lib.optim, name)([p, q])
            p.grad = lib.tensor([1.0, -1.0])
            opt.step()
            assert q.tolist() == [1.0, 1.0] and len(opt.state) == 1


def test_errors_match_pytorch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        o, p = lib.optim, [lib.zeros(2, requires_grad=True)]
        return [
            lambda: o.ASGD(p, lr=-1.0), lambda: o.ASGD(p, weight_decay=-1),
            lambda: o.Rprop(p, lr=-1.0), lambda: o.Rprop(p, etas=(1.5, 1.2)),
            lambda: o.Rprop(p, etas=(0.5, 0.9)), lambda: o.Adafactor(p, lr=-1.0),
            lambda: o.Adafactor(p, beta2_decay=0.5), lambda: o.Adafactor(p, eps=(-1.0, 1e-3)),
            lambda: o.Adafactor(p, eps=(None, -1.0)), lambda: o.Adafactor(p, d=0.5),
            lambda: o.Adafactor(p, weight_decay=-1.0), lambda: o.SparseAdam(p, lr=0),
            lambda: o.SparseAdam(p, eps=0), lambda: o.SparseAdam(p, betas=(1.0, 0.9)),
            lambda: o.SparseAdam(p, betas=(0.9, 1.0)),
        ]  # fmt: skip

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]


def test_sparse_adam_refuses_dense_gradients_as_pytorch(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        p = lib.ones(2, requires_grad=True)
        opt = lib.optim.SparseAdam([p])
        assert repr(opt).replace("microtorch", "torch") == repr(
            torch_module.optim.SparseAdam([torch_module.ones(2, requires_grad=True)])
        )
        opt.step()  # (no gradient yet: nothing to do)
        p.grad = lib.ones(2)
        with pytest.raises(RuntimeError, match="^SparseAdam does not support dense gradients"):
            opt.step()
        assert p.tolist() == [1.0, 1.0]


# ruff: noqa: E501 - the case tables: one case per line

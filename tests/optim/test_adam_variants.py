"""Adadelta, Adamax, NAdam and RAdam against PyTorch 2.13: the parameters and state after each
of several steps (float64 and float32, two parameter groups, weight decay, maximize,
gradients that skip a step), state_dict before and after a step and through
load_state_dict, reprs, and the constructors' errors."""

from __future__ import annotations

import copy
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

SHAPES = [(3, 4), (4,), (2, 2), ()]
SETTINGS: dict[str, tuple[str, list[dict[str, Any]], dict[str, Any]]] = {
    "adadelta_two_groups": (
        "Adadelta",
        [{"rho": 0.5, "weight_decay": 0.1}, {"maximize": True, "eps": 1e-3}],
        {"lr": 0.5, "foreach": None},
    ),
    "adadelta_defaults": ("Adadelta", [{}, {"lr": 2.0}], {}),
    "adamax_two_groups": (
        "Adamax",
        [{"betas": (0.3, 0.8), "weight_decay": 0.1}, {"maximize": True}],
        {"lr": 0.05},
    ),
    "nadam_two_groups": (
        "NAdam",
        [{"momentum_decay": 0.1, "weight_decay": 0.2}, {"maximize": True, "betas": (0.4, 0.9)}],
        {"lr": 0.05},
    ),
    "nadam_decoupled": (
        "NAdam",
        [{"weight_decay": 0.1}, {"decoupled_weight_decay": False, "weight_decay": 0.05}],
        {"lr": 0.02, "decoupled_weight_decay": True},
    ),
    "radam_two_groups": (
        # rho_t passes 5 at the 6th step (for betas[1] >= 0.9): both branches run
        "RAdam",
        [{"betas": (0.9, 0.9), "weight_decay": 0.1}, {"maximize": True, "betas": (0.3, 0.99)}],
        {"lr": 0.05},
    ),
    "radam_decoupled": (
        "RAdam",
        [{"betas": (0.8, 0.95), "weight_decay": 0.1}, {"betas": (0.9, 0.5)}],
        {"lr": 0.1, "decoupled_weight_decay": True, "weight_decay": 0.3},
    ),
}
STEPS = 12


def _run(lib: ModuleType, name: str, dtype: str) -> list[tuple[list[np.ndarray], list[dict]]]:
    cls, groups, defaults = SETTINGS[name]
    rng = np.random.default_rng(0)
    params = [lib.tensor(rng.standard_normal(s), dtype=getattr(lib, dtype)) for s in SHAPES]
    for p in params:
        p.requires_grad_(True)
    halves = (params[:2], params[2:])
    opt = getattr(lib.optim, cls)(
        [dict(g, params=half) for g, half in zip(groups, halves)], **defaults
    )
    seen = []
    for step in range(STEPS):
        for i, p in enumerate(params):
            g = rng.standard_normal(p.shape) * 10.0 ** rng.uniform(-3, 1)
            skip = (i + step) % 3 == 2  # some parameters miss a step
            p.grad = None if skip else lib.tensor(g, dtype=getattr(lib, dtype))
        opt.step()
        states = [{k: np.asarray(v) for k, v in opt.state[p].items()} for p in params]
        seen.append(([p.detach().numpy().copy() for p in params], states))
    return seen


def _ulps(mine: np.ndarray, theirs: np.ndarray) -> float:
    scale = np.spacing(np.maximum(np.abs(theirs), np.finfo(theirs.dtype).tiny))
    return float((np.abs(mine - theirs) / scale).max()) if theirs.size else 0.0


@pytest.mark.torch
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(SETTINGS))
def test_each_step_matches_torch(torch_module: ModuleType, name: str, dtype: str) -> None:
    for (mine, my_states), (theirs, their_states) in zip(
        _run(microtorch, name, dtype), _run(torch_module, name, dtype)
    ):
        for a, b in zip(mine, theirs):
            assert a.dtype == b.dtype
            if dtype == "float64":
                assert _ulps(a, b) <= 64
            else:
                np.testing.assert_allclose(a, b, rtol=0, atol=2e-6 * np.abs(b).max())
        for a, b in zip(my_states, their_states):
            assert list(a) == list(b)
            for key in b:
                assert a[key].dtype == b[key].dtype, key
                np.testing.assert_allclose(
                    a[key], b[key], rtol=1e-5 if dtype == "float32" else 1e-12
                )


MAKERS = [
    lambda o, p: o.Adadelta(p),
    lambda o, p: o.Adadelta(p, lr=0.5, rho=0.8, weight_decay=0.1),
    lambda o, p: o.Adamax(p),
    lambda o, p: o.Adamax(p, lr=0.1, betas=(0.5, 0.9), foreach=None),
    lambda o, p: o.NAdam(p),
    lambda o, p: o.NAdam(p, momentum_decay=0.01, decoupled_weight_decay=True, weight_decay=0.1),
    lambda o, p: o.RAdam(p),
    lambda o, p: o.RAdam(p, betas=(0.9, 0.3), decoupled_weight_decay=True, weight_decay=0.1),
]


def _summary(lib: ModuleType, make: Any) -> list[Any]:
    p = lib.tensor([1.0, -2.0], requires_grad=True)
    opt = make(lib.optim, [p])
    seen: list[Any] = [repr(opt).replace("microtorch", "torch")]
    for _ in range(2):
        sd = opt.state_dict()
        seen.append(sd["param_groups"])
        seen.append({i: {k: (type(v).__name__, np.asarray(v).tolist()) for k, v in s.items()}
                     for i, s in sd["state"].items()})  # fmt: skip
        p.grad = lib.tensor([0.5, 0.25])
        opt.step()
    # a fresh optimizer loaded with the state continues as the first would
    q = lib.tensor([1.0, -2.0], requires_grad=True)
    with lib.no_grad():
        q.copy_(p)
    again = make(lib.optim, [q])
    again.load_state_dict(copy.deepcopy(opt.state_dict()))  # (PyTorch's shares the tensors)
    for o, t in ((opt, p), (again, q)):
        t.grad = lib.tensor([-0.1, 0.3])
        o.step()
    seen.append((p.tolist(), q.tolist()))
    return seen


@pytest.mark.torch
@pytest.mark.parametrize("index", range(len(MAKERS)))
def test_state_dict_and_repr_match_torch(torch_module: ModuleType, index: int) -> None:
    make = MAKERS[index]
    mine, theirs = _summary(microtorch, make), _summary(torch_module, make)
    assert mine[:-1] == theirs[:-1]
    np.testing.assert_allclose(mine[-1], theirs[-1], rtol=1e-6)
    assert mine[-1][0] == mine[-1][1]  # (the reloaded optimizer takes exactly the same step)


@pytest.mark.torch
def test_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        o, p = lib.optim, [lib.zeros(2, requires_grad=True)]
        return [
            lambda: o.Adadelta(p, lr=-1.0), lambda: o.Adadelta(p, rho=1.5),
            lambda: o.Adadelta(p, eps=-1.0), lambda: o.Adadelta(p, weight_decay=-1),
            lambda: o.Adadelta(p, lr=float("nan")),
            lambda: o.Adamax(p, lr=-0.1), lambda: o.Adamax(p, eps=-1),
            lambda: o.Adamax(p, betas=(1.0, 0.9)), lambda: o.Adamax(p, betas=(0.9, -0.1)),
            lambda: o.Adamax(p, weight_decay=-1),
            lambda: o.NAdam(p, lr=-0.1), lambda: o.NAdam(p, betas=(0.9, 1.0)),
            lambda: o.NAdam(p, momentum_decay=-1), lambda: o.NAdam(p, weight_decay=-0.5),
            lambda: o.RAdam(p, lr=-0.1), lambda: o.RAdam(p, eps=-1e-8),
            lambda: o.RAdam(p, betas=(-0.1, 0.9)), lambda: o.RAdam(p, weight_decay=-1),
            lambda: o.NAdam([], lr=0.1), lambda: o.RAdam(p[0]),
        ]  # fmt: skip

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]


def test_a_closure_is_called_and_its_loss_returned() -> None:
    w = microtorch.tensor([1.0, 2.0], requires_grad=True)
    for cls in (microtorch.optim.Adadelta, microtorch.optim.Adamax, microtorch.optim.NAdam,
                microtorch.optim.RAdam):  # fmt: skip
        opt = cls([w])

        def closure(opt: microtorch.optim.Optimizer = opt) -> microtorch.Tensor:
            opt.zero_grad()
            loss = (w * w).sum()
            loss.backward()
            return loss

        before = w.detach().clone()
        assert opt.step(closure).item() == pytest.approx((before * before).sum().item())
        assert w._version > 0 and not microtorch.equal(w.detach(), before)


def test_minimises_a_quadratic() -> None:
    for make in MAKERS:
        w = microtorch.tensor([3.0, -2.0], requires_grad=True)
        opt = make(microtorch.optim, [w])
        first = None
        for _ in range(200):
            opt.zero_grad()
            loss = ((w - 1.0) ** 2).sum()
            first = first if first is not None else loss.item()
            loss.backward()
            opt.step()
        assert ((w - 1.0) ** 2).sum().item() < first


@pytest.mark.parametrize("name", ["Adadelta", "Adamax", "NAdam", "RAdam"])
def test_inf_and_nan_gradients_raise_no_numpy_warning(name: str) -> None:
    # as PyTorch, the weights turn inf or nan without a word (numpy would warn)
    p = microtorch.tensor([1.0, 2.0, np.inf], requires_grad=True)
    opt = getattr(microtorch.optim, name)([p], weight_decay=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (p * microtorch.tensor([np.inf, np.nan, 0.0])).sum().backward()
        opt.step()
        p.grad.fill_(np.inf)
        opt.step()

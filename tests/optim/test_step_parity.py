"""A few steps of every optimizer setting against PyTorch's: weights and state, value by value.

The settings mix two parameter groups that differ in what they override (``amsgrad``,
``betas``, ``weight_decay``, ``maximize``), gradients that skip a step, and ``betas[0] < 0.5``
(where PyTorch's ``lerp_`` switches formula). Float64 parameters must agree to a few ulps
(PyTorch's vectorised kernels fuse a multiply and an add that numpy rounds twice); a wrong
formula is off by far more.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

SHAPES = [(3, 4), (4,), (2, 2), ()]
SETTINGS: dict[str, tuple[str, list[dict[str, Any]], dict[str, Any]]] = {
    "adam_amsgrad_two_groups": (
        "Adam",
        [{}, {"lr": 0.1, "betas": (0.8, 0.99), "weight_decay": 0.1}],
        {"lr": 0.01, "amsgrad": True, "weight_decay": 0.05},
    ),
    "adamw_amsgrad_two_groups": (
        "AdamW",
        [{"amsgrad": False}, {"lr": 0.3, "eps": 1e-3}],
        {"lr": 0.02, "amsgrad": True},
    ),
    "adam_small_beta1": (
        "Adam",
        [{"betas": (0.3, 0.7)}, {"betas": (0.0, 0.5), "maximize": True}],
        {"lr": 0.1},
    ),
    "adamw_small_beta1_amsgrad": (
        "AdamW",
        [{"betas": (0.4, 0.9), "amsgrad": True}, {"weight_decay": 0.0}],
        {"lr": 0.05, "weight_decay": 0.1},
    ),
    "sgd_two_groups": (
        "SGD",
        [{"momentum": 0.9, "nesterov": True, "weight_decay": 0.01}, {"dampening": 0.3}],
        {"lr": 0.1, "momentum": 0.5},
    ),
    "sgd_maximize_decay": ("SGD", [{"maximize": True}, {}], {"lr": 0.2, "weight_decay": 0.1}),
    "rmsprop_two_groups": (
        "RMSprop",
        [{"momentum": 0.9}, {"centered": True, "alpha": 0.3, "weight_decay": 0.1}],
        {"lr": 0.01},
    ),
    "rmsprop_centered_momentum_maximize": (
        "RMSprop",
        [{"centered": True, "momentum": 0.5, "maximize": True}, {"eps": 1e-3}],
        {"lr": 0.05, "alpha": 0.9},
    ),
    "adagrad_two_groups": (
        "Adagrad",
        [{"lr_decay": 0.1, "weight_decay": 0.2}, {"maximize": True, "eps": 1e-3}],
        {"lr": 0.1, "initial_accumulator_value": 0.5},
    ),
}


def _run(lib: ModuleType, name: str, dtype: str) -> tuple[list[np.ndarray], list[dict]]:
    cls, groups, defaults = SETTINGS[name]
    rng = np.random.default_rng(0)
    params = [lib.tensor(rng.standard_normal(s), dtype=getattr(lib, dtype)) for s in SHAPES]
    for p in params:
        p.requires_grad_(True)
    halves = (params[:2], params[2:])
    opt = getattr(lib.optim, cls)(
        [dict(g, params=half) for g, half in zip(groups, halves)], **defaults
    )
    for step in range(4):
        for i, p in enumerate(params):
            g = rng.standard_normal(p.shape) * 10.0 ** rng.uniform(-3, 1)
            skip = (i + step) % 3 == 2  # some parameters miss a step
            p.grad = None if skip else lib.tensor(g, dtype=getattr(lib, dtype))
        opt.step()
    states = [
        {k: np.asarray(v.numpy() if hasattr(v, "numpy") else v) for k, v in opt.state[p].items()}
        for p in params
    ]
    return [p.detach().numpy() for p in params], states


def _ulps(mine: np.ndarray, theirs: np.ndarray) -> float:
    scale = np.spacing(np.maximum(np.abs(theirs), np.finfo(theirs.dtype).tiny))
    return float((np.abs(mine - theirs) / scale).max()) if theirs.size else 0.0


@pytest.mark.torch
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(SETTINGS))
def test_steps_match_torch(torch_module: ModuleType, name: str, dtype: str) -> None:
    mine, my_states = _run(microtorch, name, dtype)
    theirs, their_states = _run(torch_module, name, dtype)
    tolerance = 64 if dtype == "float64" else 2e-6  # ulps / relative to the weights' scale
    for a, b in zip(mine, theirs):
        assert a.dtype == b.dtype
        if dtype == "float64":
            assert _ulps(a, b) <= tolerance
        else:
            np.testing.assert_allclose(a, b, rtol=0, atol=tolerance * np.abs(b).max())
    for a, b in zip(my_states, their_states):
        assert sorted(a) == sorted(b)
        for key in b:
            np.testing.assert_allclose(a[key], b[key], rtol=1e-5 if dtype == "float32" else 1e-13)


def test_updates_write_the_parameters_in_place() -> None:
    # The optimizer changes p's own array (what PyTorch's p.add_ does), never replaces it.
    make: dict[str, Callable[[Any], Any]] = {
        "Adam": lambda p: microtorch.optim.Adam(p, lr=0.1, amsgrad=True, weight_decay=0.1),
        "AdamW": lambda p: microtorch.optim.AdamW(p, lr=0.1),
        "SGD": lambda p: microtorch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
    }
    writes = {"AdamW": 2}  # (PyTorch's AdamW: p.mul_(1 - lr * wd), then the step)
    for name, build in make.items():
        p = microtorch.ones(3, requires_grad=True)
        before = p._data
        p.grad = microtorch.tensor([1.0, -2.0, 0.5])
        build([p]).step()
        assert p._data is before and p._version == writes.get(name, 1)
        assert p.tolist() != [1.0, 1.0, 1.0]
        assert p.grad.tolist() == [1.0, -2.0, 0.5]  # the gradient itself is left alone

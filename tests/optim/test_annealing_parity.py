"""The annealing schedules and ReduceLROnPlateau against PyTorch 2.13: every rate (and the
momentum or beta1 that OneCycleLR cycles) after every step, exactly; and their errors."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import microtorch
from tests.nn.test_losses import _message


def _groups(lib: ModuleType) -> list[dict[str, Any]]:
    return [{"params": [lib.zeros(2, requires_grad=True)]},
            {"params": [lib.zeros(3, requires_grad=True)], "lr": 0.03}]  # fmt: skip


# name -> (optimizer, scheduler, steps)
SCHEDULES: dict[str, tuple[Callable[..., Any], Callable[..., Any], int]] = {
    "cosine": (lambda o, g: o.SGD(g, lr=0.1), lambda s, o: s.CosineAnnealingLR(o, T_max=7), 30),
    "cosine_eta_min": (
        lambda o, g: o.Adam(g, lr=0.1),
        lambda s, o: s.CosineAnnealingLR(o, 5, eta_min=1e-3),
        23,
    ),
    "warm_restarts": (
        lambda o, g: o.SGD(g, lr=0.2),
        lambda s, o: s.CosineAnnealingWarmRestarts(o, 3, 2),
        25,
    ),
    "warm_restarts_eta": (
        lambda o, g: o.SGD(g, lr=0.2),
        lambda s, o: s.CosineAnnealingWarmRestarts(o, 4, eta_min=0.01),
        13,
    ),
    "linear": (lambda o, g: o.SGD(g, lr=0.1), lambda s, o: s.LinearLR(o), 9),
    "linear_decay": (
        lambda o, g: o.AdamW(g, lr=0.1),
        lambda s, o: s.LinearLR(o, start_factor=1.0, end_factor=0.05, total_iters=6),
        10,
    ),
    "one_cycle_sgd": (
        lambda o, g: o.SGD(g, lr=0.1, momentum=0.9),
        lambda s, o: s.OneCycleLR(o, max_lr=[0.5, 0.2], total_steps=20),
        20,
    ),
    "one_cycle_adam_linear_three_phase": (
        lambda o, g: o.Adam(g, lr=0.1),
        lambda s, o: s.OneCycleLR(
            o,
            1.0,
            epochs=3,
            steps_per_epoch=5,
            anneal_strategy="linear",
            three_phase=True,
            pct_start=0.25,
        ),  # fmt: skip
        15,
    ),
    "one_cycle_no_momentum": (
        lambda o, g: o.SGD(g, lr=0.1),
        lambda s, o: s.OneCycleLR(o, 0.3, total_steps=11, cycle_momentum=False),
        11,
    ),
}


def _trace(lib: ModuleType, name: str) -> list[Any]:
    make_opt, make_sched, steps = SCHEDULES[name]
    opt = make_opt(lib.optim, _groups(lib))
    sched = make_sched(lib.optim.lr_scheduler, opt)
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (PyTorch's "lr_scheduler.step() before optimizer.step()")
        for _ in range(steps):
            opt.step()
            sched.step()
            seen.append([(g["lr"], g.get("momentum"), g.get("betas")) for g in opt.param_groups])
            seen.append(sched.get_last_lr())
    return seen + [sched.last_epoch, [g.get("initial_lr") for g in opt.param_groups]]


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_rates_match_torch_exactly(torch_module: ModuleType, name: str) -> None:
    assert _trace(microtorch, name) == _trace(torch_module, name)


def _plateau(lib: ModuleType, kwargs: dict[str, Any]) -> list[Any]:
    opt = lib.optim.SGD(_groups(lib), lr=1.0)
    sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    losses = [5, 4, 4, 4.0001, 4, 3.9999, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2] * 2
    seen = []
    for loss in losses:
        sched.step(lib.tensor(float(loss)) if len(seen) % 3 == 0 else loss)
        seen.append((sched.get_last_lr(), sched.num_bad_epochs, sched.best, sched.last_epoch))
    return seen


@pytest.mark.parametrize(
    "kwargs",
    [
        {"patience": 2},
        {"patience": 1, "factor": 0.5, "cooldown": 2, "min_lr": [0.2, 0.01]},
        {"mode": "max", "patience": 0, "threshold": 0.1, "threshold_mode": "abs"},
        {"patience": 3, "threshold_mode": "abs", "eps": 0.5, "min_lr": 0.05},
    ],
)
def test_reduce_on_plateau_matches_torch(torch_module: ModuleType, kwargs: dict) -> None:
    assert _plateau(microtorch, kwargs) == _plateau(torch_module, kwargs)


def _step_past_the_end(sched: Any) -> None:
    for _ in range(3):
        sched.step()


def test_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        s, opt = lib.optim.lr_scheduler, lib.optim.SGD(_groups(lib), lr=0.1)
        adam = lib.optim.Adam(_groups(lib), lr=0.1)
        return [
            lambda: s.LinearLR(opt, start_factor=0.0),
            lambda: s.LinearLR(opt, end_factor=1.5),
            lambda: s.CosineAnnealingWarmRestarts(opt, 0),
            lambda: s.CosineAnnealingWarmRestarts(opt, 2, T_mult=0),
            lambda: s.OneCycleLR(opt, 0.1),
            lambda: s.OneCycleLR(opt, 0.1, total_steps=0),
            lambda: s.OneCycleLR(opt, 0.1, epochs=2, steps_per_epoch=0),
            lambda: s.OneCycleLR(opt, 0.1, total_steps=5, pct_start=1),
            lambda: s.OneCycleLR(opt, 0.1, total_steps=5, anneal_strategy="exp"),
            lambda: s.OneCycleLR(opt, [0.1], total_steps=5),
            lambda: _step_past_the_end(s.OneCycleLR(adam, 0.1, total_steps=2)),
            lambda: s.ReduceLROnPlateau(opt, factor=1.0),
            lambda: s.ReduceLROnPlateau(opt, mode="mean"),
            lambda: s.ReduceLROnPlateau(opt, threshold_mode="x"),
            lambda: s.ReduceLROnPlateau(opt, min_lr=[0.1]),
            lambda: s.ReduceLROnPlateau("sgd"),
        ]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = [_message(c) for c in calls(microtorch)]
        theirs = [_message(c) for c in calls(torch_module)]
    assert mine == theirs

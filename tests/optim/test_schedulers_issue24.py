"""``CyclicLR``, ``SequentialLR``, ``ChainedScheduler``, ``ConstantLR``, ``PolynomialLR`` and
``MultiplicativeLR`` against PyTorch 2.13: every rate, momentum and beta1 after every step,
exactly, the counters and ``state_dict`` round trips; and their errors."""

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


def _sequential(s: Any, o: Any, kinds: str) -> Any:
    made = {
        "constant": lambda: s.ConstantLR(o, factor=0.5, total_iters=2),
        "linear": lambda: s.LinearLR(o, start_factor=0.1, total_iters=3),
        "exponential": lambda: s.ExponentialLR(o, gamma=0.9),
        "step": lambda: s.StepLR(o, 2, 0.5),
        "multistep": lambda: s.MultiStepLR(o, [1, 3], 0.5),
        "cosine": lambda: s.CosineAnnealingLR(o, T_max=4),
        "polynomial": lambda: s.PolynomialLR(o, total_iters=4, power=2.0),
        "lambda": lambda: s.LambdaLR(o, lambda e: 1 / (e + 1)),
    }
    parts = [made[k]() for k in kinds.split("+")]
    return s.SequentialLR(o, parts, milestones=[3 * (i + 1) for i in range(len(parts) - 1)])


Schedule = tuple[Callable[..., Any], Callable[..., Any], int]
SCHEDULES: dict[str, Schedule] = {
    "cyclic_triangular_sgd": (
        lambda o, g: o.SGD(g, lr=0.1, momentum=0.9),
        lambda s, o: s.CyclicLR(o, 0.01, 0.1, step_size_up=3),
        20,
    ),
    "cyclic_triangular2_down": (
        lambda o, g: o.SGD(g, lr=0.1, momentum=0.5),
        lambda s, o: s.CyclicLR(
            o, [0.01, 0.02], [0.1, 0.3], 2, 5, "triangular2", base_momentum=0.6
        ),
        30,
    ),
    "cyclic_exp_range_adam_beta1": (
        lambda o, g: o.Adam(g, lr=0.1),
        lambda s, o: s.CyclicLR(o, 0.001, 0.01, 4, mode="exp_range", gamma=0.9),
        25,
    ),
    "cyclic_no_momentum": (
        lambda o, g: o.SGD(g, lr=0.1),
        lambda s, o: s.CyclicLR(o, 0.01, 0.1, 2, cycle_momentum=False),
        12,
    ),
    "cyclic_scale_fn_iterations": (
        lambda o, g: o.SGD(g, lr=0.1, momentum=0.9),
        lambda s, o: s.CyclicLR(
            o, 0.01, 0.1, 3, scale_fn=lambda x: 1 / (1 + x), scale_mode="iterations"
        ),
        15,
    ),
    "constant": (lambda o, g: o.SGD(g, lr=0.1), lambda s, o: s.ConstantLR(o), 8),
    "constant_half": (
        lambda o, g: o.Adam(g, lr=0.1),
        lambda s, o: s.ConstantLR(o, 0.5, total_iters=3),
        6,
    ),
    "polynomial": (lambda o, g: o.SGD(g, lr=0.1), lambda s, o: s.PolynomialLR(o), 8),
    "polynomial_power": (
        lambda o, g: o.SGD(g, lr=0.1),
        lambda s, o: s.PolynomialLR(o, 6, power=0.5),
        9,
    ),
    "multiplicative": (
        lambda o, g: o.SGD(g, lr=0.1),
        lambda s, o: s.MultiplicativeLR(o, lambda e: 0.9 if e % 2 else 0.95),
        7,
    ),
    "chained": (
        lambda o, g: o.SGD(g, lr=0.1),
        lambda s, o: s.ChainedScheduler(
            [s.ConstantLR(o, factor=0.1, total_iters=2), s.ExponentialLR(o, gamma=0.9)]
        ),
        8,
    ),
    "chained_with_optimizer": (
        lambda o, g: o.SGD(g, lr=0.1),
        lambda s, o: s.ChainedScheduler(
            [s.LinearLR(o, 0.5, total_iters=3), s.StepLR(o, 2, 0.5)], optimizer=o
        ),
        8,
    ),
    **{
        f"sequential_{kinds}": (
            lambda o, g: o.SGD(g, lr=0.1),
            lambda s, o, kinds=kinds: _sequential(s, o, kinds),
            12,
        )
        for kinds in [
            "linear+exponential",
            "constant+cosine",
            "linear+step+multistep",
            "exponential+polynomial",
            "linear+lambda",
            "polynomial+constant+linear",
        ]
    },  # fmt: skip
}


def _trace(lib: ModuleType, name: str) -> list[Any]:
    make_opt, make_sched, steps = SCHEDULES[name]
    opt = make_opt(lib.optim, _groups(lib))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (PyTorch's "lr_scheduler.step() before optimizer.step()")
        sched = make_sched(lib.optim.lr_scheduler, opt)
        seen: list[Any] = [[(g["lr"], g.get("momentum"), g.get("betas")) for g in opt.param_groups]]
        for _ in range(steps):
            opt.step()
            sched.step()
            seen.append([(g["lr"], g.get("momentum"), g.get("betas")) for g in opt.param_groups])
            seen.append(sched.get_last_lr())
    counters = {k: v for k, v in sched.state_dict().items() if isinstance(v, (int, float, list))}
    counters.pop("_schedulers", None)
    counters.pop("_get_lr_called_within_step", None)  # (PyTorch's get_lr() warning's flag)
    return seen + [getattr(sched, "last_epoch", None), counters]


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_rates_and_momentum_match_torch_exactly(torch_module: ModuleType, name: str) -> None:
    assert _trace(microtorch, name) == _trace(torch_module, name)


def test_sequential_state_dict_round_trip(torch_module: ModuleType) -> None:
    rates = []
    for lib in (microtorch, torch_module):
        opt = lib.optim.SGD(_groups(lib), lr=0.1)
        s = lib.optim.lr_scheduler
        sched = _sequential(s, opt, "linear+exponential")
        for _ in range(4):
            opt.step()
            sched.step()
        state = sched.state_dict()
        assert [type(x) for x in state["_schedulers"]] == [dict, dict]
        opt2 = lib.optim.SGD(_groups(lib), lr=0.1)
        again = _sequential(s, opt2, "linear+exponential")
        again.load_state_dict(state)
        for group, saved in zip(opt2.param_groups, opt.param_groups):
            group["lr"] = saved["lr"]
        for _ in range(4):
            opt2.step()
            again.step()
        rates.append((again.get_last_lr(), again.last_epoch, "_schedulers" in state))
    assert rates[0] == rates[1]


ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "cyclic_bad_mode": lambda L: L.optim.lr_scheduler.CyclicLR(
        L.optim.SGD(_groups(L), lr=0.1), 0.01, 0.1, mode="cosine"
    ),
    "cyclic_no_momentum_in_optimizer": lambda L: L.optim.lr_scheduler.CyclicLR(
        L.optim.Adagrad(_groups(L), lr=0.1), 0.01, 0.1
    ),
    "cyclic_base_lr_length": lambda L: L.optim.lr_scheduler.CyclicLR(
        L.optim.SGD(_groups(L), lr=0.1, momentum=0.9), [0.01], 0.1
    ),
    "cyclic_not_optimizer": lambda L: L.optim.lr_scheduler.CyclicLR("sgd", 0.01, 0.1),
    "sequential_no_schedulers": lambda L: L.optim.lr_scheduler.SequentialLR(
        L.optim.SGD(_groups(L), lr=0.1), [], []
    ),
    "sequential_milestones": lambda L: _sequential_wrong_milestones(L),
    "sequential_plateau": lambda L: _with_plateau(L, "SequentialLR"),
    "sequential_not_a_scheduler": lambda L: L.optim.lr_scheduler.SequentialLR(
        L.optim.SGD(_groups(L), lr=0.1), [object()], []
    ),
    "chained_empty": lambda L: L.optim.lr_scheduler.ChainedScheduler([]),
    "chained_plateau": lambda L: _with_plateau(L, "ChainedScheduler"),
    "constant_factor": lambda L: L.optim.lr_scheduler.ConstantLR(
        L.optim.SGD(_groups(L), lr=0.1), factor=1.5
    ),
    "multiplicative_not_callable": lambda L: L.optim.lr_scheduler.MultiplicativeLR(
        L.optim.SGD(_groups(L), lr=0.1), [lambda e: 0.9, 3]
    ),
    "multiplicative_count": lambda L: L.optim.lr_scheduler.MultiplicativeLR(
        L.optim.SGD(_groups(L), lr=0.1), [lambda e: 0.9]
    ),
}


def _sequential_wrong_milestones(L: ModuleType) -> Any:
    opt = L.optim.SGD(_groups(L), lr=0.1)
    s = L.optim.lr_scheduler
    return s.SequentialLR(opt, [s.ConstantLR(opt), s.ExponentialLR(opt, 0.9)], [2, 4])


def _with_plateau(L: ModuleType, kind: str) -> Any:
    opt = L.optim.SGD(_groups(L), lr=0.1)
    s = L.optim.lr_scheduler
    schedulers = [s.ConstantLR(opt), s.ReduceLROnPlateau(opt)]
    if kind == "SequentialLR":
        return s.SequentialLR(opt, schedulers, [2])
    return s.ChainedScheduler(schedulers)


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _message(lambda: ERRORS[name](torch_module))
        mine = _message(lambda: ERRORS[name](microtorch))
    assert mine == theirs

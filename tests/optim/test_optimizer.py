"""Optimizer bookkeeping: groups, state, skipping params without grads, errors, schedulers."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch
import microtorch.nn as nn
from microtorch import optim


def _one_step(opt_cls, **kwargs):
    w = nn.Parameter(microtorch.tensor([1.0, -2.0]))
    unused = nn.Parameter(microtorch.tensor([5.0]))
    opt = opt_cls([w, unused], **kwargs)
    (w * w).sum().backward()
    opt.step()
    return w, unused, opt


@pytest.mark.parametrize(("opt_cls", "writes"), [(optim.SGD, 1), (optim.Adam, 1), (optim.AdamW, 2)])
def test_params_without_grad_are_skipped(opt_cls, writes: int) -> None:
    # (AdamW writes twice, as PyTorch's: p.mul_(1 - lr * wd), then the Adam step)
    w, unused, opt = _one_step(opt_cls, lr=0.1, weight_decay=0.1)
    assert unused.tolist() == [5.0] and unused._version == 0
    assert w._version == writes and w.tolist() != [1.0, -2.0]
    assert unused not in opt.state


OPTIMIZERS = [
    "SGD(p, lr=0.1)", "SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)",
    "Adam(p, lr=0.1)", "Adam(p, lr=0.1, weight_decay=0.1)", "AdamW(p, lr=0.1)",
    "AdamW(p, lr=0.1, weight_decay=0)",
    "Adam(p, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)",
    "RMSprop(p, lr=0.01, momentum=0.9)", "Adagrad(p, lr=0.1)", "Adam(p, lr=0.1, amsgrad=True)",
]  # fmt: skip


@pytest.mark.parametrize("form", OPTIMIZERS)
def test_a_step_changes_the_params_version_as_in_torch(form: str, torch_module: ModuleType) -> None:
    # a saved tensor's "is at version N" error counts these writes
    def versions(lib: ModuleType) -> list[int]:
        w = lib.tensor([1.0, -2.0], requires_grad=True)
        opt = eval(f"lib.optim.{form}", {"lib": lib, "p": [w]})  # noqa: S307 - the table above
        seen = []
        for _ in range(2):
            (w * w).sum().backward()
            before = w._version
            opt.step()
            seen.append(w._version - before)
        return seen

    assert versions(microtorch) == versions(torch_module)


def test_sgd_step_is_plain_gradient_descent() -> None:
    w, _, _ = _one_step(optim.SGD, lr=0.25)
    assert w.tolist() == [0.5, -1.0]  # w - 0.25 * 2w
    assert w.grad_fn is None and w.requires_grad


def test_first_adam_step_moves_each_weight_by_lr() -> None:
    w, _, opt = _one_step(optim.Adam, lr=0.1)
    np.testing.assert_allclose(w.tolist(), [0.9, -1.9], rtol=1e-6)
    assert set(opt.state[w]) == {"step", "exp_avg", "exp_avg_sq"}
    assert opt.state[w]["step"].item() == 1.0


def test_maximize_and_closure() -> None:
    w = nn.Parameter(microtorch.tensor([1.0]))
    opt = optim.SGD([w], lr=0.5, maximize=True)

    def closure():
        opt.zero_grad()
        loss = (w * 3).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 3.0
    assert w.tolist() == [2.5]


def test_zero_grad_set_to_none_and_zeros() -> None:
    w, _, opt = _one_step(optim.SGD, lr=0.1)
    opt.zero_grad(set_to_none=False)
    assert w.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_update_makes_saved_values_stale() -> None:
    w = nn.Parameter(microtorch.tensor([1.0, 2.0]))
    opt = optim.SGD([w], lr=0.1)
    loss = (w * w).sum()
    loss.backward(retain_graph=True)
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_param_groups_and_add_param_group() -> None:
    a, b = nn.Linear(2, 2), nn.Linear(2, 1)
    opt = optim.SGD([{"params": a.parameters(), "lr": 0.5}], lr=0.1, momentum=0.9)
    opt.add_param_group({"params": b.parameters()})
    assert [g["lr"] for g in opt.param_groups] == [0.5, 0.1]
    assert opt.param_groups[1]["momentum"] == 0.9
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [a.weight]})


def test_state_dict_resumes_training_exactly() -> None:
    def data():
        microtorch.manual_seed(5)
        return microtorch.randn(16, 3), microtorch.randn(16, 1)

    def steps(model, opt, n):
        x, y = data()
        for _ in range(n):
            opt.zero_grad()
            microtorch.nn.functional.mse_loss(model(x), y).backward()
            opt.step()

    microtorch.manual_seed(0)
    straight = nn.Linear(3, 1)
    resumed = nn.Linear(3, 1)
    resumed.load_state_dict(straight.state_dict())
    opt_a = optim.Adam(straight.parameters(), lr=0.05)
    steps(straight, opt_a, 10)
    opt_b = optim.Adam(resumed.parameters(), lr=0.05)
    steps(resumed, opt_b, 4)
    saved = opt_b.state_dict()
    assert list(saved["state"]) == [0, 1] and saved["param_groups"][0]["params"] == [0, 1]
    fresh = optim.Adam(resumed.parameters(), lr=0.05)
    fresh.load_state_dict(saved)
    steps(resumed, fresh, 6)
    np.testing.assert_array_equal(resumed.weight.tolist(), straight.weight.tolist())


def test_reprs_and_state_dict_layout_match_torch(torch_module: ModuleType) -> None:
    def make(lib: ModuleType) -> list:
        p = [lib.nn.Parameter(lib.ones(2))]
        return [
            lib.optim.SGD(p, lr=0.1, momentum=0.9),
            lib.optim.Adam(p, lr=0.1),
            lib.optim.AdamW(p),
        ]

    mine, theirs = make(microtorch), make(torch_module)
    assert [repr(o) for o in mine] == [repr(o) for o in theirs]
    for m, t in zip(mine, theirs):
        assert m.state_dict()["param_groups"] == t.state_dict()["param_groups"]


def _error(call) -> tuple[str, str]:
    with pytest.raises(Exception) as info:
        call()
    return type(info.value).__name__, str(info.value).split(" (Fix:")[0]


def test_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        w = lib.ones(2, requires_grad=True)
        return [
            lambda: lib.optim.SGD([], lr=0.1),
            lambda: lib.optim.SGD([w], lr=-0.1),
            lambda: lib.optim.SGD([w], lr=0.1, nesterov=True),
            lambda: lib.optim.Adam([w], betas=(1.0, 0.9)),
            lambda: lib.optim.Adam([w], eps=-1),
            lambda: lib.optim.SGD([w * 2], lr=0.1),
        ]

    assert [_error(c) for c in calls(microtorch)] == [_error(c) for c in calls(torch_module)]
    with pytest.raises(TypeError, match="iterable of Tensors or dicts, but got microtorch"):
        optim.SGD(microtorch.ones(2, requires_grad=True), lr=0.1)


def _schedule(lib: ModuleType, make) -> list[float]:
    opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1)
    scheduler = make(lib, opt)
    rates = []
    for _ in range(8):
        opt.step()
        scheduler.step()
        rates.append(scheduler.get_last_lr()[0])
    return rates


@pytest.mark.parametrize(
    "make",
    [
        lambda lib, o: lib.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5),
        lambda lib, o: lib.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (1 + e)),
        lambda lib, o: lib.optim.lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1),
        lambda lib, o: lib.optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
    ],
    ids=["StepLR", "LambdaLR", "MultiStepLR", "ExponentialLR"],
)
def test_schedulers_match_torch(torch_module: ModuleType, make) -> None:
    np.testing.assert_allclose(_schedule(microtorch, make), _schedule(torch_module, make))

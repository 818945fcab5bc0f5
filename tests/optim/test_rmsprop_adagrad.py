"""RMSprop and Adagrad beyond the step values (tests/optim/test_step_parity.py): their
constructors' errors, state_dict before and after a step, reprs, as PyTorch 2.13."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

import microtorch
from tests.nn.test_losses import _message


def _summary(lib: ModuleType, make: Any) -> list[Any]:
    p = lib.tensor([1.0, -2.0], requires_grad=True)
    opt = make(lib.optim, [p])
    seen: list[Any] = [repr(opt).replace("microtorch", "torch")]
    for _ in range(2):
        sd = opt.state_dict()
        seen.append(sd["param_groups"])
        seen.append({i: {k: np.asarray(v).tolist() for k, v in s.items()}
                     for i, s in sd["state"].items()})  # fmt: skip
        p.grad = lib.tensor([0.5, 0.25])
        opt.step()
    return seen


def test_state_and_repr_match_torch(torch_module: ModuleType) -> None:
    makers = [
        lambda o, p: o.RMSprop(p),
        lambda o, p: o.RMSprop(p, momentum=0.9, centered=True),
        lambda o, p: o.Adagrad(p),
        lambda o, p: o.Adagrad(p, lr_decay=0.1, initial_accumulator_value=0.3),
    ]
    for make in makers:
        assert _summary(microtorch, make) == _summary(torch_module, make)


def test_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        o, p = lib.optim, [lib.zeros(2, requires_grad=True)]
        return [
            lambda: o.RMSprop(p, lr=-1.0), lambda: o.RMSprop(p, eps=-1.0),
            lambda: o.RMSprop(p, momentum=-0.5), lambda: o.RMSprop(p, weight_decay=-1),
            lambda: o.RMSprop(p, alpha=-0.1), lambda: o.Adagrad(p, lr=-0.1),
            lambda: o.Adagrad(p, lr_decay=-1), lambda: o.Adagrad(p, weight_decay=-1),
            lambda: o.Adagrad(p, initial_accumulator_value=-1), lambda: o.Adagrad(p, eps=-1),
        ]  # fmt: skip

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]

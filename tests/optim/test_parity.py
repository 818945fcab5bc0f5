"""200 training steps from the same initial weights end within 1e-4 relative loss of PyTorch.

Each run trains the same model on the same data in both libraries (the weights are copied
from the torch model into the microtorch one) and compares the loss after the last step.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.models import copy_weights, two_layer_net

STEPS = 200
_RNG = np.random.default_rng(0)
X_REG = _RNG.standard_normal((64, 5)).astype(np.float32)
Y_REG = (X_REG.sum(axis=1, keepdims=True) > 0).astype(np.float32)
X_CLS = _RNG.standard_normal((96, 6)).astype(np.float32)
Y_CLS = (X_CLS[:, :3].argmax(axis=1) + (X_CLS[:, 3] > 1)).astype(np.int64)  # 4 classes


def classifier(lib: ModuleType) -> Any:
    nn = lib.nn
    return nn.Sequential(
        nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 4)
    )


OPTIMIZERS: dict[str, Callable[[ModuleType, Any], Any]] = {
    "sgd": lambda lib, p: lib.optim.SGD(p, lr=0.5),
    "sgd_momentum": lambda lib, p: lib.optim.SGD(p, lr=0.1, momentum=0.9),
    "sgd_nesterov": lambda lib, p: lib.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
    "sgd_dampening_decay": lambda lib, p: lib.optim.SGD(
        p, lr=0.2, momentum=0.5, dampening=0.3, weight_decay=1e-3
    ),
    "adam": lambda lib, p: lib.optim.Adam(p, lr=0.01),
    "adam_amsgrad_decay": lambda lib, p: lib.optim.Adam(
        p, lr=0.02, betas=(0.8, 0.99), weight_decay=1e-2, amsgrad=True
    ),
    "adamw": lambda lib, p: lib.optim.AdamW(p, lr=0.01, weight_decay=0.1),
}


def _train(lib: ModuleType, model: Any, make_opt: Callable, task: str) -> list[float]:
    if task == "regression":
        x, y = lib.tensor(X_REG), lib.tensor(Y_REG)
        criterion = lib.nn.MSELoss()
    else:
        x, y = lib.tensor(X_CLS), lib.tensor(Y_CLS)
        criterion = lib.nn.CrossEntropyLoss()
    optimizer = make_opt(lib, model.parameters())
    losses = []
    for _ in range(STEPS):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    with lib.no_grad():
        losses.append(criterion(model(x), y).item())
    return losses


def run_both(torch: ModuleType, opt: str, task: str) -> tuple[list[float], list[float]]:
    """Train the same model with the same optimizer in both libraries; both loss curves."""
    build = two_layer_net if task == "regression" else classifier
    torch.manual_seed(0)
    theirs, mine = build(torch), build(microtorch)
    copy_weights(theirs, mine)
    return _train(microtorch, mine, OPTIMIZERS[opt], task), _train(
        torch, theirs, OPTIMIZERS[opt], task
    )


@pytest.mark.parametrize("task", ["regression", "classification"])
@pytest.mark.parametrize("opt", list(OPTIMIZERS))
def test_training_matches_torch(torch_module: ModuleType, opt: str, task: str) -> None:
    mine, theirs = run_both(torch_module, opt, task)
    assert theirs[-1] < theirs[0]  # the run is a real training run, not a flat line
    assert abs(mine[-1] - theirs[-1]) <= 1e-4 * abs(theirs[-1])
    np.testing.assert_allclose(mine, theirs, rtol=1e-4)  # and so is every step before it


def test_scheduled_two_group_training_matches_torch(torch_module: ModuleType) -> None:
    def run(lib: ModuleType, model: Any) -> list[float]:
        optimizer = lib.optim.SGD(
            [
                {"params": model[0].parameters(), "lr": 0.05},
                {"params": list(model[2].parameters()) + list(model[4].parameters())},
            ],
            lr=0.2,
            momentum=0.8,
        )
        scheduler = lib.optim.lr_scheduler.StepLR(optimizer, step_size=50, gamma=0.5)
        x, y = lib.tensor(X_CLS), lib.tensor(Y_CLS)
        losses = []
        for _ in range(STEPS):
            optimizer.zero_grad()
            loss = lib.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            scheduler.step()
            losses.append(loss.item())
        return losses

    torch_module.manual_seed(1)
    theirs, mine = classifier(torch_module), classifier(microtorch)
    copy_weights(theirs, mine)
    np.testing.assert_allclose(run(microtorch, mine), run(torch_module, theirs), rtol=1e-4)

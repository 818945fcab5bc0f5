"""The 60-minute blitz's LeNet trains on microtorch as on PyTorch: from the same weights, the
same SGD steps on the same batch give the same loss trajectory, the loss goes down, and the
graph it records is PyTorch's node for node. A step on a batch of 8 takes milliseconds."""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import numpy as np

import microtorch
from tests.nn.cases import graph
from tests.nn.models import copy_weights, lenet

RNG = np.random.default_rng(2024)
IMAGES = RNG.standard_normal((8, 1, 32, 32)).astype(np.float32)
LABELS = RNG.integers(0, 10, 8)
STEPS = 20


def _train(lib: ModuleType, net: Any) -> list[float]:
    criterion = lib.nn.CrossEntropyLoss()
    optimizer = lib.optim.SGD(net.parameters(), lr=0.02, momentum=0.9)
    images, labels = lib.tensor(IMAGES), lib.tensor(LABELS)
    losses = []
    for _ in range(STEPS):
        optimizer.zero_grad()
        loss = criterion(net(images), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def test_lenet_shapes_and_parameters() -> None:
    microtorch.manual_seed(0)
    net = lenet(microtorch)
    out = net(microtorch.randn(1, 1, 32, 32))
    assert out.shape == (1, 10)
    assert sum(p.numel() for p in net.parameters()) == 61706  # the tutorial's count
    assert str(net).startswith("Net(\n  (conv1): Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))")


def test_lenet_loss_goes_down_with_sgd() -> None:
    microtorch.manual_seed(0)
    losses = _train(microtorch, lenet(microtorch))
    assert losses[-1] < 0.8 * losses[0]
    assert all(np.isfinite(losses))


def test_lenet_trains_exactly_as_torch(torch_module: ModuleType) -> None:
    torch_module.manual_seed(0)
    theirs = lenet(torch_module)
    mine = lenet(microtorch)
    copy_weights(theirs, mine)
    x_mine, x_theirs = microtorch.tensor(IMAGES[:2]), torch_module.tensor(IMAGES[:2])
    assert graph(mine(x_mine).sum()) == graph(theirs(x_theirs).sum())
    mine_losses = _train(microtorch, mine)
    theirs_losses = _train(torch_module, theirs)
    np.testing.assert_allclose(mine_losses, theirs_losses, rtol=1e-5, atol=1e-6)
    assert theirs_losses[-1] < 0.8 * theirs_losses[0]
    for (name, p), q in zip(mine.named_parameters(), theirs.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), atol=1e-5, err_msg=name)


def test_a_lenet_step_on_a_batch_of_8_takes_milliseconds() -> None:
    microtorch.manual_seed(0)
    net = lenet(microtorch)
    criterion = microtorch.nn.CrossEntropyLoss()
    optimizer = microtorch.optim.SGD(net.parameters(), lr=0.01)
    images, labels = microtorch.tensor(IMAGES), microtorch.tensor(LABELS)

    def step() -> None:
        optimizer.zero_grad()
        criterion(net(images), labels).backward()
        optimizer.step()

    step()  # warm up
    times = []
    for _ in range(10):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    assert np.median(times) < 0.05, f"median step {np.median(times) * 1e3:.1f} ms"

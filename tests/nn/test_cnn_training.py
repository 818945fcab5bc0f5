"""A small CNN built from every new layer trains on microtorch as on PyTorch: from the same
weights, SGD steps on the same batches give the same losses, parameters and running
statistics; in eval mode both predict the same; the state_dict keys are PyTorch's."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np

import microtorch
from tests.nn.models import copy_weights, small_cnn

RNG = np.random.default_rng(7)
IMAGES = RNG.standard_normal((6, 3, 12, 12)).astype(np.float32)
LABELS = RNG.integers(0, 5, 6)
STEPS = 8


def _train(lib: ModuleType, net: Any) -> list[float]:
    net.features[4].p = 0.0  # Dropout2d draws from each library's own generator: switched off
    # (SGD: the bias of a conv followed by batch norm gets a gradient of float noise only,
    # which Adam would blow up into full-size steps)
    optimizer = lib.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    criterion = lib.nn.CrossEntropyLoss()
    losses = []
    for step in range(STEPS):
        images = lib.tensor(IMAGES * (1 + 0.1 * step))
        optimizer.zero_grad()
        loss = criterion(net(images), lib.tensor(LABELS))
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def test_small_cnn_trains_as_torch(torch_module: ModuleType) -> None:
    torch_module.manual_seed(0)
    theirs, mine = small_cnn(torch_module), small_cnn(microtorch)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert repr(mine) == repr(theirs)
    copy_weights(theirs, mine)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Using padding='same' with even kernel")
        mine_losses, theirs_losses = _train(microtorch, mine), _train(torch_module, theirs)
        np.testing.assert_allclose(mine_losses, theirs_losses, rtol=1e-5, atol=1e-6)
        assert theirs_losses[-1] < theirs_losses[0]
        mine_state, theirs_state = mine.state_dict(), theirs.state_dict()
        for name, value in theirs_state.items():
            np.testing.assert_allclose(
                mine_state[name].numpy(), value.numpy(), rtol=1e-4, atol=1e-5, err_msg=name
            )
        mine.eval()
        theirs.eval()
        x = IMAGES[:3] * 0.5
        with microtorch.no_grad(), torch_module.no_grad():
            mine_out = mine(microtorch.tensor(x)).numpy()
            theirs_out = theirs(torch_module.tensor(x)).numpy()
    np.testing.assert_allclose(mine_out, theirs_out, rtol=1e-4, atol=1e-5)
    assert mine_state["features.1.num_batches_tracked"].item() == STEPS

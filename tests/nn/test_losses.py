"""Losses: numerical stability at extreme inputs, and PyTorch's errors for wrong targets."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch
import microtorch.nn.functional as F


def _finite(loss) -> bool:
    return bool(np.isfinite(loss.item()))


@pytest.mark.parametrize("scale", [1e3, 1e6, 1e30])
def test_cross_entropy_is_finite_for_huge_logits(scale: float) -> None:
    logits = microtorch.tensor([[scale, -scale, 0.0], [0.0, scale, -scale]], requires_grad=True)
    target = microtorch.tensor([1, 1])
    loss = F.cross_entropy(logits, target)
    loss.backward()
    assert _finite(loss) and loss.item() == pytest.approx(scale, rel=1e-6)  # first row wrong
    assert np.all(np.isfinite(logits.grad.numpy()))
    np.testing.assert_allclose(logits.grad.numpy().sum(axis=1), 0, atol=1e-6)  # softmax - 1


def test_bce_with_logits_is_finite_where_sigmoid_saturates() -> None:
    x = microtorch.tensor([-1e4, -50.0, 0.0, 50.0, 1e4], requires_grad=True)
    y = microtorch.tensor([1.0, 1.0, 0.5, 0.0, 0.0])
    loss = F.binary_cross_entropy_with_logits(x, y, reduction="sum")
    loss.backward()
    assert loss.item() == pytest.approx(1e4 + 50 + np.log(2) + 50 + 1e4, rel=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), [-1, -1, 0, 1, 1], atol=1e-6)


def test_bce_clamps_the_log_at_minus_100_as_torch() -> None:
    p = microtorch.tensor([0.0, 1.0, 0.5], requires_grad=True)
    loss = F.binary_cross_entropy(p, microtorch.tensor([1.0, 0.0, 1.0]), reduction="none")
    np.testing.assert_allclose(loss.detach().numpy(), [100, 100, np.log(2)], rtol=1e-6)
    loss.sum().backward()
    assert np.all(np.isfinite(p.grad.numpy()))


def test_mse_and_l1_values() -> None:
    a, b = microtorch.tensor([1.0, 2.0, 4.0]), microtorch.tensor([1.0, 0.0, 1.0])
    assert F.mse_loss(a, b).item() == pytest.approx((0 + 4 + 9) / 3)
    assert F.l1_loss(a, b, reduction="sum").item() == 5.0
    assert microtorch.nn.MSELoss(reduction="none")(a, b).tolist() == [0.0, 4.0, 9.0]


def test_all_ignored_targets_give_nan_as_torch() -> None:
    logits = microtorch.zeros(2, 3, requires_grad=True)
    loss = F.cross_entropy(logits, microtorch.tensor([1, 1]), ignore_index=1)
    assert np.isnan(loss.item())


def _message(call) -> tuple[str, str]:
    with pytest.raises(Exception) as info:
        call()
    text = str(info.value).replace("microtorch.", "torch.")
    return type(info.value).__name__, text.split(" (Fix:")[0].split(" (indices must")[0]


def test_error_messages_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        f = lib.nn.functional
        x = lib.zeros(4, 5)
        return [
            lambda: f.cross_entropy(x, lib.tensor([1, 2, 3])),
            lambda: f.cross_entropy(x, lib.tensor([1.0, 2.0, 3.0, 4.0])),
            lambda: f.cross_entropy(x, lib.tensor([1, 2, 3, 5])),
            lambda: f.nll_loss(x, lib.tensor([1, 2, 3, 4]), reduction="avg"),
            lambda: f.binary_cross_entropy(x - 1, lib.zeros(4, 5)),
            lambda: f.binary_cross_entropy(x, lib.zeros(4)),
            lambda: f.binary_cross_entropy_with_logits(x, lib.zeros(4)),
            lambda: f.embedding(lib.tensor([1.0]), lib.zeros(3, 2)),
            lambda: f.embedding(lib.tensor([3]), lib.zeros(3, 2)),
            lambda: f.embedding(lib.tensor([-1]), lib.zeros(3, 2)),
            lambda: f.nll_loss(x, lib.tensor([1, 2, 3, 4], dtype=lib.int32)),
            lambda: f.cross_entropy(lib.zeros(4, 5, 6), lib.zeros(4, 5).long()),
            lambda: f.dropout(x, 1.5),
            lambda: lib.nn.Linear(3, 2)(x),
        ]

    mine = [_message(c) for c in calls(microtorch)]
    theirs = [_message(c) for c in calls(torch_module)]
    # PyTorch's Linear error names the transposed weight (5x... and 3x2); ours says the same
    assert mine[:-1] == theirs[:-1]
    assert mine[-1][1].startswith("mat1 and mat2 shapes cannot be multiplied (4x5 and 3x2)")
    assert theirs[-1][1].startswith("mat1 and mat2 shapes cannot be multiplied (4x5 and 3x2)")

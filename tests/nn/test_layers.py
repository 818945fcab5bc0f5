"""Layer behaviour that is not a one-to-one value comparison: randomness, modes, init."""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np
import pytest

import microtorch
import microtorch.nn as nn
import microtorch.nn.functional as F
from microtorch.nn import init


def test_dropout_zeroes_and_rescales_in_training_only() -> None:
    microtorch.manual_seed(0)
    layer = nn.Dropout(p=0.25)
    x = microtorch.ones(200, 50, requires_grad=True)
    y = layer(x)
    values = np.unique(y.detach().numpy())
    np.testing.assert_allclose(values, [0.0, 1 / 0.75], rtol=1e-6)
    assert abs((y.detach().numpy() == 0).mean() - 0.25) < 0.02
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.detach().numpy())  # same mask, same scale
    layer.eval()
    assert layer(x) is x
    assert F.dropout(x, 1.0).abs().sum().item() == 0


def test_dropout_is_repeatable_under_a_seed() -> None:
    microtorch.manual_seed(3)
    a = F.dropout(microtorch.ones(10))
    microtorch.manual_seed(3)
    assert F.dropout(microtorch.ones(10)).tolist() == a.tolist()


def test_embedding_padding_row_is_zero_and_gets_no_gradient() -> None:
    emb = nn.Embedding(6, 3, padding_idx=2)
    assert emb.weight[2].tolist() == [0.0, 0.0, 0.0]
    out = emb(microtorch.tensor([[2, 4, 4], [1, 2, 0]]))
    assert out.shape == (2, 3, 3)
    out.sum().backward()
    np.testing.assert_array_equal(emb.weight.grad.numpy()[:, 0], [1, 1, 0, 0, 2, 0])


def test_embedding_from_pretrained_is_frozen() -> None:
    table = microtorch.arange(6.0).view(3, 2)
    emb = nn.Embedding.from_pretrained(table)
    assert not emb.weight.requires_grad and emb(microtorch.tensor([2])).tolist() == [[4.0, 5.0]]


def test_linear_default_init_is_pytorchs_range_and_seeded() -> None:
    microtorch.manual_seed(0)
    a = nn.Linear(400, 300)
    microtorch.manual_seed(0)
    b = nn.Linear(400, 300)
    w = a.weight.detach().numpy()
    np.testing.assert_array_equal(w, b.weight.detach().numpy())
    bound = 1 / math.sqrt(400)  # kaiming_uniform_(a=sqrt(5)) on fan_in 400
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.01 * bound  # the std of U(-b, b)
    assert np.abs(a.bias.detach().numpy()).max() <= bound
    assert a.weight.dtype is microtorch.float32


def test_init_functions(torch_module: ModuleType) -> None:
    microtorch.manual_seed(0)
    w = microtorch.empty(200, 300)
    assert init.zeros_(w) is w and w.abs().sum().item() == 0
    assert init.ones_(w).mean().item() == 1.0
    assert init.constant_(w, 0.5).mean().item() == 0.5
    init.normal_(w, mean=2.0, std=0.5)
    assert abs(w.mean().item() - 2.0) < 0.01 and abs(w.std().item() - 0.5) < 0.01
    init.uniform_(w, -3, -2)
    assert w.min().item() >= -3 and w.max().item() < -2
    init.xavier_uniform_(w)
    assert w.abs().max().item() <= math.sqrt(6 / 500)
    init.kaiming_uniform_(w, nonlinearity="relu")
    assert w.abs().max().item() <= math.sqrt(6 / 300)
    init.kaiming_normal_(w, mode="fan_out")
    assert abs(w.std().item() - math.sqrt(2 / 200)) < 0.002
    init.xavier_normal_(w, gain=2.0)
    assert abs(w.std().item() - 2 * math.sqrt(2 / 500)) < 0.003
    for name, arg in [("linear", None), ("relu", None), ("tanh", None), ("leaky_relu", 0.2)]:
        expected = torch_module.nn.init.calculate_gain(name, arg)
        assert init.calculate_gain(name, arg) == pytest.approx(expected)
    assert w._version > 0  # in-place writes bump the version counter


def test_init_on_a_parameter_needs_no_no_grad() -> None:
    layer = nn.Linear(3, 3)
    init.zeros_(layer.bias)
    init.eye_(layer.weight)
    x = microtorch.randn(2, 3)
    np.testing.assert_allclose(layer(x).detach().numpy(), x.numpy())


def test_softmax_without_dim_warns_and_picks_torchs_dim() -> None:
    x = microtorch.randn(2, 3)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        y = nn.Softmax()(x)
    np.testing.assert_allclose(y.sum(1).numpy(), [1, 1], rtol=1e-6)


def test_relu_inplace_and_identity() -> None:
    x = microtorch.tensor([-1.0, 2.0])
    assert nn.ReLU(inplace=True)(x) is x and x.tolist() == [0.0, 2.0]
    assert nn.Identity(54, unused="x")(x) is x


def test_one_hot() -> None:
    assert F.one_hot(microtorch.tensor([0, 2])).tolist() == [[1, 0, 0], [0, 0, 1]]
    assert F.one_hot(microtorch.tensor([1]), num_classes=4).dtype is microtorch.int64

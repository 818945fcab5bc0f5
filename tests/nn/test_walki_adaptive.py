"""walki: nn.AdaptiveLogSoftmaxWithLoss against PyTorch 2.13: the (output, loss) named tuple,
log_prob, predict (shortlist, cluster and mixed rows), gradients of first and second order,
finite differences, the repr, the parameters' names and draw order, and PyTorch's errors.

microtorch's generator does not give PyTorch's numbers, so the parity tests build the layer
in PyTorch and copy its weights into microtorch's with load_state_dict; the draw order is
checked within microtorch (the same draws as the Linear layers built by hand, in PyTorch's
order)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck

# (a cluster's hidden size in_features // div_value**i can be 0: both libraries warn then)
pytestmark = [
    pytest.mark.torch,
    pytest.mark.filterwarnings("ignore:Initializing zero-element tensors is a no-op"),
]

X = np.random.default_rng(0).standard_normal((7, 8))
TARGETS = [0, 2, 4, 9, 3, 5, 1]


def _pair(torch: ModuleType, *args: Any, dtype: str = "float64", **kwargs: Any):
    """The layer in PyTorch and in microtorch, with PyTorch's weights in both."""
    torch.manual_seed(0)
    want = torch.nn.AdaptiveLogSoftmaxWithLoss(*args, **kwargs).to(getattr(torch, dtype))
    got = microtorch.nn.AdaptiveLogSoftmaxWithLoss(*args, **kwargs).to(getattr(microtorch, dtype))
    got.load_state_dict({k: microtorch.tensor(v.numpy()) for k, v in want.state_dict().items()})
    return got, want


CONFIGS = [
    ((8, 10, [3, 6]), {"div_value": 2.0, "head_bias": True}),
    ((8, 10, [3, 6]), {}),
    ((8, 10, (5,)), {"div_value": 1.0}),
    ((8, 10, [1, 2, 9]), {"head_bias": True}),
]


@pytest.mark.parametrize("config", range(len(CONFIGS)))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_forward_log_prob_and_gradients_match_torch(torch_module, config, dtype) -> None:
    args, kwargs = CONFIGS[config]
    pair = _pair(torch_module, *args, dtype=dtype, **kwargs)
    tol = 1e-10 if dtype == "float64" else 1e-5
    results = []
    for L, layer in zip((microtorch, torch_module), pair):
        x = L.tensor(X, dtype=getattr(L, dtype), requires_grad=True)
        out = layer(x, L.tensor(TARGETS))
        (out.loss * 2 + (out.output * L.arange(7.0, dtype=x.dtype)).sum()).backward()
        log_prob = layer.log_prob(x)
        results.append(
            [out.output, out.loss, x.grad, log_prob, *[p.grad for p in layer.parameters()]]
        )
        assert type(out).__name__ == "_ASMoutput" and out._fields == ("output", "loss")
        assert out.output.dtype == x.dtype and out.loss.shape == ()
        assert (out.output.grad_fn.name(), out.loss.grad_fn.name()) == (
            "AddBackward0",
            "MeanBackward0",
        )
    for a, b in zip(*results):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)


def test_one_sample_and_clusters_no_target_falls_in(torch_module) -> None:
    pair = _pair(torch_module, 8, 10, [3, 6])
    got = []
    for L, layer in zip((microtorch, torch_module), pair):
        x = L.tensor(X[0])
        one = layer(x, L.tensor(7))
        head_only = layer(L.tensor(X[:3]), L.tensor([0, 1, 2]))
        got.append((one.output.shape, one.output.item(), one.loss.item(), head_only.loss.item()))
    assert got[0][0] == ()
    np.testing.assert_allclose(got[0][1:], got[1][1:], rtol=1e-12)


@pytest.mark.parametrize("bias", [None, 0, 1, "mixed"])
def test_predict_matches_torch(torch_module, bias) -> None:
    pair = _pair(torch_module, 8, 10, [3, 6], head_bias=True)
    predictions = []
    for L, layer in zip((microtorch, torch_module), pair):
        with L.no_grad():
            if bias is not None:  # steer the head to a cluster's column (3 or 4)
                layer.head.bias[3 + (bias if bias != "mixed" else 0)] = 40.0
                if bias == "mixed":
                    layer.head.weight[3] = L.tensor(np.where(np.arange(8) == 0, 60.0, 0.0))
        x = L.tensor(X)
        predictions.append(layer.predict(x).tolist())
        assert predictions[-1] == layer.log_prob(x).argmax(1).tolist()
    assert predictions[0] == predictions[1]
    if bias == "mixed":
        assert 0 < sum(p >= 3 for p in predictions[0]) < 7


def test_second_order_gradients_match_torch(torch_module) -> None:
    pair = _pair(torch_module, 8, 10, [3, 6], head_bias=True)
    grads = []
    for L, layer in zip((microtorch, torch_module), pair):
        x = L.tensor(X, requires_grad=True)
        out = layer(x, L.tensor(TARGETS))
        (g,) = L.autograd.grad(out.loss, x, create_graph=True)
        (gg,) = L.autograd.grad((g * g).sum(), layer.head.weight)
        grads.append((g.detach().numpy(), gg.numpy()))
    np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-9, atol=1e-12)


def test_finite_differences() -> None:
    microtorch.manual_seed(1)
    layer = microtorch.nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2, 4], div_value=2.0).double()
    x = microtorch.tensor(X[:5, :4], requires_grad=True)
    target = microtorch.tensor([0, 3, 5, 2, 1])
    assert gradcheck(lambda x: layer(x, target).loss, (x,))
    assert gradgradcheck(lambda x: layer(x, target).output, (x,))


def test_a_hidden_size_of_zero_warns_as_torch() -> None:
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        layer = microtorch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])  # 8 // 4**2 = 0
    assert layer.tail[1][0].weight.shape == (0, 8)


def test_repr_and_parameter_names_match_torch(torch_module) -> None:
    got, want = _pair(torch_module, 8, 10, [3, 6], head_bias=True)
    assert repr(got) == repr(want)
    assert [n for n, _ in got.named_parameters()] == [n for n, _ in want.named_parameters()]
    assert (got.cutoffs, got.shortlist_size, got.n_clusters, got.head_size) == (
        want.cutoffs,
        want.shortlist_size,
        want.n_clusters,
        want.head_size,
    )
    out = got(microtorch.zeros(1, 8, dtype=microtorch.float64), microtorch.tensor([0]))
    assert repr(out).startswith("_ASMoutput(output=tensor([")


def test_weights_are_drawn_in_pytorchs_order() -> None:
    microtorch.manual_seed(5)
    layer = microtorch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=True)
    microtorch.manual_seed(5)
    by_hand = [
        microtorch.nn.Linear(8, 5),
        microtorch.nn.Linear(8, 4, bias=False),
        microtorch.nn.Linear(4, 3, bias=False),
        microtorch.nn.Linear(8, 2, bias=False),
        microtorch.nn.Linear(2, 4, bias=False),
    ]
    want = [p for m in by_hand for p in m.parameters()]
    assert all(
        np.array_equal(a.detach().numpy(), b.detach().numpy())
        for a, b in zip(layer.parameters(), want)
    )
    layer.reset_parameters()
    assert not np.array_equal(layer.head.weight.detach().numpy(), want[0].detach().numpy())


ERRORS = {
    "no cutoffs": lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(4, 10, []),
    "unsorted": lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [5, 3]),
    "zero cutoff": lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [0, 3]),
    "cutoff n_classes": lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3, 10]),
    "repeated": lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3, 3]),
    "fraction": lambda L: L.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [2.5, 3]),
    "target too big": lambda L: _layer(L)(L.ones(2, 4), L.tensor([1, 10])),
    "target negative": lambda L: _layer(L)(L.ones(2, 4), L.tensor([-1, 3])),
    "batch sizes": lambda L: _layer(L)(L.ones(3, 4), L.tensor([1, 3])),
    "3-d input": lambda L: _layer(L)(L.ones(2, 4, 1), L.tensor([1, 3])),
    "0-d target": lambda L: _layer(L)(L.ones(2, 4), L.tensor(1)),
    "2-d target": lambda L: _layer(L)(L.ones(2, 4), L.tensor([[1, 3]])),
    "float target": lambda L: _layer(L)(L.ones(2, 4), L.tensor([1.0, 3.0])),
    "features": lambda L: _layer(L)(L.ones(2, 5), L.tensor([1, 3])),
    "log_prob 1-d": lambda L: _layer(L).log_prob(L.ones(4)),
}


def _layer(L: ModuleType) -> Any:
    return L.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3, 6], div_value=2.0)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(torch_module, name) -> None:
    with pytest.raises(Exception) as want:
        ERRORS[name](torch_module)
    with pytest.raises(want.type) as got:
        ERRORS[name](microtorch)
    text = str(want.value).split("\n")[0].replace("torch.Size", "microtorch.Size")
    assert str(got.value).startswith(text)

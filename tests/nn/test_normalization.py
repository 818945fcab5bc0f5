"""``BatchNorm1d``/``BatchNorm2d``, ``LayerNorm``, ``GELU`` and ``Dropout2d`` (and their
functional forms) against PyTorch 2.13: values, graphs, gradients, running statistics over
several training steps, eval mode, buffers and state_dict, finite differences, errors."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
import microtorch.nn as nn
import microtorch.nn.functional as F
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.layer_parity import compare_call, compare_layer, copy_state, error_of, run

RNG = np.random.default_rng(11)
X4 = (RNG.standard_normal((4, 3, 5, 6)) * 2 + 1).astype(np.float32)
X2 = (RNG.standard_normal((8, 5)) * 3 - 2).astype(np.float32)
X3 = RNG.standard_normal((4, 5, 7)).astype(np.float32)

BATCH_NORM: dict[str, tuple[str, dict[str, Any], np.ndarray]] = {
    "2d": ("BatchNorm2d", {}, X4),
    "2d_momentum_eps": ("BatchNorm2d", dict(momentum=0.3, eps=1e-3), X4),
    "2d_cumulative": ("BatchNorm2d", dict(momentum=None), X4),
    "2d_no_affine": ("BatchNorm2d", dict(affine=False), X4),
    "2d_no_bias": ("BatchNorm2d", dict(bias=False), X4),
    "2d_no_running_stats": ("BatchNorm2d", dict(track_running_stats=False), X4),
    "2d_float64": ("BatchNorm2d", dict(dtype="float64"), X4.astype(np.float64)),
    "1d": ("BatchNorm1d", {}, X2),
    "1d_3d_input": ("BatchNorm1d", dict(momentum=0.5), X3),
    "1d_no_affine_no_stats": ("BatchNorm1d", dict(affine=False, track_running_stats=False), X2),
}


def _make(cls_name: str, kwargs: dict[str, Any], first: int) -> Any:
    def make(lib: ModuleType) -> Any:
        args = dict(kwargs)
        if "dtype" in args:
            args["dtype"] = getattr(lib, args["dtype"])
        return getattr(lib.nn, cls_name)(first, **args)

    return make


@pytest.mark.parametrize("name", list(BATCH_NORM))
def test_batch_norm_training_steps_match_torch(torch_module: ModuleType, name: str) -> None:
    cls_name, kwargs, x = BATCH_NORM[name]
    make = _make(cls_name, kwargs, x.shape[1])
    compare_layer(torch_module, make, x, steps=3, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", list(BATCH_NORM))
def test_batch_norm_eval_after_training_matches_torch(torch_module: ModuleType, name: str) -> None:
    cls_name, kwargs, x = BATCH_NORM[name]
    make = _make(cls_name, kwargs, x.shape[1])
    theirs_layer, mine_layer = make(torch_module), make(microtorch)
    with torch_module.no_grad():  # non-trivial weights and a few batches of statistics first
        if theirs_layer.weight is not None:
            theirs_layer.weight.uniform_(0.5, 1.5)
        if theirs_layer.bias is not None:
            theirs_layer.bias.uniform_(-1, 1)
        for step in range(3):
            theirs_layer(torch_module.tensor(x * (step + 1)))
    copy_state(theirs_layer, mine_layer)
    theirs_layer.eval()
    mine_layer.eval()
    mine = run(microtorch, mine_layer, x[::-1].copy() * 0.5)
    theirs = run(torch_module, theirs_layer, x[::-1].copy() * 0.5)
    from tests.nn.layer_parity import assert_same

    assert_same(mine, theirs, rtol=1e-5, atol=1e-5)


def test_running_statistics_formula() -> None:
    layer = nn.BatchNorm1d(2, momentum=0.25)
    x = microtorch.tensor([[1.0, 10.0], [3.0, 20.0], [8.0, 0.0]])
    layer(x)
    data = x.numpy()
    np.testing.assert_allclose(layer.running_mean.numpy(), 0.25 * data.mean(0), rtol=1e-6)
    unbiased = data.var(0, ddof=1)  # stored: the unbiased variance, as PyTorch does
    np.testing.assert_allclose(layer.running_var.numpy(), 0.75 + 0.25 * unbiased, rtol=1e-6)
    assert (
        layer.num_batches_tracked.item() == 1
        and layer.num_batches_tracked.dtype is microtorch.int64
    )
    before = layer.running_mean._version
    layer(x)
    assert layer.running_mean._version > before  # updated in place, as PyTorch's kernel does
    layer.eval()
    layer(x)
    assert layer.num_batches_tracked.item() == 2  # eval leaves the statistics alone


def test_buffers_and_state_dict_keys_match_torch(torch_module: ModuleType) -> None:
    for args in [dict(), dict(affine=False), dict(track_running_stats=False), dict(bias=False)]:
        mine, theirs = nn.BatchNorm2d(6, **args), torch_module.nn.BatchNorm2d(6, **args)
        assert list(mine.state_dict()) == list(theirs.state_dict())
        assert [n for n, _ in mine.named_buffers()] == [n for n, _ in theirs.named_buffers()]
        assert [n for n, _ in mine.named_parameters()] == [n for n, _ in theirs.named_parameters()]
        assert repr(mine) == repr(theirs)
    mine = nn.BatchNorm2d(6)
    assert mine.running_mean.tolist() == [0.0] * 6 and mine.running_var.tolist() == [1.0] * 6
    assert not mine.running_mean.requires_grad
    assert repr(nn.BatchNorm2d(6)) == (
        "BatchNorm2d(6, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"
    )
    double = nn.BatchNorm1d(3).double()
    assert double.running_var.dtype is microtorch.float64
    assert double.num_batches_tracked.dtype is microtorch.int64
    mine.running_mean.fill_(3.0)
    mine.num_batches_tracked.add_(5)
    mine.reset_running_stats()
    assert mine.running_mean.tolist() == [0.0] * 6 and mine.num_batches_tracked.item() == 0


def test_state_dict_round_trip_from_torch(torch_module: ModuleType) -> None:
    theirs = torch_module.nn.BatchNorm2d(3)
    theirs(torch_module.tensor(X4))
    mine = nn.BatchNorm2d(3)
    copy_state(theirs, mine)
    np.testing.assert_allclose(mine.running_var.numpy(), theirs.running_var.numpy())
    assert mine.num_batches_tracked.item() == 1


BN_FUNCTIONAL = {
    "batch_stats": lambda L, x: L.nn.functional.batch_norm(x, None, None, training=True),
    "affine_batch_stats": lambda L, x: L.nn.functional.batch_norm(
        x, None, None, L.tensor([0.5, 2.0, -1.0]), L.tensor([0.1, 0.2, 0.3]), True
    ),
    "running_stats": lambda L, x: L.nn.functional.batch_norm(
        x, L.tensor([0.5, -1.0, 2.0]), L.tensor([1.5, 0.5, 4.0]), L.tensor([0.5, 2.0, -1.0])
    ),
    "weight_grad": lambda L, x: L.nn.functional.batch_norm(
        x, None, None, L.tensor([0.5, 2.0, -1.0], requires_grad=True), None, True, eps=1e-3
    ),
}


@pytest.mark.parametrize("name", list(BN_FUNCTIONAL))
def test_batch_norm_functional_matches_torch(torch_module: ModuleType, name: str) -> None:
    compare_call(torch_module, BN_FUNCTIONAL[name], X4, atol=1e-5)


def test_functional_batch_norm_updates_the_running_statistics(torch_module: ModuleType) -> None:
    stats = []
    for lib in (microtorch, torch_module):
        mean, var = lib.zeros(3), lib.ones(3)
        lib.nn.functional.batch_norm(lib.tensor(X4), mean, var, training=True, momentum=0.2)
        stats.append((mean.numpy(), var.numpy()))
    np.testing.assert_allclose(stats[0][0], stats[1][0], rtol=1e-5)
    np.testing.assert_allclose(stats[0][1], stats[1][1], rtol=1e-5)


LAYER_NORM: dict[str, tuple[Any, dict[str, Any], np.ndarray]] = {
    "last_dim": (6, {}, X4),
    "last_two": ((5, 6), {}, X4),
    "last_three": ([3, 5, 6], dict(eps=1e-3), X4),
    "no_affine": (7, dict(elementwise_affine=False), X3),
    "no_bias": (5, dict(bias=False), X2),
    "vector": (5, {}, X2[0]),
    "float64": ((5, 7), dict(dtype="float64"), X3.astype(np.float64)),
}


@pytest.mark.parametrize("name", list(LAYER_NORM))
def test_layer_norm_matches_torch(torch_module: ModuleType, name: str) -> None:
    shape, kwargs, x = LAYER_NORM[name]

    def make(lib: ModuleType) -> Any:
        layer = lib.nn.LayerNorm(
            shape, **{k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
        )
        with lib.no_grad():  # weights other than the default ones and zeros
            for p in layer.parameters():
                p.copy_(lib.linspace(-1.5, 2.0, p.numel()).view(p.shape).to(p.dtype))
        return layer

    compare_layer(torch_module, make, x, rtol=1e-5, atol=1e-5)


def test_layer_norm_functional_and_module_details(torch_module: ModuleType) -> None:
    w = np.linspace(0.5, 1.5, 6).astype(np.float32)
    compare_call(
        torch_module,
        lambda L, x: L.nn.functional.layer_norm(x, (6,), L.tensor(w), None, 1e-4),
        X4,
    )
    for args in [(8,), ((4, 8),), (8, 1e-5, False), (8, 1e-5, True, False)]:
        mine, theirs = nn.LayerNorm(*args), torch_module.nn.LayerNorm(*args)
        assert repr(mine) == repr(theirs)
        assert list(mine.state_dict()) == list(theirs.state_dict())
    layer = nn.LayerNorm(4)
    assert layer.weight.tolist() == [1.0] * 4 and layer.bias.tolist() == [0.0] * 4


GELU_X = np.concatenate([np.linspace(-12, 12, 97), RNG.standard_normal(40) * 3]).astype(np.float32)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gelu_matches_torch(torch_module: ModuleType, approximate: str, dtype: Any) -> None:
    x = GELU_X.astype(dtype)
    tol = 1e-6 if dtype == np.float32 else 1e-12
    compare_layer(torch_module, lambda lib: lib.nn.GELU(approximate), x, rtol=tol, atol=tol)
    compare_call(
        torch_module, lambda L, t: L.nn.functional.gelu(t, approximate=approximate), x,
        rtol=tol, atol=tol,
    )  # fmt: skip


def test_gelu_repr_and_erf() -> None:
    import math

    from microtorch.ops.special import erf64 as erf

    assert repr(nn.GELU()) == "GELU(approximate='none')"
    assert repr(nn.GELU("tanh")) == "GELU(approximate='tanh')"
    values = np.array([-3.0, -0.5, 0.0, 1e-9, 0.7, 5.0, np.inf, -np.inf])
    assert erf(values).tolist() == [math.erf(v) for v in values]
    assert np.isnan(erf(np.array([np.nan]))[0])


def test_dropout2d_zeroes_whole_channels_with_the_seeded_generator() -> None:
    microtorch.manual_seed(0)
    layer = nn.Dropout2d(p=0.4)
    x = microtorch.ones(16, 32, 3, 4, requires_grad=True)
    y = layer(x)
    values = y.detach().numpy()
    per_channel = values.reshape(16, 32, -1)
    assert np.all(per_channel.min(-1) == per_channel.max(-1))  # a channel is all kept or all 0
    np.testing.assert_allclose(np.unique(values), [0.0, 1 / 0.6], rtol=1e-6)
    assert abs((per_channel[..., 0] == 0).mean() - 0.4) < 0.05
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), values)
    microtorch.manual_seed(0)
    np.testing.assert_array_equal(nn.Dropout2d(p=0.4)(x).detach().numpy(), values)  # repeatable
    layer.eval()
    assert layer(x) is x
    assert F.dropout2d(x, 0.0) is x
    assert F.dropout2d(x, 1.0).abs().sum().item() == 0
    assert repr(nn.Dropout2d(0.2, True)) == "Dropout2d(p=0.2, inplace=True)"


def test_dropout2d_inplace_and_graph_match_torch(torch_module: ModuleType) -> None:
    from tests.nn.cases import graph

    def names(lib: ModuleType, inplace: bool, p: float) -> list[str]:
        x = lib.ones(2, 3, 4, 4, requires_grad=True)
        return graph(lib.nn.functional.dropout2d(x * 1, p, inplace=inplace))

    for inplace in (False, True):
        for p in (0.5, 1.0):
            assert names(microtorch, inplace, p) == names(torch_module, inplace, p)


def test_dropout2d_warnings_match_torch(torch_module: ModuleType) -> None:
    for shape in [(3, 4, 5), (2, 3), (2, 3, 4, 5, 6)]:
        messages = []
        for lib in (microtorch, torch_module):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = lib.nn.functional.dropout2d(lib.ones(*shape), 0.5)
            messages.append([str(w.message) for w in caught])
            assert tuple(out.shape) == shape
        assert messages[0] == messages[1] and messages[0]
    microtorch.manual_seed(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = F.dropout2d(microtorch.ones(6, 50, 7), 0.5)  # 3-D: channels of an (N, C, L) input
    rows = y.numpy()
    assert np.all(rows.min(-1) == rows.max(-1))


def test_gradcheck() -> None:
    def f64(*shape: int, seed: int = 0) -> Any:
        data = np.random.default_rng(seed).standard_normal(shape)
        return microtorch.tensor(data, dtype=microtorch.float64, requires_grad=True)

    x, w, b = f64(4, 3, 2, 2), f64(3, seed=1), f64(3, seed=2)
    assert gradcheck(lambda x, w, b: F.batch_norm(x, None, None, w, b, True), (x, w, b))
    mean, var = microtorch.zeros(3, dtype=microtorch.float64), microtorch.ones(3).double()
    assert gradcheck(lambda x, w, b: F.batch_norm(x, mean, var, w, b, False), (x, w, b))
    y, w2, b2 = f64(2, 3, 4), f64(3, 4, seed=3), f64(3, 4, seed=4)
    assert gradcheck(lambda y, w, b: F.layer_norm(y, (3, 4), w, b), (y, w2, b2))
    assert gradcheck(lambda y: F.layer_norm(y, (4,)), (y,))
    z = f64(20)
    assert gradcheck(F.gelu, (z,))
    assert gradcheck(lambda z: F.gelu(z, approximate="tanh"), (z,))


def _errors(lib: ModuleType) -> list[Any]:
    f = lib.nn.functional
    bn, bn1 = lib.nn.BatchNorm2d(3), lib.nn.BatchNorm1d(3)
    ln = lib.nn.LayerNorm(8)
    return [
        lambda: bn(lib.ones(2, 3, 4)),
        lambda: bn(lib.ones(2, 4, 4, 4)),
        lambda: bn1(lib.ones(2, 3, 4, 4)),
        lambda: bn1(lib.ones(3)),
        lambda: bn1(lib.ones(2, 4)),
        lambda: bn1(lib.ones(1, 3)),
        lambda: bn(lib.ones(1, 3, 1, 1)),
        lambda: bn(lib.ones(2, 3, 4, 4).double()),
        lambda: f.batch_norm(lib.ones(2, 3), lib.zeros(4), lib.ones(4)),
        lambda: f.batch_norm(lib.ones(2, 3), None, None),
        lambda: f.batch_norm(lib.ones(4, 3), None, None, lib.ones(4), training=True),
        lambda: f.batch_norm(lib.ones(4, 3), None, None, None, lib.ones(4), training=True),
        lambda: f.batch_norm(lib.ones(4, 3), lib.zeros(3), None, training=True),
        lambda: f.batch_norm(lib.ones(4, 3), lib.zeros(3), lib.ones(4), training=True),
        lambda: f.batch_norm(lib.ones(4), None, None, training=True),
        lambda: f.batch_norm(lib.ones(4, 3), None, None, training=True, eps=0.0),
        lambda: ln(lib.ones(2, 7)),
        lambda: lib.nn.LayerNorm((4, 8))(lib.ones(2, 8)),
        lambda: lib.nn.LayerNorm((4, 8))(lib.ones(8)),
        lambda: f.layer_norm(lib.ones(2, 8), (8,), lib.ones(7)),
        lambda: f.layer_norm(lib.ones(2, 8), (8,), None, lib.ones(7)),
        lambda: f.layer_norm(lib.ones(2, 8), 8),
        lambda: f.layer_norm(lib.ones(2, 8).double(), (8,), lib.ones(8)),
        lambda: lib.nn.GELU("foo")(lib.ones(3)),
        lambda: f.gelu(lib.ones(3), approximate="foo"),
        lambda: f.gelu(lib.ones(3).long()),
        lambda: f.gelu([1.0]),
        lambda: lib.nn.Dropout2d(1.5),
        lambda: f.dropout2d(lib.ones(3, 4, 5), -0.1),
        lambda: f.dropout2d(lib.ones(3)),
        lambda: f.batch_norm(lib.ones(5, 2, 5).long(), None, None, training=True),
        lambda: f.layer_norm(lib.ones(5, 10).long(), (10,)),
    ]


def test_error_messages_match_torch(torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = [error_of(c) for c in _errors(microtorch)]
        theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"case {i}"


def test_an_empty_batch_records_torchs_graph_and_keeps_the_statistics(
    torch_module: ModuleType,
) -> None:
    from tests.nn.cases import graph

    results = []
    for lib in (microtorch, torch_module):
        layer = lib.nn.BatchNorm2d(3)
        x = lib.ones(0, 3, 2, 2, requires_grad=True)
        out = layer(x)
        out.sum().backward()
        results.append((graph(out), tuple(out.shape), layer.running_mean.tolist()))
    assert results[0] == results[1]


def test_second_derivatives_of_batch_and_layer_norm_by_finite_differences() -> None:
    # The backward formulas recompute the statistics from x, so with create_graph=True the
    # gradient is a function of x through them too (it was not: the check failed).
    rng = np.random.default_rng(4)
    x = microtorch.tensor(rng.standard_normal((3, 4, 2)), requires_grad=True)
    w = microtorch.tensor(rng.standard_normal(4), requires_grad=True)
    b = microtorch.tensor(rng.standard_normal(4), requires_grad=True)
    rm, rv = microtorch.tensor(rng.standard_normal(4)), microtorch.tensor(rng.random(4) + 0.5)
    assert gradgradcheck(lambda x: F.layer_norm(x, (2,)), (x,))
    assert gradgradcheck(lambda x, w: F.layer_norm(x.transpose(1, 2), (4,), w), (x, w))
    assert gradgradcheck(lambda x, w, b: F.batch_norm(x, None, None, w, b, True), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.batch_norm(x, rm, rv, w, b, False), (x, w, b))

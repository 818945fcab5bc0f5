"""``MaxPool1d``, ``AvgPool1d``, ``AdaptiveAvgPool1d``, ``AdaptiveMaxPool1d``/``2d`` and
their functional forms against PyTorch 2.13: values, graphs, gradients, indices, reprs,
second derivatives, finite differences and errors."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.layer_parity import compare_call, compare_layer, error_of

RNG = np.random.default_rng(7)
X1 = RNG.standard_normal((2, 3, 11)).astype(np.float32)
X2 = RNG.standard_normal((2, 3, 7, 9)).astype(np.float32)
TIES1 = RNG.integers(0, 3, (2, 3, 10)).astype(np.float32)
TIES2 = RNG.integers(0, 3, (2, 2, 7, 6)).astype(np.float32)

LAYERS: dict[str, tuple[Any, np.ndarray]] = {
    "max1d": (lambda L: L.nn.MaxPool1d(2), X1),
    "max1d_all": (lambda L: L.nn.MaxPool1d(3, 2, 1, 2, ceil_mode=True), X1),
    "max1d_ties": (lambda L: L.nn.MaxPool1d(3, 1), TIES1),
    "max1d_unbatched": (lambda L: L.nn.MaxPool1d(3, 2), X1[0]),
    "max1d_f64": (lambda L: L.nn.MaxPool1d(4, 3, 2, ceil_mode=True), X1.astype(np.float64)),
    "avg1d": (lambda L: L.nn.AvgPool1d(2), X1),
    "avg1d_pad": (lambda L: L.nn.AvgPool1d(3, 2, 1, ceil_mode=True), X1),
    "avg1d_exclude": (lambda L: L.nn.AvgPool1d(4, 3, 2, True, False), X1),
    "avg1d_unbatched": (lambda L: L.nn.AvgPool1d(3), X1[1]),
    "aavg1d": (lambda L: L.nn.AdaptiveAvgPool1d(4), X1),
    "aavg1d_global": (lambda L: L.nn.AdaptiveAvgPool1d(1), X1),
    "aavg1d_up": (lambda L: L.nn.AdaptiveAvgPool1d(15), X1[0]),
    "amax1d": (lambda L: L.nn.AdaptiveMaxPool1d(4), X1),
    "amax1d_ties": (lambda L: L.nn.AdaptiveMaxPool1d(3), TIES1),
    "amax1d_unbatched": (lambda L: L.nn.AdaptiveMaxPool1d(5), X1[0]),
    "amax2d": (lambda L: L.nn.AdaptiveMaxPool2d(3), X2),
    "amax2d_uneven": (lambda L: L.nn.AdaptiveMaxPool2d((4, 5)), X2),
    "amax2d_none": (lambda L: L.nn.AdaptiveMaxPool2d((None, 2)), X2),
    "amax2d_up": (lambda L: L.nn.AdaptiveMaxPool2d((9, 11)), X2),
    "amax2d_ties": (lambda L: L.nn.AdaptiveMaxPool2d((3, 4)), TIES2),
    "amax2d_unbatched": (lambda L: L.nn.AdaptiveMaxPool2d(2), X2[0]),
    "amax2d_global": (lambda L: L.nn.AdaptiveMaxPool2d(1), X2.astype(np.float64)),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layers_match_torch(torch_module: ModuleType, name: str) -> None:
    make, x = LAYERS[name]
    compare_layer(torch_module, make, x, rtol=1e-5, atol=1e-6)


def _f(lib: Any) -> Any:
    return lib.nn.functional


INDICES = {
    "max1d": lambda L, x: _f(L).max_pool1d(x, 3, 2, 1, return_indices=True),
    "max1d_dil": lambda L, x: _f(L).max_pool1d(x, 2, 1, 0, 3, True, True),
    "max1d_unbatched": lambda L, x: _f(L).max_pool1d(x[0], 3, return_indices=True),
    "amax1d": lambda L, x: _f(L).adaptive_max_pool1d(x, 4, return_indices=True),
    "amax2d": lambda L, x: _f(L).adaptive_max_pool2d(x.unsqueeze(2), (1, 4), True),
    "amax2d_module": lambda L, x: L.nn.AdaptiveMaxPool2d((1, 3), True)(x.unsqueeze(2)),
}


@pytest.mark.parametrize("name", list(INDICES))
def test_indices_match_torch(torch_module: ModuleType, name: str) -> None:
    for x in (X1, TIES1):
        compare_call(torch_module, lambda L, t: INDICES[name](L, t)[0], x)
        mine = INDICES[name](microtorch, microtorch.tensor(x))[1]
        theirs = INDICES[name](torch_module, torch_module.tensor(x))[1]
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
        assert mine.dtype is microtorch.int64 and not mine.requires_grad


def test_adaptive_max_with_nan_and_minus_inf_as_torch(torch_module: ModuleType) -> None:
    x = X2[:1, :1].copy()
    x[0, 0, 0, 1] = x[0, 0, 1, 2] = np.nan  # two NaNs in one window: PyTorch reports the last
    x[0, 0, 4:, 5:] = -np.inf
    results = []
    for lib in (microtorch, torch_module):
        t = lib.tensor(x, requires_grad=True)
        out, index = _f(lib).adaptive_max_pool2d(t, (3, 3), return_indices=True)
        out.backward(lib.ones_like(out))
        results.append((out.detach().numpy(), index.numpy(), t.grad.numpy()))
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


def test_integer_inputs_as_torch(torch_module: ModuleType) -> None:
    x = RNG.integers(-50, 50, (2, 3, 9))
    for call in (
        lambda L, t: _f(L).max_pool1d(t, 2, return_indices=True)[0],
        lambda L, t: _f(L).max_pool1d(t, 3, 2, 1, return_indices=True)[1],
        lambda L, t: _f(L).avg_pool1d(t, 2, padding=1),
        lambda L, t: _f(L).avg_pool1d(t, 3, 2, 1, True, False),
        lambda L, t: _f(L).adaptive_avg_pool1d(t, 0),
        lambda L, t: _f(L).max_pool1d(t[:0], 2, return_indices=True)[0],
    ):
        mine = call(microtorch, microtorch.tensor(x))
        theirs = call(torch_module, torch_module.tensor(x))
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
        assert str(mine.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]


def test_edge_shapes_match_torch(torch_module: ModuleType) -> None:
    for call in (
        lambda L: _f(L).max_pool1d(L.ones(0, 3, 8), 2),
        lambda L: _f(L).max_pool1d(L.ones(0, 3, 8, requires_grad=True), 2),
        lambda L: _f(L).max_pool1d(L.ones(0, 3, 8), 2, return_indices=True)[1],
        lambda L: _f(L).avg_pool1d(L.ones(0, 3, 8), 2),
        lambda L: _f(L).adaptive_avg_pool1d(L.ones(0, 3, 8), 2),
        lambda L: _f(L).adaptive_avg_pool1d(L.ones(2, 3, 8), 0),
        lambda L: _f(L).adaptive_max_pool1d(L.ones(2, 3, 8), 0),
        lambda L: _f(L).adaptive_max_pool1d(L.ones(0, 3, 8), 2),
        lambda L: _f(L).adaptive_max_pool2d(L.ones(1, 2, 3, 8), 0),
        lambda L: _f(L).adaptive_max_pool2d(L.ones(0, 2, 3, 8), 2),
        lambda L: _f(L).max_pool1d(L.ones(3, 1), 1),
        lambda L: _f(L).adaptive_max_pool2d(L.ones(1, 1, 1, 1), 1),
    ):
        assert tuple(call(microtorch).shape) == tuple(call(torch_module).shape)


def _errors(lib: ModuleType) -> list[Any]:
    f = _f(lib)
    x = lib.randn(2, 3, 8)
    x4 = lib.randn(1, 2, 3, 8)
    return [
        lambda: f.max_pool1d(lib.randn(8), 2),
        lambda: f.max_pool1d(x4, 2),
        lambda: f.max_pool1d(x, 0),
        lambda: f.max_pool1d(x, (2, 2)),
        lambda: f.max_pool1d(x, 2, (1, 1)),
        lambda: f.max_pool1d(x, 2, 1, (1, 1)),
        lambda: f.max_pool1d(x, 2, 1, 0, (1, 1)),
        lambda: f.max_pool1d(x, 2, 1, -1),
        lambda: f.max_pool1d(x, 2, padding=2),
        lambda: f.max_pool1d(x, 2, stride=0),
        lambda: f.max_pool1d(x, 2, dilation=0),
        lambda: f.max_pool1d(lib.randn(1, 2, 2), 3),
        lambda: f.max_pool1d(lib.randn(1, 2, 2, requires_grad=True), 3),
        lambda: f.max_pool1d(x, 2.0),
        lambda: f.max_pool1d(x > 0, 2),
        lambda: f.max_pool1d(lib.arange(8).view(1, 1, 8), 2),
        lambda: f.max_pool1d(lib.randn(2, 3, 0), 2),
        lambda: f.max_pool1d(lib.randn(2, 0, 8), 2),
        lambda: f.max_pool1d([1.0, 2.0], 2),
        lambda: f.max_pool1d(lib.randn(2, 3, 0), 2, return_indices=True),
        lambda: f.max_pool1d(lib.randn(8), 2, return_indices=True),
        lambda: f.max_pool1d(lib.randn(1, 2, 2), 3, return_indices=True),
        lambda: f.max_pool1d(x > 0, 2, return_indices=True),
        lambda: f.max_pool1d(x, 2, padding=2, return_indices=True),
        lambda: f.max_pool1d(x, 0, return_indices=True),
        lambda: f.max_pool1d(x, (2, 2), return_indices=True),
        lambda: f.max_pool1d(lib.randn(2, 0, 8), 2, return_indices=True),
        lambda: f.avg_pool1d(lib.randn(8), 2),
        lambda: f.avg_pool1d(x4, 2),
        lambda: f.avg_pool1d(x, 0),
        lambda: f.avg_pool1d(x, 0, 1),
        lambda: f.avg_pool1d(x, 2, padding=2),
        lambda: f.avg_pool1d(x, 2, 1, -1),
        lambda: f.avg_pool1d(lib.randn(1, 2, 2), 3),
        lambda: f.avg_pool1d(x, (2, 2)),
        lambda: f.avg_pool1d(x, 2, (1, 1)),
        lambda: f.avg_pool1d(x, 2, 1, (1, 1)),
        lambda: f.avg_pool1d(lib.randn(8), (2, 2)),
        lambda: f.avg_pool1d(x > 0, 2),
        lambda: f.avg_pool1d(lib.randn(2, 3, 0), 2),
        lambda: f.avg_pool1d(lib.randn(2, 0, 8), 2),
        lambda: f.avg_pool1d([1.0, 2.0], 2),
        lambda: f.avg_pool1d(x, 2.0),
        lambda: f.adaptive_avg_pool1d(lib.randn(8), 2),
        lambda: f.adaptive_avg_pool1d(x4, 2),
        lambda: f.adaptive_avg_pool1d(x, -1),
        lambda: f.adaptive_avg_pool1d(x, (2, 2)),
        lambda: f.adaptive_avg_pool1d(lib.arange(8).view(1, 1, 8), 2),
        lambda: f.adaptive_avg_pool1d(lib.arange(8).view(1, 1, 8), 1),
        lambda: f.adaptive_avg_pool1d(lib.randn(2, 3, 0), 2),
        lambda: f.adaptive_avg_pool1d(x, None),
        lambda: f.adaptive_avg_pool1d(x, 2.0),
        lambda: f.adaptive_max_pool1d(lib.randn(8), 2),
        lambda: f.adaptive_max_pool1d(x4, 2),
        lambda: f.adaptive_max_pool1d(x, (2, 2)),
        lambda: f.adaptive_max_pool1d(x, None),
        lambda: f.adaptive_max_pool1d(x, -1),
        lambda: f.adaptive_max_pool1d(lib.randn(2, 3, 0), 2),
        lambda: f.adaptive_max_pool1d(x > 0, 2),
        lambda: f.adaptive_max_pool1d(lib.arange(8).view(1, 1, 8), 2),
        lambda: f.adaptive_max_pool2d(lib.randn(8), 2),
        lambda: f.adaptive_max_pool2d(lib.randn(3, 8), 2),
        lambda: f.adaptive_max_pool2d(lib.randn(1, 1, 2, 3, 8), 2),
        lambda: f.adaptive_max_pool2d(x4, -1),
        lambda: f.adaptive_max_pool2d(x4, (1, 2, 3)),
        lambda: f.adaptive_max_pool2d(x, (2,)),
        lambda: f.adaptive_max_pool2d(lib.arange(16).view(1, 1, 4, 4), 2),
        lambda: f.adaptive_max_pool2d(lib.ones(1, 1, 4, 4).bool(), 2),
        lambda: f.adaptive_max_pool2d(lib.randn(1, 2, 0, 8), 2),
        lambda: f.adaptive_max_pool2d(lib.randn(1, 0, 3, 8), 2),
        lambda: f.adaptive_max_pool2d(x4, 2.0),
        lambda: f.adaptive_max_pool2d([1.0], 2),
        lambda: f.adaptive_max_pool2d(lib.randn(3), (2, 2)),
    ]


def test_error_messages_match_torch(torch_module: ModuleType) -> None:
    mine = [error_of(c) for c in _errors(microtorch)]
    theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"case {i}"


def test_reprs_match_torch(torch_module: ModuleType) -> None:
    for make in (
        lambda L: L.nn.MaxPool1d(2),
        lambda L: L.nn.MaxPool1d(3, 2, 1, 2, True, True),
        lambda L: L.nn.AvgPool1d(2),
        lambda L: L.nn.AvgPool1d(3, 2, 1, True, False),
        lambda L: L.nn.AdaptiveAvgPool1d(3),
        lambda L: L.nn.AdaptiveMaxPool1d(3, True),
        lambda L: L.nn.AdaptiveMaxPool2d((None, 2)),
    ):
        mine, theirs = make(microtorch), make(torch_module)
        assert repr(mine) == repr(theirs)
        assert list(mine.state_dict()) == list(theirs.state_dict()) == []
        assert vars(mine).keys() >= {k for k in vars(theirs) if not k.startswith("_")}


def _f64(*shape: int) -> Any:
    data = np.random.default_rng(0).permutation(np.prod(shape)).reshape(shape) / 7.0  # no ties
    return microtorch.tensor(data, dtype=microtorch.float64, requires_grad=True)


GRAD_CASES = [
    lambda x: microtorch.nn.functional.max_pool1d(x, 3, 2, 1),
    lambda x: microtorch.nn.functional.max_pool1d(x, 2, 1, dilation=2, ceil_mode=True),
    lambda x: microtorch.nn.functional.avg_pool1d(x, 3, 2, 1, True, False),
    lambda x: microtorch.nn.functional.adaptive_avg_pool1d(x, 4),
    lambda x: microtorch.nn.functional.adaptive_max_pool1d(x, 4),
    lambda x: microtorch.nn.functional.adaptive_max_pool2d(x.view(2, 2, 3, 3), (2, 2)),
]


@pytest.mark.parametrize("call", GRAD_CASES)
def test_gradcheck_and_gradgradcheck(call: Any) -> None:
    x = _f64(2, 2, 9)
    assert gradcheck(call, (x,))
    assert gradgradcheck(call, (x,))


SECOND = {
    "max_pool1d": lambda L, x: _f(L).max_pool1d(x, 3, 2, 1) ** 2,
    "avg_pool1d": lambda L, x: _f(L).avg_pool1d(x, 3, 2, 1, True, False) ** 2,
    "adaptive_avg_pool1d": lambda L, x: _f(L).adaptive_avg_pool1d(x, 4) ** 2,
    "adaptive_avg_pool1d_global": lambda L, x: _f(L).adaptive_avg_pool1d(x, 1) ** 2,
    "adaptive_max_pool1d": lambda L, x: _f(L).adaptive_max_pool1d(x, 4) ** 2,
    "adaptive_max_pool2d": lambda L, x: _f(L).adaptive_max_pool2d(x.view(2, 2, 3, 3), 2) * 3,
}


def _tree(fn: Any, depth: int) -> Any:
    if fn is None or depth == 0:
        return None if fn is None else fn.name()
    return (fn.name(), tuple(_tree(f, depth - 1) for f, _ in fn.next_functions))


def _second(lib: Any, name: str) -> tuple[Any, list[np.ndarray]]:
    x = lib.tensor(np.random.default_rng(3).standard_normal((2, 2, 9)), dtype=lib.float64)
    x.requires_grad_(True)
    out = SECOND[name](lib, x)
    rng = np.random.default_rng(1)
    v = lib.tensor(rng.standard_normal(tuple(out.shape)), dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(out, x, v, create_graph=True)
    w = lib.tensor(rng.standard_normal(tuple(g.shape)), dtype=lib.float64)
    second = lib.autograd.grad((g * w).sum(), [x, v], allow_unused=True)
    values = [np.zeros(x.shape) if h is None else h.detach().numpy() for h in (g, *second)]
    return _tree(g.grad_fn, 3), values


@pytest.mark.parametrize("name", list(SECOND))
def test_second_derivatives_match_torch(torch_module: ModuleType, name: str) -> None:
    mine_names, mine = _second(microtorch, name)
    theirs_names, theirs = _second(torch_module, name)
    assert mine_names == theirs_names
    for m, t in zip(mine, theirs):
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-12)

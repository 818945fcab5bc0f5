"""``MaxPool2d``, ``AvgPool2d``, ``AdaptiveAvgPool2d`` and their functional forms against
PyTorch 2.13: values, recorded graphs, gradients, indices, reprs, finite differences, errors."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
import microtorch.nn as nn
import microtorch.nn.functional as F
from microtorch.autograd import gradcheck
from tests.nn.layer_parity import compare_call, compare_layer, error_of

RNG = np.random.default_rng(5)
X = RNG.standard_normal((2, 3, 9, 10)).astype(np.float32)
TIES = RNG.integers(0, 3, (2, 3, 8, 8)).astype(np.float32)  # many equal maxima in a window

MAX_POOL: dict[str, tuple[dict[str, Any], np.ndarray]] = {
    "k2": (dict(kernel_size=2), X),
    "k3_s2": (dict(kernel_size=3, stride=2), X),
    "overlap_padding": (dict(kernel_size=3, stride=1, padding=1), X),
    "rectangular": (dict(kernel_size=(2, 3), stride=(1, 2), padding=(1, 1)), X),
    "dilation": (dict(kernel_size=2, stride=1, dilation=(2, 3)), X),
    "ceil_mode": (dict(kernel_size=3, stride=2, ceil_mode=True), X),
    "ceil_mode_padding": (dict(kernel_size=4, stride=3, padding=2, ceil_mode=True), X),
    "ties": (dict(kernel_size=3, stride=1), TIES),
    "ties_k2": (dict(kernel_size=2), TIES),
    "unbatched": (dict(kernel_size=2, stride=1), X[0]),
    "float64": (dict(kernel_size=3, stride=2, padding=1), X.astype(np.float64)),
}

AVG_POOL: dict[str, tuple[dict[str, Any], np.ndarray]] = {
    "k2": (dict(kernel_size=2), X),
    "k3_s2": (dict(kernel_size=3, stride=2), X),
    "padding": (dict(kernel_size=3, stride=1, padding=1), X),
    "padding_excluded": (dict(kernel_size=3, stride=2, padding=1, count_include_pad=False), X),
    "rectangular": (dict(kernel_size=(2, 4), stride=(1, 3), padding=(1, 2)), X),
    "ceil_mode": (dict(kernel_size=3, stride=2, ceil_mode=True), X),
    "ceil_mode_padding": (dict(kernel_size=3, stride=2, padding=1, ceil_mode=True), X),
    "ceil_excluded": (
        dict(kernel_size=4, stride=3, padding=2, ceil_mode=True, count_include_pad=False),
        X,
    ),
    "divisor": (dict(kernel_size=2, stride=1, divisor_override=3), X),
    "unbatched": (dict(kernel_size=2), X[1]),
    "float64": (dict(kernel_size=2, stride=1, padding=1), X.astype(np.float64)),
}

ADAPTIVE: dict[str, tuple[Any, np.ndarray]] = {
    "global": (1, X),
    "global_pair": ((1, 1), X),
    "2x2": (2, X),
    "uneven": ((4, 3), X),
    "upsample": ((11, 13), X),
    "keep_rows": ((None, 4), X),
    "unbatched": ((3, 2), X[0]),
    "unbatched_global": (1, X[0]),
    "float64": ((5, 7), X.astype(np.float64)),
}


@pytest.mark.parametrize("name", list(MAX_POOL))
def test_max_pool2d_matches_torch(torch_module: ModuleType, name: str) -> None:
    kwargs, x = MAX_POOL[name]
    compare_layer(torch_module, lambda lib: lib.nn.MaxPool2d(**kwargs), x)


@pytest.mark.parametrize("name", list(AVG_POOL))
def test_avg_pool2d_matches_torch(torch_module: ModuleType, name: str) -> None:
    kwargs, x = AVG_POOL[name]
    compare_layer(torch_module, lambda lib: lib.nn.AvgPool2d(**kwargs), x, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(ADAPTIVE))
def test_adaptive_avg_pool2d_matches_torch(torch_module: ModuleType, name: str) -> None:
    size, x = ADAPTIVE[name]
    compare_layer(torch_module, lambda lib: lib.nn.AdaptiveAvgPool2d(size), x, atol=1e-6)


FUNCTIONAL = {
    "max_pool2d": lambda L, x: L.nn.functional.max_pool2d(x, 2, 1, 1),
    "max_pool2d_indices": lambda L, x: L.nn.functional.max_pool2d(x, 3, 2, return_indices=True)[0],
    "avg_pool2d": lambda L, x: L.nn.functional.avg_pool2d(x, (3, 2), padding=1),
    "adaptive_avg_pool2d": lambda L, x: L.nn.functional.adaptive_avg_pool2d(x, (3, 4)),
    "adaptive_global": lambda L, x: L.nn.functional.adaptive_avg_pool2d(x, 1),
    "adaptive_2d_global": lambda L, x: L.nn.functional.adaptive_avg_pool2d(x[0, 0], 1),
}


@pytest.mark.parametrize("name", list(FUNCTIONAL))
def test_functional_forms_match_torch(torch_module: ModuleType, name: str) -> None:
    compare_call(torch_module, FUNCTIONAL[name], X)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(kernel_size=3, stride=2),
        dict(kernel_size=2, stride=1, padding=1, dilation=2),
        dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    ],
)
def test_max_pool2d_indices_match_torch(torch_module: ModuleType, kwargs: dict[str, Any]) -> None:
    for x in (X, TIES):
        _, mine = F.max_pool2d(microtorch.tensor(x), return_indices=True, **kwargs)
        _, theirs = torch_module.nn.functional.max_pool2d(
            torch_module.tensor(x), return_indices=True, **kwargs
        )
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
        assert mine.dtype is microtorch.int64 and not mine.requires_grad
    layer = nn.MaxPool2d(2, return_indices=True)
    out, index = layer(microtorch.tensor(X))
    assert out.shape == index.shape == (2, 3, 4, 5)


def test_max_pool2d_with_nan_and_minus_inf_as_torch(torch_module: ModuleType) -> None:
    x = X[:1, :1, :6, :6].copy()
    x[0, 0, 0, 1] = x[0, 0, 1, 0] = np.nan  # PyTorch reports the last NaN of a window
    x[0, 0, 4:, 4:] = -np.inf  # a window of -inf only, half in the padding
    for lib in (microtorch, torch_module):
        t = lib.tensor(x, requires_grad=True)
        out, index = lib.nn.functional.max_pool2d(t, 2, 2, 1, return_indices=True)
        out.backward(lib.ones_like(out))
        if lib is microtorch:
            mine = (out.detach().numpy(), index.numpy(), t.grad.numpy())
        else:
            theirs = (out.detach().numpy(), index.numpy(), t.grad.numpy())
    for a, b in zip(mine, theirs):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", ["int64", "int32", "float32"])
@pytest.mark.parametrize(
    "kwargs",
    [
        dict(kernel_size=3, stride=1, padding=1),  # overlapping windows share winners
        dict(kernel_size=(2, 3), stride=(2, 1), padding=(1, 1), dilation=(2, 1), ceil_mode=True),
        dict(kernel_size=2),
    ],
)
def test_max_pool2d_ties_and_lowest_values_as_torch(
    torch_module: ModuleType, dtype: str, kwargs: dict[str, Any]
) -> None:
    # Windows are scanned one kernel offset at a time: ties go to the first position, a
    # window of the dtype's lowest value (the padding's) to its first position inside.
    x = RNG.integers(-3, 3, (2, 3, 7, 8)).astype(dtype)
    x[0, 0, :3, :3] = np.iinfo(dtype).min if dtype != "float32" else -np.inf
    results = []
    for lib in (microtorch, torch_module):
        t = lib.tensor(x, dtype=getattr(lib, dtype))
        out, index = lib.nn.functional.max_pool2d(t, return_indices=True, **kwargs)
        results.append((out.tolist(), index.tolist()))
    assert results[0] == results[1]


def test_pooling_integers(torch_module: ModuleType) -> None:
    x = RNG.integers(-50, 50, (1, 2, 5, 5))
    for call in (
        lambda L, t: L.nn.functional.max_pool2d(t, 2, padding=1),
        lambda L, t: L.nn.functional.avg_pool2d(t, 2, padding=1),  # divides towards zero
        lambda L, t: L.nn.functional.avg_pool2d(t, 3, 2, 1, True, False),
    ):
        mine = call(microtorch, microtorch.tensor(x))
        theirs = call(torch_module, torch_module.tensor(x))
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
        assert mine.dtype is microtorch.int64


@pytest.mark.parametrize(
    ("layer", "text"),
    [
        (
            nn.MaxPool2d(2),
            "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)",
        ),
        (
            nn.MaxPool2d((2, 3), 1, 1, ceil_mode=True),
            "MaxPool2d(kernel_size=(2, 3), stride=1, padding=1, dilation=1, ceil_mode=True)",
        ),
        (nn.AvgPool2d(2), "AvgPool2d(kernel_size=2, stride=2, padding=0)"),
        (nn.AvgPool2d(3, 2, 1), "AvgPool2d(kernel_size=3, stride=2, padding=1)"),
        (nn.AdaptiveAvgPool2d(1), "AdaptiveAvgPool2d(output_size=1)"),
        (nn.AdaptiveAvgPool2d((None, 3)), "AdaptiveAvgPool2d(output_size=(None, 3))"),
    ],
)
def test_reprs(layer: Any, text: str) -> None:
    assert repr(layer) == text
    assert list(layer.state_dict()) == []


def _f64(*shape: int) -> Any:
    data = np.random.default_rng(0).permutation(np.prod(shape)).reshape(shape) / 7.0  # no ties
    return microtorch.tensor(data, dtype=microtorch.float64, requires_grad=True)


@pytest.mark.parametrize(
    "call",
    [
        lambda x: F.max_pool2d(x, 3, 2, 1),
        lambda x: F.max_pool2d(x, (2, 3), 1, dilation=(2, 1), ceil_mode=True),
        lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
        lambda x: F.avg_pool2d(x, (2, 3), (1, 2), divisor_override=4),
        lambda x: F.adaptive_avg_pool2d(x, (3, 4)),
        lambda x: F.adaptive_avg_pool2d(x, 1),
    ],
)
def test_gradcheck(call: Any) -> None:
    assert gradcheck(call, (_f64(2, 2, 5, 6),))


def _errors(lib: ModuleType) -> list[Any]:
    f = lib.nn.functional
    x = lib.ones(1, 1, 5, 5)
    return [
        lambda: f.max_pool2d(lib.ones(5, 5), 2),
        lambda: f.max_pool2d(lib.ones(1, 1, 1, 5, 5), 2),
        lambda: f.max_pool2d(x, 2, padding=2),
        lambda: f.max_pool2d(lib.ones(1, 1, 1, 1), 2),
        lambda: f.max_pool2d(x, 0),
        lambda: f.max_pool2d(x, 0, stride=1),
        lambda: f.max_pool2d(x, 2, stride=0),
        lambda: f.max_pool2d(x, (2, 2, 2)),
        lambda: f.max_pool2d(x, 2, stride=(1, 2, 3)),
        lambda: f.max_pool2d(x, 2, padding=(1, 2, 3)),
        lambda: f.max_pool2d(x, 2, dilation=(1, 2, 3)),
        lambda: f.max_pool2d(x, 2, padding=-1),
        lambda: f.max_pool2d(x, 2, dilation=0),
        lambda: f.max_pool2d(lib.ones(1, 0, 5, 5), 2),
        lambda: lib.nn.MaxPool2d(2)(lib.ones(5, 5)),
        lambda: f.max_pool2d([1.0], 2),
        lambda: f.avg_pool2d(lib.ones(5, 5), 2),
        lambda: f.avg_pool2d(lib.ones(5), 2),
        lambda: f.avg_pool2d(lib.ones(1, 1, 1, 5, 5), 2),
        lambda: f.avg_pool2d(x, 2, padding=2),
        lambda: f.avg_pool2d(lib.ones(1, 1, 1, 1), 2),
        lambda: f.avg_pool2d(x, (2, 2, 2)),
        lambda: f.avg_pool2d(x, 2, stride=(1, 2, 3)),
        lambda: f.avg_pool2d(x, 2, padding=(1, 2, 3)),
        lambda: f.avg_pool2d(x, 2, divisor_override=0),
        lambda: f.avg_pool2d(x, 0),
        lambda: f.avg_pool2d(x, 2, stride=0),
        lambda: f.avg_pool2d(x, 2, padding=-1),
        lambda: f.avg_pool2d([1.0], 2),
        lambda: f.adaptive_avg_pool2d(lib.ones(5, 5), 2),
        lambda: f.adaptive_avg_pool2d(lib.ones(1, 1, 1, 5, 5), 2),
        lambda: f.adaptive_avg_pool2d(x, (1, 2, 3)),
        lambda: f.adaptive_avg_pool2d(x, -1),
        lambda: f.adaptive_avg_pool2d(lib.ones(1, 1, 0, 5), 2),
        lambda: f.adaptive_avg_pool2d(lib.ones(5), (2, 2)),
        lambda: f.adaptive_avg_pool2d(lib.ones(1, 2, 5, 5).long(), 2),
        lambda: f.adaptive_avg_pool2d(lib.ones(1, 2, 5, 5).long(), 1),
        lambda: f.max_pool2d(lib.ones(1, 2, 4, 4).bool(), 2),
    ]


def test_error_messages_match_torch(torch_module: ModuleType) -> None:
    mine = [error_of(c) for c in _errors(microtorch)]
    theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"case {i}"


def test_edge_shapes_match_torch(torch_module: ModuleType) -> None:
    for call in (
        lambda L: L.nn.functional.max_pool2d(L.ones(0, 1, 5, 5), 2),
        lambda L: L.nn.functional.avg_pool2d(L.ones(0, 2, 4, 4), 2),
        lambda L: L.nn.functional.adaptive_avg_pool2d(L.ones(1, 1, 5, 5), (0, 2)),
        lambda L: L.nn.functional.adaptive_avg_pool2d(L.ones(1, 0, 5, 5), 2),
        lambda L: L.nn.functional.adaptive_avg_pool2d(L.ones(5, 5), 1),
    ):
        assert tuple(call(microtorch).shape) == tuple(call(torch_module).shape)

"""``RMSNorm``/``F.rms_norm`` and ``InstanceNorm1d/2d/3d``/``F.instance_norm`` against
PyTorch 2.13: values, graphs, float64 gradients, running statistics, reprs and errors."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.nn.cases import graph
from tests.nn.layer_parity import compare_layer, error_of

RNG = np.random.default_rng(8)
X3 = RNG.standard_normal((2, 3, 5)).astype(np.float32)
X4 = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
X5 = RNG.standard_normal((2, 3, 2, 3, 4)).astype(np.float32)

LAYERS: dict[str, tuple[Any, np.ndarray, int]] = {
    "rms": (lambda L: L.nn.RMSNorm(5), X3, 1),
    "rms_2d_eps": (lambda L: L.nn.RMSNorm((4, 5), eps=1e-3), X4, 1),
    "rms_no_affine": (lambda L: L.nn.RMSNorm([5], elementwise_affine=False), X4, 1),
    "rms_float64": (lambda L: L.nn.RMSNorm(5).double(), X3.astype(np.float64), 1),
    "in1d": (lambda L: L.nn.InstanceNorm1d(3), X3, 1),
    "in1d_affine_stats": (
        lambda L: L.nn.InstanceNorm1d(3, affine=True, track_running_stats=True),
        X3,
        3,
    ),
    "in1d_unbatched": (lambda L: L.nn.InstanceNorm1d(3, affine=True), X3[0], 1),
    "in2d": (lambda L: L.nn.InstanceNorm2d(3, eps=1e-3, affine=True), X4, 1),
    "in2d_stats_momentum_none": (
        lambda L: L.nn.InstanceNorm2d(3, momentum=None, track_running_stats=True),
        X4,
        2,
    ),
    "in3d": (lambda L: L.nn.InstanceNorm3d(3, affine=True, track_running_stats=True), X5, 2),
    "in2d_float64": (
        lambda L: L.nn.InstanceNorm2d(3, affine=True).double(),
        X4.astype(np.float64),
        1,
    ),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layers_match_torch(torch_module: ModuleType, name: str) -> None:
    make, x, steps = LAYERS[name]
    compare_layer(torch_module, make, x, steps=steps, rtol=1e-4, atol=1e-5)


def test_instance_norm_eval_uses_running_stats(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> list[Any]:
        layer = lib.nn.InstanceNorm2d(3, affine=True, track_running_stats=True)
        x = lib.tensor(X4)
        layer(x)
        layer(x * 2 + 1)
        layer.eval()
        out = layer(x)
        names = graph(out)
        stats = [t.numpy().round(6).tolist() for t in (layer.running_mean, layer.running_var)]
        return [
            names,
            out.detach().numpy().round(5).tolist(),
            stats,
            int(layer.num_batches_tracked),
        ]

    assert run(microtorch) == run(torch_module)


def _functional(lib: ModuleType) -> list[Any]:
    f = lib.nn.functional
    rng = np.random.default_rng(4)
    x = lib.tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    w = lib.tensor(rng.standard_normal(4), requires_grad=True)
    w3 = lib.tensor(rng.standard_normal(3), requires_grad=True)
    b3 = lib.tensor(rng.standard_normal(3), requires_grad=True)
    rm, rv = lib.zeros(3, dtype=lib.float64), lib.ones(3, dtype=lib.float64)
    outs = [
        f.rms_norm(x, (4,)),
        f.rms_norm(x, [3, 4], eps=0.5),
        f.rms_norm(x, (4,), w),
        f.instance_norm(x),
        f.instance_norm(x, rm, rv, w3, b3, momentum=0.3, eps=1e-3),
        f.instance_norm(x, rm, rv, use_input_stats=False),
    ]
    found: list[Any] = [graph(o) for o in outs]
    total = sum((o * lib.tensor(rng.standard_normal(tuple(o.shape)))).sum() for o in outs)
    total.backward()
    found += [o.detach().numpy() for o in outs]
    found += [t.grad.numpy() for t in (x, w, w3, b3)] + [rm.numpy(), rv.numpy()]
    return found


def test_functional_float64_matches_torch(torch_module: ModuleType) -> None:
    mine, theirs = _functional(microtorch), _functional(torch_module)
    for i, (m, t) in enumerate(zip(mine, theirs)):
        if isinstance(t, list):
            assert m == t, i
        else:
            np.testing.assert_allclose(m, t, rtol=1e-11, atol=1e-12, err_msg=str(i))


def test_rms_norm_default_eps_is_the_dtypes(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> list[float]:
        tiny = lib.full((4,), 1e-4)
        return [float(lib.nn.functional.rms_norm(tiny, (4,))[0]),
                float(lib.nn.functional.rms_norm(tiny.double(), (4,))[0])]  # fmt: skip

    np.testing.assert_allclose(run(microtorch), run(torch_module), rtol=1e-6)


def test_gradients_by_finite_differences() -> None:
    rng = np.random.default_rng(0)
    x = microtorch.tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    w = microtorch.tensor(rng.standard_normal(4), requires_grad=True)
    w3 = microtorch.tensor(rng.standard_normal(3), requires_grad=True)
    b3 = microtorch.tensor(rng.standard_normal(3), requires_grad=True)
    f = microtorch.nn.functional
    assert gradcheck(lambda x, w: f.rms_norm(x, (4,), w), (x, w))
    assert gradcheck(lambda x, w, b: f.instance_norm(x, weight=w, bias=b), (x, w3, b3))


def test_reprs_and_state_dicts_match_torch(torch_module: ModuleType) -> None:
    for make in (
        lambda L: L.nn.RMSNorm(4),
        lambda L: L.nn.RMSNorm((2, 3), eps=1e-6, elementwise_affine=False),
        lambda L: L.nn.InstanceNorm1d(3),
        lambda L: L.nn.InstanceNorm2d(3, 1e-3, 0.2, True, True),
        lambda L: L.nn.InstanceNorm3d(2, momentum=None, track_running_stats=True),
    ):
        mine, theirs = make(microtorch), make(torch_module)
        assert repr(mine) == repr(theirs)
        assert {k: tuple(v.shape) for k, v in mine.state_dict().items()} == {
            k: tuple(v.shape) for k, v in theirs.state_dict().items()
        }
        for (k, v), (_, u) in zip(mine.state_dict().items(), theirs.state_dict().items()):
            np.testing.assert_array_equal(v.numpy(), u.numpy(), err_msg=k)


def _errors(lib: ModuleType) -> list[Any]:
    f, nn = lib.nn.functional, lib.nn
    x = lib.randn(2, 3, 4)
    return [
        lambda: f.rms_norm(x, (3,)),
        lambda: f.rms_norm(x, ()),
        lambda: f.rms_norm(x, 4),
        lambda: f.rms_norm(x, (4,), lib.ones(3)),
        lambda: f.instance_norm(lib.randn(2, 3, 1)),
        lambda: f.instance_norm(x, lib.zeros(2), lib.ones(2)),
        lambda: f.instance_norm(x, weight=lib.ones(4)),
        lambda: nn.InstanceNorm1d(3)(lib.randn(2, 3, 4, 5)),
        lambda: nn.InstanceNorm2d(3)(lib.randn(3, 4)),
        lambda: nn.InstanceNorm2d(4, affine=True)(lib.randn(2, 3, 4, 5)),
        lambda: nn.RMSNorm(3)(x),
    ]


def test_errors_match_torch(torch_module: ModuleType) -> None:
    mine = [error_of(c) for c in _errors(microtorch)]
    theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"case {i}"


def test_instance_norm_warns_for_a_wrong_channel_count(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> list[str]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.InstanceNorm1d(4)(lib.randn(2, 3, 5))
        return [str(w.message) for w in caught]

    assert run(microtorch) == run(torch_module)

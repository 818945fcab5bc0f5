"""``ConvTranspose1d/2d/3d`` and ``F.conv_transpose1d/2d/3d`` against PyTorch 2.13: values,
graphs, float64 gradients, reprs, init, ``output_size``, second derivatives and errors."""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.layer_parity import compare_layer, error_of

RNG = np.random.default_rng(5)
X1 = RNG.standard_normal((2, 4, 5)).astype(np.float32)
X2 = RNG.standard_normal((2, 4, 5, 6)).astype(np.float32)
X3 = RNG.standard_normal((1, 2, 3, 4, 3)).astype(np.float32)

LAYERS: dict[str, tuple[Any, np.ndarray]] = {
    "1d": (lambda L: L.nn.ConvTranspose1d(4, 3, 3), X1),
    "1d_all": (
        lambda L: L.nn.ConvTranspose1d(4, 6, 3, 2, 1, output_padding=1, groups=2, dilation=2),
        X1,
    ),
    "1d_unbatched": (lambda L: L.nn.ConvTranspose1d(4, 2, 2, stride=3), X1[0]),
    "2d": (lambda L: L.nn.ConvTranspose2d(4, 3, 3), X2),
    "2d_stride_padding": (lambda L: L.nn.ConvTranspose2d(4, 2, 4, stride=2, padding=1), X2),
    "2d_all": (
        lambda L: L.nn.ConvTranspose2d(
            4, 6, (3, 2), (2, 3), (1, 0), (1, 2), groups=2, bias=False, dilation=(1, 2)
        ),
        X2,
    ),
    "2d_unbatched": (lambda L: L.nn.ConvTranspose2d(4, 2, 2, stride=2), X2[0]),
    "2d_float64": (lambda L: L.nn.ConvTranspose2d(4, 2, 3, 2).double(), X2.astype(np.float64)),
    "3d": (lambda L: L.nn.ConvTranspose3d(2, 4, 2, stride=(1, 2, 1), padding=(0, 1, 0)), X3),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_conv_transpose_layers_match_torch(torch_module: ModuleType, name: str) -> None:
    make, x = LAYERS[name]
    compare_layer(torch_module, make, x, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_functional_float64_values_and_gradients_match_torch(
    torch_module: ModuleType, nd: int
) -> None:
    rng = np.random.default_rng(nd)
    x = rng.standard_normal((2, 4) + (4, 5, 3)[:nd])
    w = rng.standard_normal((4, 3) + (3, 2, 2)[:nd])
    b = rng.standard_normal(6)
    kw = {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2, "dilation": 1}

    def run(lib: ModuleType) -> list[Any]:
        ts = [lib.tensor(a, requires_grad=True) for a in (x, w, b)]
        y = getattr(lib.nn.functional, f"conv_transpose{nd}d")(*ts, **kw)
        g = np.random.default_rng(9).standard_normal(tuple(y.shape))
        y.backward(lib.tensor(g))
        edges = [None if f is None else f.name() for f, _ in y.grad_fn.next_functions]
        return [y.grad_fn.name(), edges, y.stride(), y.detach().numpy()] + [
            t.grad.numpy() for t in ts
        ]

    mine, theirs = run(microtorch), run(torch_module)
    assert mine[:3] == theirs[:3]
    for m, t in zip(mine[3:], theirs[3:]):
        np.testing.assert_allclose(m, t, rtol=1e-12, atol=1e-12)


def test_conv_transpose_gradcheck_and_gradgradcheck() -> None:
    rng = np.random.default_rng(0)
    x = microtorch.tensor(rng.standard_normal((1, 2, 3, 4)), requires_grad=True)
    w = microtorch.tensor(rng.standard_normal((2, 2, 2, 3)), requires_grad=True)
    b = microtorch.tensor(rng.standard_normal(4), requires_grad=True)

    def call(x: Any, w: Any, b: Any) -> Any:
        return microtorch.nn.functional.conv_transpose2d(
            x, w, b, stride=(2, 1), padding=(0, 1), output_padding=(1, 0), groups=2
        )

    assert gradcheck(call, (x, w, b))
    assert gradgradcheck(call, (x, w, b))


def _second(lib: Any) -> tuple[Any, list[np.ndarray]]:
    rng = np.random.default_rng(2)
    x = lib.tensor(rng.standard_normal((1, 2, 3, 4)), dtype=lib.float64, requires_grad=True)
    w = lib.tensor(rng.standard_normal((2, 3, 2, 2)), dtype=lib.float64, requires_grad=True)
    out = lib.nn.functional.conv_transpose2d(x, w, stride=2, padding=1) ** 2
    v = lib.tensor(rng.standard_normal(tuple(out.shape)), dtype=lib.float64, requires_grad=True)
    gx, gw = lib.autograd.grad(out, [x, w], v, create_graph=True)
    u = lib.tensor(rng.standard_normal(tuple(gx.shape)), dtype=lib.float64)
    second = lib.autograd.grad((gx * u).sum() + gw.sum(), [x, w, v])
    names = [gx.grad_fn.name(), gw.grad_fn.name()]
    return names, [t.detach().numpy() for t in (gx, gw, *second)]


def test_conv_transpose_second_derivatives_match_torch(torch_module: ModuleType) -> None:
    (mine_names, mine), (theirs_names, theirs) = _second(microtorch), _second(torch_module)
    assert mine_names == theirs_names
    for m, t in zip(mine, theirs):
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-10)


def test_reprs_state_dict_and_init_match_torch(torch_module: ModuleType) -> None:
    for make in (
        lambda L: L.nn.ConvTranspose1d(4, 6, 3),
        lambda L: L.nn.ConvTranspose2d(
            4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, bias=False, dilation=2
        ),  # fmt: skip
        lambda L: L.nn.ConvTranspose3d(2, 3, (1, 2, 3)),
    ):
        mine, theirs = make(microtorch), make(torch_module)
        assert repr(mine) == repr(theirs)
        assert list(mine.state_dict()) == list(theirs.state_dict())
        for (name, p), (_, q) in zip(mine.named_parameters(), theirs.named_parameters()):
            assert tuple(p.shape) == tuple(q.shape), name
            # fan_in is the weight's dim 1 times the kernel: out_channels / groups * kernel
            bound = 1 / math.sqrt(theirs.weight[0].numel())
            assert float(q.detach().abs().max()) <= bound + 1e-6, "the bound is torch's"
            assert float(p.detach().abs().max()) <= bound + 1e-6, name
        for attr in ("transposed", "output_padding", "padding_mode", "dilation", "stride"):
            assert getattr(mine, attr) == getattr(theirs, attr), attr


def test_output_size_matches_torch(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> list[Any]:
        lib.manual_seed(0)
        layer = lib.nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1)
        x = lib.ones(1, 4, 5, 6)
        found = [tuple(layer(x, output_size=s).shape) for s in ([9, 11], [10, 12], (1, 2, 10, 11))]
        found.append(tuple(layer(lib.ones(4, 5, 6), output_size=[3, 10, 12]).shape))
        for bad in ([8, 11], [11, 11], [1, 10, 11]):
            found.append(error_of(lambda bad=bad: layer(x, output_size=bad)))
        return found

    assert run(microtorch) == run(torch_module)


def _errors(lib: ModuleType) -> list[Any]:
    f = lib.nn.functional
    x, w = lib.randn(1, 4, 5, 5), lib.randn(4, 3, 3, 3)
    x1, w1 = lib.randn(1, 4, 3), lib.randn(4, 3, 2)
    return [
        lambda: f.conv_transpose2d(lib.randn(1, 5, 5, 5), w),
        lambda: f.conv_transpose2d(x, w, output_padding=1),
        lambda: f.conv_transpose2d(x, w, stride=2, output_padding=2),
        lambda: f.conv_transpose2d(x, w, groups=3),
        lambda: f.conv_transpose2d(x, w, groups=0),
        lambda: f.conv_transpose2d(x, w, bias=lib.randn(4)),
        lambda: f.conv_transpose2d(lib.randn(5, 5), w),
        lambda: f.conv_transpose2d(x, w, padding=-1),
        lambda: f.conv_transpose2d(x, w, output_padding=-1),
        lambda: f.conv_transpose2d(x, w, stride=0),
        lambda: f.conv_transpose2d(x, w, dilation=0),
        lambda: f.conv_transpose2d(x, w, padding=5),
        lambda: f.conv_transpose2d(x, w.double()),
        lambda: f.conv_transpose2d(x, w, padding="same"),
        lambda: f.conv_transpose2d(x, w, padding=(1, 2, 3)),
        lambda: f.conv_transpose2d(x, w, 3.0),
        lambda: f.conv_transpose2d(x.int(), w.int()),
        lambda: f.conv_transpose1d(x1, w1, padding=4),
        lambda: f.conv_transpose1d(x1, w1, output_padding=2, dilation=2, stride=2),
        lambda: f.conv_transpose1d(x1, lib.randn(4, 3), padding=1),
        lambda: f.conv_transpose3d(
            lib.randn(1, 4, 3, 3, 3), lib.randn(4, 3, 2, 2, 2), output_padding=1
        ),  # fmt: skip
        lambda: f.conv_transpose3d(lib.randn(1, 4, 3, 3, 3), lib.randn(4, 3, 2, 2, 2), padding=4),
        lambda: lib.nn.ConvTranspose2d(4, 3, 3, padding_mode="reflect"),
        lambda: lib.nn.ConvTranspose2d(4, 3, 3, groups=2),
        lambda: lib.nn.ConvTranspose1d(4, 3, 3)(lib.randn(2, 3, 4)),
    ]


def test_errors_match_torch(torch_module: ModuleType) -> None:
    mine = [error_of(c) for c in _errors(microtorch)]
    theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"case {i}"

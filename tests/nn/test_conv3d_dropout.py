"""``Conv3d``/``F.conv3d`` and ``Dropout1d``/``Dropout3d`` (and their F forms) against
PyTorch 2.13: values, graphs, gradients, reprs, second derivatives, warnings and errors."""

from __future__ import annotations

import math
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.cases import graph
from tests.nn.layer_parity import compare_layer, error_of

RNG = np.random.default_rng(11)
X = RNG.standard_normal((2, 3, 5, 6, 4)).astype(np.float32)

CONV3D: dict[str, tuple[Any, np.ndarray]] = {
    "plain": (lambda L: L.nn.Conv3d(3, 4, 2), X),
    "stride_padding": (lambda L: L.nn.Conv3d(3, 2, (2, 3, 1), stride=(2, 1, 2), padding=1), X),
    "dilation_groups": (lambda L: L.nn.Conv3d(3, 6, 2, dilation=(1, 2, 1), groups=3), X),
    "same": (lambda L: L.nn.Conv3d(3, 2, 3, padding="same", bias=False), X),
    "unbatched": (lambda L: L.nn.Conv3d(3, 2, 3, padding=(0, 1, 1)), X[0]),
    "float64": (lambda L: L.nn.Conv3d(3, 2, 2).double(), X.astype(np.float64)),
}


@pytest.mark.parametrize("name", list(CONV3D))
def test_conv3d_matches_torch(torch_module: ModuleType, name: str) -> None:
    make, x = CONV3D[name]
    compare_layer(torch_module, make, x, rtol=1e-4, atol=1e-5)


def test_conv3d_reprs_and_init_match_torch(torch_module: ModuleType) -> None:
    for make in (
        lambda L: L.nn.Conv3d(3, 4, 3),
        lambda L: L.nn.Conv3d(3, 4, (1, 2, 3), 2, 1, bias=False),
        lambda L: L.nn.Conv3d(4, 4, 2, dilation=2, groups=2, padding="valid"),
    ):
        mine, theirs = make(microtorch), make(torch_module)
        assert repr(mine) == repr(theirs)
        assert list(mine.state_dict()) == list(theirs.state_dict())
        for (name, p), (_, q) in zip(mine.named_parameters(), theirs.named_parameters()):
            assert tuple(p.shape) == tuple(q.shape), name
            # PyTorch's init: weight and bias uniform in +-1/sqrt(fan_in), fan_in the
            # weights of one output channel (kaiming_uniform_ with a=sqrt(5))
            bound = 1 / math.sqrt(theirs.weight[0].numel())
            assert float(q.detach().abs().max()) <= bound + 1e-6, "the bound is torch's"
            assert float(p.detach().abs().max()) <= bound + 1e-6, name


def _conv_errors(lib: ModuleType) -> list[Any]:
    f = lib.nn.functional
    w = lib.randn(4, 3, 2, 2, 2)
    return [
        lambda: f.conv3d(lib.randn(3, 4, 4), w),
        lambda: f.conv3d(lib.randn(1, 2, 4, 4, 4), w),
        lambda: f.conv3d([1.0], w),
        lambda: f.conv3d(lib.randn(1, 3, 4, 4, 4), lib.randn(4, 3, 2, 2)),
        lambda: f.conv3d(lib.randn(1, 3, 1, 4, 4), w),
        lambda: f.conv3d(lib.randn(1, 3, 4, 4, 4).double(), w),
        lambda: f.conv3d(lib.randn(1, 3, 4, 4, 4), w, stride=(1, 1)),
        lambda: f.conv3d(lib.randn(1, 3, 4, 4, 4), w, padding="same", stride=2),
        lambda: lib.nn.Conv3d(3, 4, 2)(lib.randn(4, 4, 4)),
    ]


def test_conv3d_errors_match_torch(torch_module: ModuleType) -> None:
    mine = [error_of(c) for c in _conv_errors(microtorch)]
    theirs = [error_of(c) for c in _conv_errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"case {i}"


def test_conv3d_gradcheck_and_gradgradcheck() -> None:
    rng = np.random.default_rng(0)
    x = microtorch.tensor(rng.standard_normal((1, 2, 3, 4, 3)), requires_grad=True)
    w = microtorch.tensor(rng.standard_normal((2, 1, 2, 2, 2)), requires_grad=True)
    b = microtorch.tensor(rng.standard_normal(2), requires_grad=True)

    def call(x: Any, w: Any, b: Any) -> Any:
        return microtorch.nn.functional.conv3d(x, w, b, stride=(1, 2, 1), padding=1, groups=2)

    assert gradcheck(call, (x, w, b))
    assert gradgradcheck(call, (x, w, b))


def _second(lib: Any) -> tuple[Any, list[np.ndarray]]:
    rng = np.random.default_rng(2)
    x = lib.tensor(rng.standard_normal((1, 2, 3, 4, 3)), dtype=lib.float64, requires_grad=True)
    w = lib.tensor(rng.standard_normal((2, 2, 2, 2, 2)), dtype=lib.float64, requires_grad=True)
    out = lib.nn.functional.conv3d(x, w, padding=1) ** 2
    v = lib.tensor(rng.standard_normal(tuple(out.shape)), dtype=lib.float64, requires_grad=True)
    gx, gw = lib.autograd.grad(out, [x, w], v, create_graph=True)
    u = lib.tensor(rng.standard_normal(tuple(gx.shape)), dtype=lib.float64)
    second = lib.autograd.grad((gx * u).sum() + gw.sum(), [x, w, v])
    names = [gx.grad_fn.name(), gw.grad_fn.name()]
    return names, [t.detach().numpy() for t in (gx, gw, *second)]


def test_conv3d_second_derivatives_match_torch(torch_module: ModuleType) -> None:
    (mine_names, mine), (theirs_names, theirs) = _second(microtorch), _second(torch_module)
    assert mine_names == theirs_names
    for m, t in zip(mine, theirs):
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize(
    ("name", "shape", "spatial"),
    [("dropout1d", (16, 32, 5), 1), ("dropout1d", (32, 5), 1), ("dropout3d", (8, 32, 2, 3, 2), 3),
     ("dropout3d", (32, 2, 3, 2), 3)],
)  # fmt: skip
def test_channel_dropout_zeroes_whole_channels(
    name: str, shape: tuple[int, ...], spatial: int
) -> None:
    microtorch.manual_seed(0)
    layer = getattr(microtorch.nn, name.capitalize())(p=0.4)
    x = microtorch.ones(*shape, requires_grad=True)
    y = layer(x)
    values = y.detach().numpy()
    channels = values.reshape(*shape[: len(shape) - spatial], -1)
    assert np.all(channels.min(-1) == channels.max(-1))  # a channel is all kept or all 0
    np.testing.assert_allclose(np.unique(values), [0.0, 1 / 0.6], rtol=1e-6)
    assert abs((channels[..., 0] == 0).mean() - 0.4) < 0.1
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), values)
    layer.eval()  # (an unbatched input comes back unsqueezed and squeezed, as in PyTorch)
    np.testing.assert_array_equal(layer(x).detach().numpy(), x.detach().numpy())


@pytest.mark.parametrize("name", ["dropout1d", "dropout3d"])
def test_channel_dropout_graphs_reprs_and_edges_match_torch(
    torch_module: ModuleType, name: str
) -> None:
    def run(lib: ModuleType) -> list[Any]:
        f = getattr(lib.nn.functional, name)
        found = []
        for shape in ((2, 3, 4, 5, 2), (3, 4, 5, 2), (2, 3, 4), (3, 4), (0, 3, 4)):
            for p in (0.5, 1.0, 0.0):
                x = lib.ones(*shape, requires_grad=True) * 1
                try:
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        out = f(x, p)
                    found.append((graph(out), tuple(out.shape), [str(w.message) for w in caught]))
                except Exception:  # noqa: BLE001 - the error is the result
                    found.append(error_of(lambda x=x, p=p: f(x, p)))
            found.append(error_of(lambda s=shape: f(lib.ones(*s), 1.5)))
        found.append(error_of(lambda: f([1.0], 0.5)))
        layer = getattr(lib.nn, name.capitalize())
        found += [repr(layer()), repr(layer(0.2, True)), error_of(lambda: layer(-0.1))]
        return found

    assert run(microtorch) == run(torch_module)


def test_channel_dropout_inplace_matches_torch(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> list[Any]:
        found = []
        for name, shape in (("dropout1d", (2, 3, 4)), ("dropout3d", (2, 3, 2, 2, 2))):
            x = lib.ones(*shape, requires_grad=True) * 1
            out = getattr(lib.nn.functional, name)(x, 1.0, inplace=True)
            found.append((graph(out), out is x, float(out.detach().sum())))
            plain = lib.ones(*shape[1:])
            out = getattr(lib.nn.functional, name)(plain, 1.0, inplace=True)
            found.append((out is plain, tuple(plain.shape), float(plain.sum())))
        return found

    assert run(microtorch) == run(torch_module)

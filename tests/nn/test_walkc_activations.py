"""walkc (issue 24): GLU, Hardshrink, Softshrink, Threshold, RReLU, Softmax2d, the in-place
twins (relu_ ... hardtanh_), pixel/channel shuffles and alpha dropout against PyTorch 2.13:
graphs (node names all the way down), float64 values and gradients, reprs, errors."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.cases import graph
from tests.nn.layer_parity import compare_call, compare_layer, error_of, upstream

_RNG = np.random.default_rng(24)
X4 = _RNG.standard_normal((2, 4, 3, 3))  # float64, values on both sides of every threshold
X2 = _RNG.standard_normal((3, 6))


def _F(lib: ModuleType) -> Any:  # noqa: N802
    return lib.nn.functional


FUNCTIONAL = {
    "hardshrink": lambda t, x: _F(t).hardshrink(x),
    "hardshrink_lambd": lambda t, x: _F(t).hardshrink(x, 1.2),
    "softshrink": lambda t, x: _F(t).softshrink(x),
    "softshrink_lambd": lambda t, x: _F(t).softshrink(x, 0.8),
    "threshold": lambda t, x: _F(t).threshold(x, 0.1, -2.0),
    "threshold_inplace": lambda t, x: _F(t).threshold(x * 1, 0.1, -2.0, inplace=True),
    "threshold_": lambda t, x: _F(t).threshold_(x * 1, 0.3, 5.0),  # (value > threshold)
    "glu": lambda t, x: _F(t).glu(x, 1),
    "glu_last": lambda t, x: _F(t).glu(x.reshape(2, 4, 9)[..., :8]),
    "glu_negative_dim": lambda t, x: _F(t).glu(x, -3),
    "rrelu_eval": lambda t, x: _F(t).rrelu(x),
    "rrelu_eval_bounds": lambda t, x: _F(t).rrelu(x, 0.2, 0.6),
    "rrelu_inplace_eval": lambda t, x: _F(t).rrelu(x * 1, inplace=True),
    "rrelu_": lambda t, x: _F(t).rrelu_(x * 1, 0.1, 0.5),
    "relu_": lambda t, x: _F(t).relu_(x * 1),
    "elu_": lambda t, x: _F(t).elu_(x * 1, 0.7),
    "celu_": lambda t, x: _F(t).celu_(x * 1, 1.5),
    "selu_": lambda t, x: _F(t).selu_(x * 1),
    "leaky_relu_": lambda t, x: _F(t).leaky_relu_(x * 1, 0.3),
    "hardtanh_": lambda t, x: _F(t).hardtanh_(x * 1, -0.5, 0.7),
    "pixel_shuffle": lambda t, x: _F(t).pixel_shuffle(x, 2),
    "pixel_shuffle_unbatched": lambda t, x: _F(t).pixel_shuffle(x[0], 2),
    "pixel_shuffle_5d": lambda t, x: _F(t).pixel_shuffle(x.reshape(1, 2, 4, 3, 3), 2),
    "pixel_unshuffle": lambda t, x: _F(t).pixel_unshuffle(x.reshape(2, 1, 6, 6), 3),
    "pixel_unshuffle_2": lambda t, x: _F(t).pixel_unshuffle(x.reshape(1, 2, 6, 6), 2),
    "pixel_round_trip": lambda t, x: _F(t).pixel_unshuffle(_F(t).pixel_shuffle(x, 2), 2),
    "channel_shuffle": lambda t, x: _F(t).channel_shuffle(x, 2),
    "channel_shuffle_4": lambda t, x: _F(t).channel_shuffle(x.reshape(2, 4, 9), 4),
    "alpha_dropout_eval": lambda t, x: _F(t).alpha_dropout(x, 0.3) * 1,
    "feature_alpha_dropout_eval": lambda t, x: _F(t).feature_alpha_dropout(x, 0.3) * 1,
    "alpha_dropout_p1": lambda t, x: _F(t).alpha_dropout(x, 1.0, True),
    "feature_alpha_dropout_p1": lambda t, x: _F(t).feature_alpha_dropout(x, 1.0, True),
}


@pytest.mark.parametrize("name", list(FUNCTIONAL))
def test_functional_matches_torch(torch_module: ModuleType, name: str) -> None:
    compare_call(torch_module, FUNCTIONAL[name], X4, rtol=1e-12, atol=1e-12)


def _module(name: str, *args: Any, **kwargs: Any) -> Any:
    return lambda lib: getattr(lib.nn, name)(*args, **kwargs)


LAYERS = {
    "GLU": _module("GLU", 1),
    "GLU_default": _module("GLU"),
    "Hardshrink": _module("Hardshrink", 0.3),
    "Softshrink": _module("Softshrink"),
    "Threshold": _module("Threshold", 0.2, 20.0),
    "RReLU_eval": lambda lib: _module("RReLU", 0.1, 0.3)(lib).eval(),
    "Softmax2d": _module("Softmax2d"),
    "PixelShuffle": _module("PixelShuffle", 2),
    "ChannelShuffle": _module("ChannelShuffle", 4),
    "AlphaDropout_eval": lambda lib: _module("AlphaDropout", 0.2)(lib).eval(),
    "FeatureAlphaDropout_eval": lambda lib: _module("FeatureAlphaDropout", 0.2)(lib).eval(),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch(torch_module: ModuleType, name: str) -> None:
    x = X4 if name != "GLU_default" else X4[..., :2]
    if name.endswith("_eval"):  # (identity in eval: a graph needs an op after it)
        make = LAYERS[name]
        compare_call(torch_module, lambda t, v: make(t)(v) * 1, x, rtol=1e-12, atol=1e-12)
        assert repr(make(microtorch)) == repr(make(torch_module))
        return
    compare_layer(torch_module, LAYERS[name], x, rtol=1e-12, atol=1e-12)


def test_unbatched_softmax2d_and_pixel_unshuffle(torch_module: ModuleType) -> None:
    compare_layer(torch_module, _module("Softmax2d"), X4[0], rtol=1e-12, atol=1e-12)
    layer = _module("PixelUnshuffle", 3)
    compare_layer(torch_module, layer, X4.reshape(2, 6, 6), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "make",
    [
        _module("GLU"), _module("GLU", dim=0), _module("Hardshrink"), _module("Softshrink", 0.2),
        _module("Threshold", 0.1, 20), _module("Threshold", 0.1, 20, True), _module("RReLU"),
        _module("RReLU", 0.1, 0.3, inplace=True), _module("Softmax2d"),
        _module("PixelShuffle", 3), _module("PixelUnshuffle", 2), _module("ChannelShuffle", 2),
        _module("AlphaDropout"), _module("AlphaDropout", 0.2, True),
        _module("FeatureAlphaDropout", 0.1),
    ],
)  # fmt: skip
def test_reprs_and_no_state(torch_module: ModuleType, make: Any) -> None:
    mine, theirs = make(microtorch), make(torch_module)
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict()) == []
    assert list(mine.parameters()) == list(theirs.parameters()) == []


def _int(t: ModuleType) -> Any:
    return t.tensor([[1, -2], [3, 4]])


ERRORS = {
    "softshrink_negative": lambda t: _F(t).softshrink(t.ones(2), -1.0),
    "softshrink_negative_f64": lambda t: _F(t).softshrink(t.ones(2, dtype=t.float64), -0.5),
    "hardshrink_int": lambda t: _F(t).hardshrink(_int(t)),
    "softshrink_int": lambda t: _F(t).softshrink(_int(t)),
    "hardshrink_list": lambda t: _F(t).hardshrink([1.0]),
    "threshold_list": lambda t: _F(t).threshold([1.0], 0.0, 1.0),
    "glu_odd": lambda t: _F(t).glu(t.ones(2, 3), 1),
    "glu_scalar": lambda t: _F(t).glu(t.tensor(1.0)),
    "glu_int": lambda t: _F(t).glu(_int(t)),
    "glu_list": lambda t: _F(t).glu([1.0, 2.0]),
    "glu_dim": lambda t: _F(t).glu(t.ones(2, 2), 2),
    "rrelu_bounds": lambda t: _F(t).rrelu(t.ones(2), 0.5, 0.1),
    "rrelu_bounds_train": lambda t: _F(t).rrelu(t.ones(2), 0.5, 0.1, training=True),
    "rrelu_int": lambda t: _F(t).rrelu(_int(t)),
    "rrelu_list": lambda t: _F(t).rrelu([1.0]),
    "relu__list": lambda t: _F(t).relu_([1.0]),
    "elu__list": lambda t: _F(t).elu_([1.0]),
    "leaky_relu__int": lambda t: _F(t).leaky_relu_(_int(t)),
    "softmax2d_2d": lambda t: t.nn.Softmax2d()(t.ones(2, 3)),
    "pixel_shuffle_channels": lambda t: _F(t).pixel_shuffle(t.ones(1, 4, 2, 2), 3),
    "pixel_shuffle_2d": lambda t: _F(t).pixel_shuffle(t.ones(4, 2), 2),
    "pixel_shuffle_zero": lambda t: _F(t).pixel_shuffle(t.ones(1, 4, 2, 2), 0),
    "pixel_shuffle_list": lambda t: _F(t).pixel_shuffle([1.0], 2),
    "pixel_unshuffle_height": lambda t: _F(t).pixel_unshuffle(t.ones(1, 1, 3, 4), 2),
    "pixel_unshuffle_width": lambda t: _F(t).pixel_unshuffle(t.ones(1, 1, 4, 3), 2),
    "channel_shuffle_groups": lambda t: _F(t).channel_shuffle(t.ones(2, 4, 3), 3),
    "channel_shuffle_2d": lambda t: _F(t).channel_shuffle(t.ones(3, 3), 3),
    "channel_shuffle_zero": lambda t: _F(t).channel_shuffle(t.ones(2, 4, 3), 0),
    "alpha_dropout_p": lambda t: _F(t).alpha_dropout(t.ones(2), 1.5, True),
    "feature_alpha_dropout_1d": lambda t: _F(t).feature_alpha_dropout(t.ones(3), 0.5, True),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    theirs = error_of(lambda: ERRORS[name](torch_module))
    assert theirs[0] != "no error"
    assert error_of(lambda: ERRORS[name](microtorch)) == theirs


def test_integer_threshold_and_shuffles_keep_dtype(torch_module: ModuleType) -> None:
    for t in (torch_module, microtorch):
        x = t.arange(-8, 10).reshape(2, 9)
        want = np.where(np.arange(-8, 10) > 2, np.arange(-8, 10), 7).reshape(2, 9)
        assert _F(t).threshold(x, 2, 7).tolist() == want.tolist()
        y = t.arange(36).reshape(1, 4, 3, 3)
        assert str(_F(t).pixel_shuffle(y, 2).dtype).endswith("int64")
    mine = _F(microtorch).channel_shuffle(microtorch.arange(24).reshape(2, 4, 3), 2).tolist()
    theirs = _F(torch_module).channel_shuffle(torch_module.arange(24).reshape(2, 4, 3), 2).tolist()
    assert mine == theirs


def test_rrelu_training_draws_slopes_in_bounds() -> None:
    microtorch.manual_seed(3)
    x = microtorch.tensor(-np.ones((200, 50)), requires_grad=True)
    y = _F(microtorch).rrelu(x, 0.1, 0.4, training=True)
    assert y.grad_fn.name() == "RreluWithNoiseBackward0"
    slopes = -y.detach().numpy()
    assert slopes.min() >= 0.1 and slopes.max() <= 0.4
    assert abs(slopes.mean() - 0.25) < 0.01 and slopes.std() > 0.08  # uniform: sd 0.087
    g = upstream(tuple(y.shape), np.float64)
    y.backward(microtorch.tensor(g))
    np.testing.assert_allclose(x.grad.numpy(), g * slopes)  # dz/dx = the drawn slope
    pos = microtorch.tensor(np.ones(5))
    assert _F(microtorch).rrelu(pos, training=True).tolist() == [1.0] * 5
    layer = microtorch.nn.RReLU(0.1, 0.4)  # training by default: random slopes
    a, b = layer(-microtorch.ones(100)), layer(-microtorch.ones(100))
    assert not np.array_equal(a.numpy(), b.numpy())
    microtorch.manual_seed(3)
    again = _F(microtorch).rrelu(x.detach(), 0.1, 0.4, training=True)
    np.testing.assert_array_equal(again.numpy(), y.detach().numpy())  # the seeded generator


def test_rrelu_inplace_training_records_backward1() -> None:
    x = microtorch.tensor(np.linspace(-2, 2, 10), requires_grad=True)  # (no zero)
    y = x * 1
    out = _F(microtorch).rrelu_(y, training=True)
    assert out is y and out.grad_fn.name() == "RreluWithNoiseBackward1"
    out.sum().backward()
    slopes = out.detach().numpy() / x.detach().numpy()  # 1 where x > 0
    assert np.all(slopes[5:] == 1) and np.all((slopes[:5] >= 1 / 8) & (slopes[:5] <= 1 / 3))
    np.testing.assert_allclose(x.grad.numpy(), slopes)


@pytest.mark.parametrize("feature", [False, True])
def test_alpha_dropout_training_keeps_mean_and_variance(
    torch_module: ModuleType, feature: bool
) -> None:
    microtorch.manual_seed(0)
    x_np = np.random.default_rng(0).standard_normal((400, 50, 4))  # mean 0, variance 1
    fn = "feature_alpha_dropout" if feature else "alpha_dropout"
    outs = {}
    for t in (torch_module, microtorch):
        x = t.tensor(x_np, requires_grad=True)
        out = getattr(_F(t), fn)(x, 0.3, True)
        outs[t.__name__] = (graph(out), out.detach().numpy())
    assert outs["microtorch"][0] == outs["torch"][0]  # AddBackward0 over MulBackward0
    mine, theirs = outs["microtorch"][1], outs["torch"][1]
    assert abs(mine.mean()) < 0.03 and abs(mine.std() - 1) < 0.03
    assert abs(mine.mean() - theirs.mean()) < 0.05 and abs(mine.std() - theirs.std()) < 0.05
    # a dropped value is -alpha' a + alpha' a p, the same constant everywhere
    alpha = 1.7580993408473766
    a = 1 / np.sqrt((alpha**2 * 0.3 + 1) * 0.7)
    dropped = np.isclose(mine, -alpha * a + alpha * a * 0.3)
    assert abs(dropped.mean() - 0.3) < 0.02
    if feature:  # whole channels: a channel is dropped at all 4 positions or at none
        assert np.all(dropped.all(-1) == dropped.any(-1))


def test_alpha_dropout_modules_in_training_and_inplace() -> None:
    layer = microtorch.nn.AlphaDropout(0.5)
    x = microtorch.randn(1000)
    out = layer(x)
    assert out.grad_fn is None and not np.allclose(out.numpy(), x.numpy())
    assert layer.eval()(x) is x
    y = x.clone()
    assert _F(microtorch).alpha_dropout(y, 0.5, True, inplace=True) is y


def test_deprecated_names_warn_like_torch(torch_module: ModuleType) -> None:
    seen = []
    for t in (torch_module, microtorch):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t.nn.Container(a=t.nn.ReLU())
        seen.append([(type(m.message).__name__, str(m.message)) for m in w])
    assert seen[0] == seen[1] and seen[0]
    with pytest.warns(FutureWarning, match="nn.Container` is deprecated"):
        box = microtorch.nn.Container(a=microtorch.nn.ReLU(), b=microtorch.nn.Linear(2, 3))
    with pytest.warns(FutureWarning):
        theirs = torch_module.nn.Container(a=torch_module.nn.ReLU(), b=torch_module.nn.Linear(2, 3))
    assert repr(box) == repr(theirs)
    assert list(box.state_dict()) == list(theirs.state_dict()) == ["b.weight", "b.bias"]


DOUBLE = {
    "hardshrink": lambda t, x: _F(t).hardshrink(x),
    "softshrink": lambda t, x: _F(t).softshrink(x),
    "threshold": lambda t, x: _F(t).threshold(x, 0.1, 2.0),
    "glu": lambda t, x: _F(t).glu(x, 1),
    "rrelu": lambda t, x: _F(t).rrelu(x),
    "pixel_shuffle": lambda t, x: _F(t).pixel_shuffle(x, 2),
    "channel_shuffle": lambda t, x: _F(t).channel_shuffle(x, 2),
}


@pytest.mark.parametrize("name", list(DOUBLE))
def test_create_graph_records_torchs_node(torch_module: ModuleType, name: str) -> None:
    seen = []
    for t in (torch_module, microtorch):
        x = t.tensor(X4, requires_grad=True)
        y = DOUBLE[name](t, x)
        (g,) = t.autograd.grad(y, x, t.ones_like(y) * 1.5, create_graph=True)
        seen.append((None if g.grad_fn is None else g.grad_fn.name(), g.detach().numpy()))
    assert seen[0][0] == seen[1][0]
    np.testing.assert_allclose(seen[1][1], seen[0][1], rtol=1e-12)


def test_shuffles_by_one_give_a_result_of_their_own() -> None:
    x = microtorch.randn(1, 4, 2, 2)
    for y in (_F(microtorch).pixel_shuffle(x, 1), _F(microtorch).pixel_unshuffle(x, 1),
              _F(microtorch).channel_shuffle(x, 1)):  # fmt: skip
        before = x.numpy().copy()
        y.add_(1)
        np.testing.assert_array_equal(x.numpy(), before)

"""``Conv1d`` / ``Conv2d`` and ``F.conv1d`` / ``F.conv2d`` against PyTorch 2.13: values, the
recorded graph, input / weight / bias gradients, reprs, init, finite differences, errors."""

from __future__ import annotations

import math
import re
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
import microtorch.nn as nn
import microtorch.nn.functional as F
from microtorch.autograd import gradcheck
from tests.nn.layer_parity import compare_call, compare_layer, error_of

RNG = np.random.default_rng(3)
X2 = RNG.standard_normal((2, 4, 9, 8)).astype(np.float32)
X1 = RNG.standard_normal((3, 4, 11)).astype(np.float32)

CONV2D: dict[str, tuple[dict[str, Any], np.ndarray]] = {
    "plain": (dict(in_channels=4, out_channels=5, kernel_size=3), X2),
    "stride_padding": (dict(in_channels=4, out_channels=3, kernel_size=3, stride=2, padding=1), X2),
    "rectangular": (
        dict(in_channels=4, out_channels=3, kernel_size=(2, 4), stride=(2, 1), padding=(1, 2)),
        X2,
    ),
    "dilation": (dict(in_channels=4, out_channels=2, kernel_size=3, dilation=(2, 1)), X2),
    "groups_no_bias": (
        dict(in_channels=4, out_channels=6, kernel_size=3, groups=2, bias=False),
        X2,
    ),
    "depthwise": (dict(in_channels=4, out_channels=8, kernel_size=3, groups=4, padding=1), X2),
    "pointwise": (dict(in_channels=4, out_channels=7, kernel_size=1), X2),
    "same_odd": (
        dict(in_channels=4, out_channels=3, kernel_size=3, padding="same", dilation=2),
        X2,
    ),
    "same_even": (dict(in_channels=4, out_channels=3, kernel_size=(2, 4), padding="same"), X2),
    "valid": (dict(in_channels=4, out_channels=3, kernel_size=(3, 2), padding="valid"), X2),
    "unbatched": (dict(in_channels=4, out_channels=3, kernel_size=3, padding=1), X2[0]),
    "unbatched_same_even": (
        dict(in_channels=4, out_channels=2, kernel_size=2, padding="same"),
        X2[1],
    ),
    "everything": (
        dict(
            in_channels=4,
            out_channels=6,
            kernel_size=(3, 2),
            stride=(1, 2),
            padding=(2, 1),
            dilation=(1, 2),
            groups=2,
        ),
        X2,
    ),
    "float64": (
        dict(in_channels=4, out_channels=3, kernel_size=3, dtype="float64"),
        X2.astype(np.float64),
    ),
}

CONV1D: dict[str, tuple[dict[str, Any], np.ndarray]] = {
    "plain": (dict(in_channels=4, out_channels=5, kernel_size=3), X1),
    "stride_padding_dilation": (
        dict(in_channels=4, out_channels=3, kernel_size=3, stride=2, padding=2, dilation=2),
        X1,
    ),
    "groups_no_bias": (
        dict(in_channels=4, out_channels=2, kernel_size=2, groups=2, bias=False),
        X1,
    ),
    "same_even": (dict(in_channels=4, out_channels=3, kernel_size=4, padding="same"), X1),
    "unbatched": (dict(in_channels=4, out_channels=3, kernel_size=5), X1[0]),
}


def _layer(cls_name: str, kwargs: dict[str, Any]) -> Any:
    def make(lib: ModuleType) -> Any:
        args = dict(kwargs)
        if "dtype" in args:
            args["dtype"] = getattr(lib, args["dtype"])
        return getattr(lib.nn, cls_name)(**args)

    return make


@pytest.fixture(autouse=True)
def _quiet_same_warning() -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Using padding='same' with even kernel")
        yield


@pytest.mark.parametrize("name", list(CONV2D))
def test_conv2d_matches_torch(torch_module: ModuleType, name: str) -> None:
    kwargs, x = CONV2D[name]
    compare_layer(torch_module, _layer("Conv2d", kwargs), x, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", list(CONV1D))
def test_conv1d_matches_torch(torch_module: ModuleType, name: str) -> None:
    kwargs, x = CONV1D[name]
    compare_layer(torch_module, _layer("Conv1d", kwargs), x, rtol=1e-4, atol=1e-5)


def test_first_layer_input_without_grad(torch_module: ModuleType) -> None:
    make = _layer("Conv2d", dict(in_channels=4, out_channels=3, kernel_size=3, stride=2))
    compare_layer(torch_module, make, X2, x_grad=False, rtol=1e-4, atol=1e-5)


W = RNG.standard_normal((6, 2, 3, 3)).astype(np.float32)
B = RNG.standard_normal(6).astype(np.float32)

FUNCTIONAL = {
    "conv2d": lambda L, x: L.nn.functional.conv2d(x, L.tensor(W), L.tensor(B), padding=1, groups=2),
    "conv2d_stride_list": lambda L, x: L.nn.functional.conv2d(
        x, L.tensor(W[:, :, :2]), None, [2, 1], groups=2
    ),
    "conv2d_weight_grad": lambda L, x: L.nn.functional.conv2d(
        x.sum(1, keepdim=True).expand(2, 2, 9, 8), L.tensor(W[:2], requires_grad=True)
    ),
    "conv1d": lambda L, x: L.nn.functional.conv1d(
        x[:, :, 0], L.tensor(W[:, :, 0]), None, 1, "same", 1, 2
    ),
}


@pytest.mark.parametrize("name", list(FUNCTIONAL))
def test_functional_forms_match_torch(torch_module: ModuleType, name: str) -> None:
    compare_call(torch_module, FUNCTIONAL[name], X2, rtol=1e-4, atol=1e-5)


def test_bias_none_is_an_edge_to_nothing_as_in_torch(torch_module: ModuleType) -> None:
    def edges(lib: ModuleType) -> list[str | None]:
        x = lib.ones(1, 2, 5, 5, requires_grad=True)
        w = lib.ones(3, 2, 3, 3, requires_grad=True)
        y = lib.nn.functional.conv2d(x, w)
        return [None if f is None else f.name() for f, _ in y.grad_fn.next_functions]

    assert edges(microtorch) == edges(torch_module)


@pytest.mark.parametrize(
    ("cls", "args", "text"),
    [
        (nn.Conv2d, (1, 6, 5), "Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))"),
        (
            nn.Conv2d,
            (3, 4, 3, 2, 1, 2, 1, False),
            "Conv2d(3, 4, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), dilation=(2, 2), "
            "bias=False)",
        ),
        (
            nn.Conv2d,
            (4, 4, (3, 5), 1, "same", 1, 2),
            "Conv2d(4, 4, kernel_size=(3, 5), stride=(1, 1), padding=same, groups=2)",
        ),
        (nn.Conv1d, (3, 4, 3), "Conv1d(3, 4, kernel_size=(3,), stride=(1,))"),
        (
            nn.Conv1d,
            (3, 4, 3, 2, "valid"),
            "Conv1d(3, 4, kernel_size=(3,), stride=(2,), padding=valid)",
        ),
    ],
)
def test_reprs(cls: type, args: tuple[Any, ...], text: str) -> None:
    assert repr(cls(*args)) == text


def test_reprs_match_torch(torch_module: ModuleType) -> None:
    for args in [(1, 6, 5), (6, 16, (5, 3), 2, (1, 0)), (2, 4, 3, 1, "valid", 3, 2, False)]:
        assert repr(nn.Conv2d(*args)) == repr(torch_module.nn.Conv2d(*args))
        assert repr(nn.Conv1d(*args[:3])) == repr(torch_module.nn.Conv1d(*args[:3]))


def test_default_init_is_torchs_scheme_and_seeded() -> None:
    microtorch.manual_seed(0)
    a = nn.Conv2d(6, 16, 5)
    microtorch.manual_seed(0)
    b = nn.Conv2d(6, 16, 5)
    w, bias = a.weight.detach().numpy(), a.bias.detach().numpy()
    np.testing.assert_array_equal(w, b.weight.detach().numpy())
    bound = 1 / math.sqrt(6 * 25)  # kaiming_uniform_(a=sqrt(5)) with fan_in = 6 * 5 * 5
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.03 * bound
    assert np.abs(bias).max() <= bound
    grouped = nn.Conv1d(8, 4, 3, groups=4)
    assert grouped.weight.shape == (4, 2, 3)
    assert np.abs(grouped.bias.detach().numpy()).max() <= 1 / math.sqrt(2 * 3)
    assert a.weight.dtype is microtorch.float32
    assert nn.Conv2d(1, 2, 3, dtype=microtorch.float64).weight.dtype is microtorch.float64
    assert [n for n, _ in a.named_parameters()] == ["weight", "bias"]
    assert list(nn.Conv2d(1, 2, 3, bias=False).state_dict()) == ["weight"]


def _f64(*shape: int, seed: int = 0) -> Any:
    data = np.random.default_rng(seed).standard_normal(shape)
    return microtorch.tensor(data, dtype=microtorch.float64, requires_grad=True)


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "kwargs"),
    [
        ((2, 2, 5, 4), (3, 2, 3, 2), dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2))),
        ((1, 4, 5, 5), (4, 2, 2, 2), dict(groups=2, padding="same")),
        ((3, 5, 5), (2, 3, 3, 3), dict(padding=1)),
    ],
)
def test_conv2d_gradcheck(x_shape: tuple, w_shape: tuple, kwargs: dict[str, Any]) -> None:
    x, w, b = _f64(*x_shape), _f64(*w_shape, seed=1), _f64(w_shape[0], seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert gradcheck(lambda x, w, b: F.conv2d(x, w, b, **kwargs), (x, w, b))


def test_conv1d_gradcheck() -> None:
    x, w = _f64(2, 4, 7), _f64(6, 2, 3, seed=1)
    assert gradcheck(lambda x, w: F.conv1d(x, w, None, 2, 1, 2, 2), (x, w))


def _errors(lib: ModuleType) -> list[Any]:
    f = lib.nn.functional
    x = lib.ones(2, 3, 8, 8)
    conv = lib.nn.Conv2d(3, 4, 3)
    c1 = lib.nn.Conv1d(3, 4, 3)
    w = lib.ones(2, 4, 3, 3)
    x4 = lib.ones(1, 4, 5, 5)
    return [
        lambda: conv(lib.ones(8, 8)),
        lambda: conv(lib.ones(1, 2, 3, 8, 8)),
        lambda: conv(lib.ones(2, 5, 8, 8)),
        lambda: conv(lib.ones(5, 8, 8)),
        lambda: conv(lib.ones(2, 3, 2, 2)),
        lambda: conv(x.double()),
        lambda: conv(x.long()),
        lambda: c1(lib.ones(8)),
        lambda: c1(lib.ones(2, 3, 8, 8)),
        lambda: c1(lib.ones(2, 5, 8)),
        lambda: c1(lib.ones(2, 3, 2)),
        lambda: lib.nn.Conv2d(3, 4, 3, groups=2),
        lambda: lib.nn.Conv2d(4, 3, 3, groups=2),
        lambda: lib.nn.Conv2d(4, 4, 3, groups=0),
        lambda: lib.nn.Conv2d(4, 4, 3, stride=2, padding="same"),
        lambda: lib.nn.Conv2d(4, 4, 3, padding="foo"),
        lambda: lib.nn.Conv2d(4, 4, 3, padding_mode="foo"),
        lambda: f.conv2d(x4, w, stride=2, padding="same"),
        lambda: f.conv2d(x4, w, padding="foo"),
        lambda: f.conv2d(x4, w, padding=-1),
        lambda: f.conv2d(x4, w, stride=0),
        lambda: f.conv2d(x4, w, dilation=0),
        lambda: f.conv2d(x4, w, dilation=3),
        lambda: f.conv2d(x4, w, bias=lib.ones(3)),
        lambda: f.conv2d(x4, lib.ones(2, 4, 3)),
        lambda: f.conv2d(x4, lib.ones(2, 4, 3, 3, 3)),
        lambda: f.conv2d(x4, lib.ones(3, 2, 3, 3), groups=2),
        lambda: f.conv2d(x4, lib.ones(4, 2, 3, 3), groups=3),
        lambda: f.conv2d(x4, w, groups=0),
        lambda: f.conv2d(x4, w, stride=(1, 2, 3)),
        lambda: f.conv2d(x4, w, padding=(1, 2, 3)),
        lambda: f.conv2d(x4.double(), w),
        lambda: f.conv2d(x4, w.double()),
        lambda: f.conv2d(x4, w, lib.ones(2).double()),
        lambda: f.conv2d(x4.int(), w),
        lambda: f.conv2d(lib.ones(4, 5, 5), lib.ones(2, 5, 2, 2), padding="same"),
        lambda: f.conv2d(x4, lib.ones(2, 4, 7, 7), padding="valid"),
        lambda: f.conv2d(lib.ones(2, 5, 8, 8).double(), w, lib.ones(2)),
        lambda: f.conv1d(lib.ones(1, 4, 5), lib.ones(2, 4, 3), stride=2, padding="same"),
        lambda: f.conv1d(lib.ones(8).double(), lib.ones(2, 4, 3), lib.ones(2)),
        lambda: f.conv2d(lib.ones(8, 8).double(), w, lib.ones(2), padding="valid"),
        lambda: f.conv2d(lib.ones(2, 5, 8, 8).double(), w, lib.ones(2), padding="same"),
        lambda: f.conv2d(x4.double(), lib.ones(2, 4, 3), lib.ones(2), padding="same"),
        lambda: f.conv2d(x4, w, padding="same", stride=(1, 1, 1)),
        lambda: f.conv2d(x4, w, padding="same", groups=0),
        lambda: f.conv2d(x4.double(), w, padding="valid"),
    ]


def test_error_messages_match_torch(torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = [error_of(c) for c in _errors(microtorch)]
        theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert _sets_sorted(m) == _sets_sorted(t), f"case {i}"


def _sets_sorted(error: tuple[str, str]) -> tuple[str, str]:
    # A message that prints a set ({'zeros', 'reflect', ...}) lists it in an order that
    # depends on the string hashes of the process that compiled each module: compare the
    # members, not their order.
    kind, text = error
    return kind, re.sub(
        r"\{[^{}]*\}", lambda m: "{" + ", ".join(sorted(m[0][1:-1].split(", "))) + "}", text
    )


def test_wrong_argument_types() -> None:
    with pytest.raises(TypeError, match=r"conv2d\(\) received an invalid combination of arguments"):
        F.conv2d([1.0], microtorch.ones(1, 1, 1, 1))
    with pytest.raises(NotImplementedError, match="padding_mode='reflect'"):
        nn.Conv2d(1, 1, 3, padding_mode="reflect")


def test_channel_error_says_how_to_fix_a_channels_last_image() -> None:
    with pytest.raises(RuntimeError, match=r"permute it to \(C, H, W\)"):
        nn.Conv2d(3, 8, 3)(microtorch.ones(1, 32, 32, 3))


def test_even_same_padding_warns_once_as_torch() -> None:
    import microtorch.nn.conv_functions as cf

    cf._same_warned = False
    x, w = microtorch.ones(1, 1, 4, 4), microtorch.ones(1, 1, 2, 2)
    with pytest.warns(UserWarning, match="padding='same' with even kernel lengths"):
        F.conv2d(x, w, padding="same")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert F.conv2d(x, w, padding="same").shape == (1, 1, 4, 4)


def test_an_empty_batch(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        layer = lib.nn.Conv2d(2, 3, 3)
        out = layer(lib.ones(0, 2, 5, 5, requires_grad=True))
        assert tuple(out.shape) == (0, 3, 3, 3) and out.grad_fn.name() == "ConvolutionBackward0"
        out.sum().backward()
        assert layer.weight.grad.abs().sum().item() == 0

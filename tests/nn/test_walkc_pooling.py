"""walkc (issue 24): 3-d pooling, the ``*_with_indices`` names, LPPool1d/2d/3d, MaxUnpool1d/2d/3d
and LocalResponseNorm against PyTorch 2.13: graphs, float64 values and gradients, indices,
reprs, errors."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.nn.layer_parity import assert_same_error, compare_call, compare_layer, error_of

_RNG = np.random.default_rng(3)
X5 = _RNG.standard_normal((2, 2, 5, 6, 4))
X4 = _RNG.standard_normal((2, 3, 6, 5))
X3 = _RNG.standard_normal((2, 3, 7))
X5[0, 0, 0, 0, :2] = 1.5  # a tie: the first position wins


def _F(lib: ModuleType) -> Any:  # noqa: N802
    return lib.nn.functional


def _unpool(
    t: ModuleType, x: Any, n: int, k: Any, s: Any = None, p: Any = 0, size: Any = None
) -> Any:
    out, idx = getattr(_F(t), f"max_pool{n}d")(x, k, s, p, return_indices=True)
    return getattr(_F(t), f"max_unpool{n}d")(out * 2, idx, k, s, p, size)


CALLS = {
    "avg_pool3d": (lambda t, x: _F(t).avg_pool3d(x, 2), X5),
    "avg_pool3d_stride_pad": (lambda t, x: _F(t).avg_pool3d(x, (3, 2, 3), (2, 1, 2), 1), X5),
    "avg_pool3d_no_pad_count": (lambda t, x: _F(t).avg_pool3d(x, 3, 2, 1, False, False), X5),
    "avg_pool3d_ceil": (lambda t, x: _F(t).avg_pool3d(x, 2, ceil_mode=True), X5),
    "avg_pool3d_divisor": (lambda t, x: _F(t).avg_pool3d(x, 2, divisor_override=3), X5),
    "avg_pool3d_unbatched": (lambda t, x: _F(t).avg_pool3d(x[0], 2, 1), X5),
    "max_pool3d": (lambda t, x: _F(t).max_pool3d(x, 2), X5),
    "max_pool3d_stride_pad_dilation": (lambda t, x: _F(t).max_pool3d(x, 2, 1, 1, 2), X5),
    "max_pool3d_ceil": (lambda t, x: _F(t).max_pool3d(x, (3, 2, 3), 2, ceil_mode=True), X5),
    "max_pool3d_unbatched": (lambda t, x: _F(t).max_pool3d(x[1], 3, 1), X5),
    "max_pool3d_overlap": (lambda t, x: _F(t).max_pool3d(x, 3, 1, 1), X5),  # (shared winners)
    "max_pool3d_with_indices": (lambda t, x: _F(t).max_pool3d_with_indices(x, 2, 1)[0], X5),
    "max_pool2d_with_indices": (lambda t, x: _F(t).max_pool2d_with_indices(x, 2, 1)[0], X4),
    "max_pool1d_with_indices": (lambda t, x: _F(t).max_pool1d_with_indices(x, 3, 2, 1)[0], X3),
    "adaptive_avg_pool3d": (lambda t, x: _F(t).adaptive_avg_pool3d(x, (2, 4, 3)), X5),
    "adaptive_avg_pool3d_none": (lambda t, x: _F(t).adaptive_avg_pool3d(x, (3, None, 1)), X5),
    "adaptive_avg_pool3d_one": (lambda t, x: _F(t).adaptive_avg_pool3d(x, 1), X5),
    "adaptive_avg_pool3d_unbatched": (lambda t, x: _F(t).adaptive_avg_pool3d(x[0], 3), X5),
    "adaptive_max_pool3d": (lambda t, x: _F(t).adaptive_max_pool3d(x, (2, 4, 3)), X5),
    "adaptive_max_pool3d_none": (lambda t, x: _F(t).adaptive_max_pool3d(x, (None, 2, 1)), X5),
    "adaptive_max_pool3d_unbatched": (lambda t, x: _F(t).adaptive_max_pool3d(x[1], 4), X5),
    "adaptive_max_pool3d_with_indices": (
        lambda t, x: _F(t).adaptive_max_pool3d_with_indices(x, 3)[0], X5),
    "adaptive_max_pool2d_with_indices": (
        lambda t, x: _F(t).adaptive_max_pool2d_with_indices(x, (4, 3))[0], X4),
    "adaptive_max_pool1d_with_indices": (
        lambda t, x: _F(t).adaptive_max_pool1d_with_indices(x, 4)[0], X3),
    "lp_pool1d": (lambda t, x: _F(t).lp_pool1d(x, 2, 3), X3),
    "lp_pool1d_stride_p3": (lambda t, x: _F(t).lp_pool1d(x.abs(), 3, 2, 1), X3),
    "lp_pool1d_inf": (lambda t, x: _F(t).lp_pool1d(x, float("inf"), 2), X3),
    "lp_pool2d": (lambda t, x: _F(t).lp_pool2d(x, 2, 2), X4),
    "lp_pool2d_rect": (lambda t, x: _F(t).lp_pool2d(x.abs(), 1.5, (3, 2), 1, True), X4),
    "lp_pool2d_minus_inf": (lambda t, x: _F(t).lp_pool2d(x, -float("inf"), 2), X4),
    "lp_pool3d": (lambda t, x: _F(t).lp_pool3d(x, 2, 2), X5),
    "lp_pool3d_stride": (lambda t, x: _F(t).lp_pool3d(x.abs(), 1.5, (2, 3, 2), 1), X5),
    "max_unpool1d": (lambda t, x: _unpool(t, x, 1, 2), X3),
    "max_unpool1d_size": (lambda t, x: _unpool(t, x, 1, 3, 2, 1, (2, 3, 8)), X3),
    "max_unpool2d": (lambda t, x: _unpool(t, x[..., :4], 2, 2), X4),
    "max_unpool2d_overlap": (lambda t, x: _unpool(t, x, 2, 3, 1, 1), X4),
    "max_unpool2d_size": (lambda t, x: _unpool(t, x, 2, 2, size=(7, 5)), X4),
    "max_unpool3d": (lambda t, x: _unpool(t, x, 3, 2), X5),
    "max_unpool3d_stride": (lambda t, x: _unpool(t, x, 3, (2, 3, 2), 1, 1), X5),
    "local_response_norm_3d": (lambda t, x: _F(t).local_response_norm(x, 2), X3),
    "local_response_norm_4d": (lambda t, x: _F(t).local_response_norm(x, 3, 0.1, 0.5, 2.0), X4),
    "local_response_norm_5d": (lambda t, x: _F(t).local_response_norm(x, 4, 1e-2), X5),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CALLS))
def test_matches_torch(torch_module: ModuleType, name: str) -> None:
    call, x = CALLS[name]
    compare_call(torch_module, call, x, rtol=1e-10, atol=1e-12)


INDICES = {
    "max_pool3d": (lambda t, x: _F(t).max_pool3d(x, 2, 1, 1, 1, True, True), X5),
    "max_pool3d_with_indices": (lambda t, x: _F(t).max_pool3d_with_indices(x, (3, 2, 2), 2), X5),
    "max_pool2d_with_indices": (lambda t, x: _F(t).max_pool2d_with_indices(x, 3, 2, 1), X4),
    "max_pool1d_with_indices": (lambda t, x: _F(t).max_pool1d_with_indices(x, 2), X3),
    "adaptive_max_pool3d": (lambda t, x: _F(t).adaptive_max_pool3d(x, (2, 4, 3), True), X5),
    "adaptive_max_pool3d_with_indices": (
        lambda t, x: _F(t).adaptive_max_pool3d_with_indices(x, 3), X5),
    "adaptive_max_pool2d_with_indices": (
        lambda t, x: _F(t).adaptive_max_pool2d_with_indices(x, 4), X4),
    "adaptive_max_pool1d_with_indices": (
        lambda t, x: _F(t).adaptive_max_pool1d_with_indices(x, 5), X3),
}  # fmt: skip


@pytest.mark.parametrize("name", list(INDICES))
def test_indices_match_torch(torch_module: ModuleType, name: str) -> None:
    call, x = INDICES[name]
    mine = call(microtorch, microtorch.tensor(x))
    theirs = call(torch_module, torch_module.tensor(x))
    np.testing.assert_allclose(mine[0].numpy(), theirs[0].numpy(), rtol=1e-12)
    np.testing.assert_array_equal(mine[1].numpy(), theirs[1].numpy())
    assert str(mine[1].dtype) == "microtorch.int64"


def _module(name: str, *args: Any, **kwargs: Any) -> Any:
    return lambda lib: getattr(lib.nn, name)(*args, **kwargs)


LAYERS = {
    "AvgPool3d": (_module("AvgPool3d", 2, 1, 1, count_include_pad=False), X5),
    "MaxPool3d": (_module("MaxPool3d", (2, 3, 2), dilation=1, ceil_mode=True), X5),
    "AdaptiveAvgPool3d": (_module("AdaptiveAvgPool3d", (2, None, 3)), X5),
    "AdaptiveMaxPool3d": (_module("AdaptiveMaxPool3d", 3), X5),
    "LPPool1d": (_module("LPPool1d", 2, 3, 1), X3),
    "LPPool2d": (_module("LPPool2d", 2, (2, 3)), X4),
    "LPPool3d": (_module("LPPool3d", 1, 2), X5),
    "LocalResponseNorm": (_module("LocalResponseNorm", 3, 0.5, 0.6, 1.5), X4),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch(torch_module: ModuleType, name: str) -> None:
    make, x = LAYERS[name]
    compare_layer(torch_module, make, x, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_max_unpool_layers_invert_max_pool_layers(torch_module: ModuleType, n: int) -> None:
    x = {1: X3, 2: X4, 3: X5}[n]

    def call(t: ModuleType, v: Any) -> Any:
        pool = getattr(t.nn, f"MaxPool{n}d")(2, return_indices=True)
        unpool = getattr(t.nn, f"MaxUnpool{n}d")(2)
        out, idx = pool(v)
        return unpool(out, idx, output_size=v.shape)

    compare_call(torch_module, call, x, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "make",
    [
        _module("AvgPool3d", 2), _module("AvgPool3d", (1, 2, 3), 1, 0, True, False, 2),
        _module("MaxPool3d", 2), _module("MaxPool3d", 3, 1, 1, 2, True, True),
        _module("AdaptiveAvgPool3d", 2), _module("AdaptiveMaxPool3d", (2, None, 1)),
        _module("AdaptiveMaxPool3d", 2, True), _module("LPPool1d", 2, 3),
        _module("LPPool2d", 2, 3, 1, True), _module("LPPool3d", 1.5, 3, 2),
        _module("MaxUnpool1d", 3), _module("MaxUnpool2d", 2), _module("MaxUnpool2d", (2, 3), 1),
        _module("MaxUnpool3d", 2, 1, 1), _module("LocalResponseNorm", 2),
        _module("LocalResponseNorm", 5, 1e-3, 0.5, 2.0),
    ],
)  # fmt: skip
def test_reprs_and_no_state(torch_module: ModuleType, make: Any) -> None:
    mine, theirs = make(microtorch), make(torch_module)
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict()) == []


def test_gradcheck_of_the_new_nodes() -> None:
    x = microtorch.tensor(_RNG.standard_normal((1, 2, 4, 5, 3)), requires_grad=True)
    F = _F(microtorch)
    for fn in (
        lambda v: F.avg_pool3d(v, 2, 1, 1, count_include_pad=False),
        lambda v: F.max_pool3d(v, 2, 1),
        lambda v: F.adaptive_avg_pool3d(v, (3, 2, 2)),
        lambda v: F.adaptive_max_pool3d(v, (3, 2, 2)),
        lambda v: F.local_response_norm(v, 2),
        lambda v: F.max_unpool3d(*F.max_pool3d(v[..., :4, :2], 2, return_indices=True), 2),
    ):
        assert gradcheck(fn, (x,))


ERRORS = {
    "max_pool3d_3d": lambda t: _F(t).max_pool3d(t.ones(3, 4, 4), 2),
    "max_pool3d_small": lambda t: _F(t).max_pool3d(t.ones(1, 1, 2, 2, 2), 3),
    "avg_pool3d_3d": lambda t: _F(t).avg_pool3d(t.ones(3, 4, 4), 2),
    "avg_pool3d_pad": lambda t: _F(t).avg_pool3d(t.ones(1, 1, 4, 4, 4), 2, padding=2),
    "max_pool3d_pad": lambda t: _F(t).max_pool3d(t.ones(1, 1, 4, 4, 4), 2, padding=2),
    "avg_pool3d_list": lambda t: _F(t).avg_pool3d([1.0], 2),
    "adaptive_avg_pool3d_3d": lambda t: _F(t).adaptive_avg_pool3d(t.ones(3, 4, 4), 2),
    "adaptive_max_pool3d_3d": lambda t: _F(t).adaptive_max_pool3d(t.ones(3, 4, 4), 2),
    "adaptive_avg_pool3d_short": lambda t: _F(t).adaptive_avg_pool3d(t.ones(4, 4), (1, 2, 3)),
    "local_response_norm_2d": lambda t: _F(t).local_response_norm(t.ones(3, 4), 2),
    "max_unpool2d_index": lambda t: _F(t).max_unpool2d(t.ones(1, 1, 2, 2),
                                                       t.full((1, 1, 2, 2), 20), 2),
    "max_unpool2d_float_index": lambda t: _F(t).max_unpool2d(t.ones(1, 1, 2, 2),
                                                             t.zeros(1, 1, 2, 2), 2),
    "max_unpool2d_index_shape": lambda t: _F(t).max_unpool2d(
        t.ones(1, 1, 2, 2), t.zeros(1, 1, 2, 1, dtype=t.int64), 2),
    "max_unpool2d_output_size": lambda t: _F(t).max_unpool2d(
        t.ones(1, 1, 2, 2), t.zeros(1, 1, 2, 2, dtype=t.int64), 2, output_size=(9, 9)),
    "max_unpool2d_output_size_len": lambda t: _F(t).max_unpool2d(
        t.ones(1, 1, 2, 2), t.zeros(1, 1, 2, 2, dtype=t.int64), 2, output_size=(9,)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    assert_same_error(torch_module, ERRORS[name])


@pytest.mark.parametrize("args", [(3,), (2, 0.5, 0.6, 2.0), (5, 1e-2), (4, 1.0, 0.75, 1)])
def test_cross_map_lrn2d_matches_torch(torch_module: ModuleType, args: tuple[Any, ...]) -> None:
    # (6 channels: PyTorch's running window keeps channel 0 in every sum, its backward uses
    # its own window; both show with more channels than the window is wide)
    x = _RNG.standard_normal((2, 6, 3, 2))
    compare_layer(torch_module, _module("CrossMapLRN2d", *args), x, rtol=1e-10, atol=1e-12)


def test_cross_map_lrn2d_wants_4d(torch_module: ModuleType) -> None:
    for t in (torch_module, microtorch):
        assert error_of(lambda t=t: t.nn.CrossMapLRN2d(3)(t.ones(2, 3, 4))) == (
            "ValueError", "CrossMapLRN2d: Expected input to be 4D, got 3D instead.")  # fmt: skip

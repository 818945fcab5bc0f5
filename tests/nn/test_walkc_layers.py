"""walkc (issue 24): ZeroPad3d, ConstantPad3d, BatchNorm3d, the lazy LazyConv3d,
LazyConvTranspose1d/2d/3d, LazyBatchNorm3d, LazyInstanceNorm1d/2d/3d, and nn.init's dirac_
and deprecated names against PyTorch 2.13: reprs, state_dict keys, parameters, values and
float64 gradients, warnings, errors."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.layer_parity import compare_layer, copy_state, error_of, run

_RNG = np.random.default_rng(2413)
X5 = _RNG.standard_normal((2, 3, 3, 4, 2))
X4 = _RNG.standard_normal((2, 3, 4, 5))


def _module(name: str, *args: Any, **kwargs: Any) -> Any:
    return lambda lib: getattr(lib.nn, name)(*args, **kwargs).double()


LAYERS = {
    "ZeroPad3d": (_module("ZeroPad3d", 1), X5),
    "ZeroPad3d_tuple": (_module("ZeroPad3d", (1, 0, 2, 1, 0, 3)), X5),
    "ConstantPad3d": (_module("ConstantPad3d", (0, 1, 1, 0, 2, 2), -1.5), X5),
    "ConstantPad3d_unbatched": (_module("ConstantPad3d", 1, 2.0), X5[0]),
    "BatchNorm3d": (_module("BatchNorm3d", 3), X5),
    "BatchNorm3d_no_affine": (_module("BatchNorm3d", 3, affine=False, momentum=None), X5),
    "BatchNorm3d_no_stats": (_module("BatchNorm3d", 3, track_running_stats=False), X5),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch(torch_module: ModuleType, name: str) -> None:
    make, x = LAYERS[name]
    compare_layer(torch_module, make, x, steps=2, rtol=1e-10, atol=1e-12)


def test_batchnorm3d_eval_and_errors(torch_module: ModuleType) -> None:
    def make(lib: ModuleType) -> Any:
        return lib.nn.BatchNorm3d(3).double().eval()

    compare_layer(torch_module, make, X5, rtol=1e-10, atol=1e-12)
    for t in (torch_module, microtorch):
        assert error_of(lambda t=t: t.nn.BatchNorm3d(3)(t.ones(2, 3, 4, 4))) == (
            "ValueError", "expected 5D input (got 4D input)")  # fmt: skip


LAZY = {
    "LazyConv3d": (lambda t: t.nn.LazyConv3d(4, 2, padding=1), X5),
    "LazyConv3d_groups": (lambda t: t.nn.LazyConv3d(6, (1, 2, 1), groups=3, bias=False), X5),
    "LazyConvTranspose1d": (lambda t: t.nn.LazyConvTranspose1d(2, 3, stride=2), X4[:, :, 0]),
    "LazyConvTranspose1d_unbatched": (lambda t: t.nn.LazyConvTranspose1d(2, 3), X4[0]),
    "LazyConvTranspose2d": (lambda t: t.nn.LazyConvTranspose2d(4, 2, groups=1, bias=False), X4),
    "LazyConvTranspose2d_groups": (lambda t: t.nn.LazyConvTranspose2d(6, 3, groups=3, stride=2,
                                                                      output_padding=1), X4),
    "LazyConvTranspose3d": (lambda t: t.nn.LazyConvTranspose3d(2, 2, dilation=2), X5),
    "LazyBatchNorm3d": (lambda t: t.nn.LazyBatchNorm3d(), X5),
    "LazyInstanceNorm1d": (lambda t: t.nn.LazyInstanceNorm1d(), X4[:, :, 0]),
    "LazyInstanceNorm2d": (lambda t: t.nn.LazyInstanceNorm2d(affine=False,
                                                             track_running_stats=False), X4),
    "LazyInstanceNorm3d": (lambda t: t.nn.LazyInstanceNorm3d(eps=0.1), X5),
}  # fmt: skip


@pytest.mark.filterwarnings("ignore:input's size at dim=1")  # (both warn: lazy, no affine)
@pytest.mark.parametrize("name", list(LAZY))
def test_lazy_layer_becomes_the_plain_layer_as_in_torch(
    torch_module: ModuleType, name: str
) -> None:
    make, x = LAZY[name]
    torch_module.manual_seed(0)
    theirs = make(torch_module)
    mine = make(microtorch)
    assert repr(mine) == repr(theirs)  # (in_channels / num_features 0 until the first call)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    x32 = x.astype(np.float32)
    out_theirs = run(torch_module, theirs, x32)
    run(microtorch, mine, x32)  # materializes with its own random draws
    assert type(mine).__name__ == type(theirs).__name__
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert [tuple(p.shape) for p in mine.parameters()] == [
        tuple(p.shape) for p in theirs.parameters()
    ]
    theirs.zero_grad()
    copy_state(theirs, mine)  # the same weights: then everything agrees
    if hasattr(theirs, "running_mean") and theirs.running_mean is not None:
        theirs.reset_running_stats()
        mine.reset_running_stats()
    out_theirs = run(torch_module, theirs, x32)
    mine.zero_grad()
    out_mine = run(microtorch, mine, x32)
    assert out_mine["graph"] == out_theirs["graph"]
    np.testing.assert_allclose(out_mine["out"], out_theirs["out"], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(out_mine["x_grad"], out_theirs["x_grad"], rtol=1e-4, atol=1e-5)


def test_lazy_errors_match_torch(torch_module: ModuleType) -> None:
    for make in (
        lambda t: t.nn.LazyConvTranspose2d(4, 3, groups=2)(t.ones(1, 3, 4, 4)),
        lambda t: t.nn.LazyConv3d(4, 3, groups=2)(t.ones(1, 3, 4, 4, 4)),
    ):
        theirs = error_of(lambda make=make: make(torch_module))
        assert theirs[0] != "no error" and error_of(lambda make=make: make(microtorch)) == theirs


def _warnings(call: Any) -> list[tuple[str, str]]:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        call()
    return [(type(w.message).__name__, str(w.message)) for w in seen]


OLD_INIT = {
    "uniform": ((3, 4), (-0.5, 0.5)),
    "normal": ((3, 4), (1.0, 0.1)),
    "constant": ((3, 4), (0.25,)),
    "eye": ((3, 4), ()),
    "dirac": ((4, 2, 3), ()),
    "xavier_uniform": ((3, 4), (2.0,)),
    "xavier_normal": ((3, 4), ()),
    "kaiming_uniform": ((3, 4), ()),
    "kaiming_normal": ((3, 4), (0.1, "fan_out")),
    "orthogonal": ((3, 4), ()),
}


@pytest.mark.parametrize("name", list(OLD_INIT))
def test_deprecated_init_names_warn_and_fill_like_the_new_ones(
    torch_module: ModuleType, name: str
) -> None:
    shape, args = OLD_INIT[name]
    seen = []
    for t in (torch_module, microtorch):
        w = t.empty(*shape)
        said = _warnings(lambda t=t, w=w: getattr(t.nn.init, name)(w, *args))
        seen.append(said)
        assert getattr(t.nn.init, name).__name__ == name
    assert (
        seen[0]
        == seen[1]
        == [("FutureWarning", f"`nn.init.{name}` is now deprecated in favor of `nn.init.{name}_`.")]
    )
    microtorch.manual_seed(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = getattr(microtorch.nn.init, name)(microtorch.empty(*shape), *args)
    microtorch.manual_seed(5)
    new = getattr(microtorch.nn.init, name + "_")(microtorch.empty(*shape), *args)
    np.testing.assert_array_equal(old.numpy(), new.numpy())


def test_init_warning_points_at_the_caller() -> None:
    with pytest.warns(FutureWarning) as seen:
        microtorch.nn.init.constant(microtorch.empty(2), 1.0)
    assert seen[0].filename == __file__


@pytest.mark.parametrize(
    ("shape", "groups"),
    [((4, 2, 3), 1), ((4, 2, 3, 3), 2), ((6, 3, 3, 2, 5), 3), ((2, 5, 4), 1), ((3, 1, 1, 1, 1), 1)],
)
def test_dirac_matches_torch(torch_module: ModuleType, shape: tuple[int, ...], groups: int) -> None:
    theirs = torch_module.nn.init.dirac_(torch_module.empty(*shape), groups)
    w = microtorch.empty(*shape)
    mine = microtorch.nn.init.dirac_(w, groups)
    assert mine is w
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def test_dirac_keeps_a_convolution_the_identity() -> None:
    conv = microtorch.nn.Conv2d(3, 3, 3, padding=1, bias=False)
    microtorch.nn.init.dirac_(conv.weight)
    x = microtorch.randn(1, 3, 5, 5)
    np.testing.assert_allclose(conv(x).detach().numpy(), x.numpy(), atol=1e-6)


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.nn.init.dirac_(t.empty(3, 3)),
        lambda t: t.nn.init.dirac_(t.empty(3, 2, 2), 2),
        lambda t: t.nn.init.dirac_(t.empty(1, 1, 1, 1, 1, 1)),
    ],
)
def test_dirac_errors(torch_module: ModuleType, call: Any) -> None:
    theirs = error_of(lambda: call(torch_module))
    assert theirs[0] != "no error" and error_of(lambda: call(microtorch)) == theirs

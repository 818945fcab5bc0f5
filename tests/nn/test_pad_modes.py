"""``F.pad``'s ``reflect``, ``replicate`` and ``circular`` modes against PyTorch 2.13: values,
graphs (``ReflectionPad2DBackward0`` ...), gradients, second derivatives and their nodes,
finite differences, errors. PyTorch writes ``circular`` as copies into slices of a new tensor
(``CopySlices`` nodes); microtorch gathers with one ``index_select`` per padded dim
(``IndexSelectBackward0``): the values and gradients agree, the node names do not."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.cases import graph
from tests.nn.layer_parity import error_of

RNG = np.random.default_rng(23)
X = RNG.standard_normal((2, 3, 4, 5, 6)).astype(np.float32)

# name -> (input slice of X, pad, mode)
PADS: dict[str, tuple[tuple[Any, ...], tuple[int, ...], str]] = {
    "reflect_1d_2d_input": ((0, 0, 0), (2, 3), "reflect"),
    "reflect_1d_3d_input": ((0, 0), (5, 0), "reflect"),
    "reflect_1d_crop": ((0, 0), (-1, 2), "reflect"),
    "reflect_2d": ((0,), (1, 2, 3, 0), "reflect"),
    "reflect_2d_3d_input": ((0, 0), (2, 2, 1, 1), "reflect"),
    "reflect_3d": ((), (1, 0, 2, 1, 1, 2), "reflect"),
    "replicate_1d": ((0, 0), (3, 7), "replicate"),
    "replicate_2d": ((0,), (0, 4, 2, 2), "replicate"),
    "replicate_2d_crop": ((0,), (-2, 1, 1, -1), "replicate"),
    "replicate_3d_4d_input": ((0,), (1, 1, 1, 1, 2, 0), "replicate"),
    "circular_1d": ((0, 0), (2, 6), "circular"),
    "circular_2d": ((0,), (1, 2, 4, 0), "circular"),
    "circular_3d": ((), (1, 1, 0, 2, 3, 1), "circular"),
    "circular_crop": ((0, 0), (-2, 3), "circular"),
    "circular_crop_both": ((0,), (2, -1, -1, 1), "circular"),
}


def _run(lib: ModuleType, name: str, dtype: Any = np.float32) -> dict[str, Any]:
    where, widths, mode = PADS[name]
    x = lib.tensor(X[where].astype(dtype), requires_grad=True)
    out = lib.nn.functional.pad(x, widths, mode=mode)
    values = np.random.default_rng(1).uniform(-1, 2, tuple(out.shape)).astype(dtype)
    up = lib.tensor(values, requires_grad=True)
    (g,) = lib.autograd.grad(out, x, up, create_graph=True)
    (h,) = lib.autograd.grad((g * g).sum(), up, allow_unused=True)
    return {
        "graph": graph(out, 3),
        "double": graph(g, 1),
        "values": [out.detach().numpy(), g.detach().numpy(), h.numpy()],
    }


@pytest.mark.parametrize("name", list(PADS))
def test_pad_modes_match_torch(torch_module: ModuleType, name: str) -> None:
    mine, theirs = _run(microtorch, name), _run(torch_module, name)
    for a, b in zip(mine["values"], theirs["values"], strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    if PADS[name][2] == "circular":
        assert theirs["graph"][0] == "torch::autograd::CopySlices"
        assert mine["graph"][0] == "IndexSelectBackward0"
    else:
        assert mine["graph"] == theirs["graph"]
        assert mine["double"] == theirs["double"]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_by_finite_differences(mode: str) -> None:
    x = microtorch.tensor(RNG.standard_normal((2, 3, 4)), requires_grad=True)
    f = microtorch.nn.functional.pad
    assert gradcheck(lambda x: f(x, (2, 1, 1, 2), mode=mode), (x,))
    assert gradgradcheck(lambda x: f(x, (3, 2), mode=mode) ** 2, (x,))


def test_integer_input_pads_as_torch(torch_module: ModuleType) -> None:
    for mode in ("reflect", "replicate", "circular"):
        outs = [
            lib.nn.functional.pad(lib.arange(6).view(2, 3), (2, 1), mode=mode).numpy()
            for lib in (microtorch, torch_module)
        ]
        np.testing.assert_array_equal(*outs)
        assert outs[0].dtype == outs[1].dtype


ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "value_with_reflect": lambda L: L.nn.functional.pad(L.ones(2, 3), (1, 1), "reflect", 1.0),
    "too_few_dims": lambda L: L.nn.functional.pad(L.ones(5), (1, 1), mode="reflect"),
    "longer_than_dims": lambda L: L.nn.functional.pad(L.ones(5), (1, 1, 1, 1), "replicate"),
    "too_many_dims": lambda L: L.nn.functional.pad(L.ones(1, 2, 3, 4), (1, 1), "replicate"),
    "reflect_too_wide": lambda L: L.nn.functional.pad(L.ones(2, 3), (0, 3), mode="reflect"),
    "reflect_too_high": lambda L: L.nn.functional.pad(
        L.ones(2, 3, 4), (1, 1, 3, 0), mode="reflect"
    ),
    "reflect_too_deep": lambda L: L.nn.functional.pad(
        L.ones(2, 3, 4, 5), (1, 1, 1, 1, 1, 3), mode="reflect"
    ),
    "circular_wraps_twice": lambda L: L.nn.functional.pad(L.ones(2, 3), (4, 0), "circular"),
    "odd_length": lambda L: L.nn.functional.pad(L.ones(2, 3), (1, 1, 1), mode="circular"),
    "unknown_mode": lambda L: L.nn.functional.pad(L.ones(2, 3), (1, 1), mode="wrap"),
    "empty_channel": lambda L: L.nn.functional.pad(L.ones(2, 0), (1, 1), mode="replicate"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_pad_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    theirs = error_of(lambda: ERRORS[name](torch_module))
    assert theirs[0] != "no error"
    assert error_of(lambda: ERRORS[name](microtorch)) == theirs


LAYERS = [
    ("ReflectionPad1d", 2, (0, 0)), ("ReflectionPad2d", (1, 2, 0, 3), (0,)),
    ("ReflectionPad3d", 1, ()), ("ReplicationPad1d", (3, 1), (0, 0)),
    ("ReplicationPad2d", 2, (0, 0)), ("ReplicationPad3d", (1, 0, 2, 1, 0, 3), (0,)),
    ("CircularPad1d", 2, (0, 0)), ("CircularPad2d", (1, 2, 3, 0), (0,)),
    ("CircularPad3d", 1, ()),
]  # fmt: skip


@pytest.mark.parametrize(("name", "padding", "where"), LAYERS)
def test_padding_layers_match_torch(
    torch_module: ModuleType, name: str, padding: Any, where: tuple[Any, ...]
) -> None:
    results = []
    for lib in (microtorch, torch_module):
        layer = getattr(lib.nn, name)(padding)
        x = lib.tensor(X[where], requires_grad=True)
        out = layer(x)
        out.backward(lib.tensor(np.random.default_rng(2).standard_normal(tuple(out.shape))).float())
        results.append((repr(layer), out.detach().numpy(), x.grad.numpy()))
    assert results[0][0] == results[1][0]
    for a, b in zip(results[0][1:], results[1][1:]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(("name", "ndim"), [("CircularPad1d", 4), ("CircularPad2d", 2)])
def test_circular_pad_layer_checks_dims_as_torch(
    torch_module: ModuleType, name: str, ndim: int
) -> None:
    shape = (2,) * ndim
    theirs = error_of(lambda: getattr(torch_module.nn, name)(1)(torch_module.ones(shape)))
    mine = error_of(lambda: getattr(microtorch.nn, name)(1)(microtorch.ones(shape)))
    assert mine == theirs and theirs[0] == "ValueError"

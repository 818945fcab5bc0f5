"""``F.interpolate`` and ``nn.Upsample`` in the ``linear`` and ``bilinear`` modes against
PyTorch 2.13: values (float32 and float64), graphs, gradients, the second derivative and its
node, finite differences, every source-position rule (``align_corners``, ``scale_factor``,
``recompute_scale_factor``, ``size``), errors."""

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

CASES: list[tuple[tuple[int, ...], dict[str, Any]]] = [
    ((2, 3, 4, 5), {"scale_factor": 2, "mode": "bilinear"}),
    ((2, 3, 4, 5), {"scale_factor": 2, "mode": "bilinear", "align_corners": True}),
    ((1, 2, 3, 4), {"scale_factor": (2, 3), "mode": "bilinear", "align_corners": False}),
    ((1, 1, 5, 7), {"size": (3, 4), "mode": "bilinear"}),
    ((1, 1, 5, 7), {"size": (1, 9), "mode": "bilinear", "align_corners": True}),
    ((1, 2, 4, 4), {"size": 6, "mode": "bilinear"}),
    ((1, 1, 5, 5), {"scale_factor": 0.7, "mode": "bilinear"}),
    ((1, 1, 3, 3), {"scale_factor": 1.7, "mode": "bilinear", "recompute_scale_factor": True}),
    ((1, 1, 3, 3), {"scale_factor": 1.7, "mode": "bilinear"}),
    ((2, 3, 5), {"scale_factor": 3, "mode": "linear"}),
    ((2, 3, 7), {"size": 4, "mode": "linear", "align_corners": True}),
    ((2, 3, 1), {"size": 4, "mode": "linear"}),
    ((2, 1, 6), {"scale_factor": 0.5, "mode": "linear"}),
]


def _run(lib: ModuleType, shape: tuple[int, ...], kwargs: dict[str, Any], dtype: Any) -> Any:
    x = lib.tensor(
        np.random.default_rng(0).standard_normal(shape).astype(dtype), requires_grad=True
    )
    y = lib.nn.functional.interpolate(x, **kwargs)
    up = np.random.default_rng(1).uniform(-1, 2, tuple(y.shape)).astype(dtype)
    v = lib.tensor(up, requires_grad=True)
    (g,) = lib.autograd.grad(y, x, v, create_graph=True)
    (h,) = lib.autograd.grad((g * g).sum(), v)
    return graph(y, 2), graph(g, 1), [y.detach().numpy(), g.detach().numpy(), h.numpy()]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("shape", "kwargs"), CASES)
def test_linear_modes_match_torch(
    torch_module: ModuleType, shape: Any, kwargs: Any, dtype: Any
) -> None:
    mine, theirs = _run(microtorch, shape, kwargs, dtype), _run(torch_module, shape, kwargs, dtype)
    assert mine[:2] == theirs[:2]
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for a, b in zip(mine[2], theirs[2], strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("corners", [False, True])
def test_bilinear_by_finite_differences(corners: bool) -> None:
    x = microtorch.tensor(
        np.random.default_rng(3).standard_normal((1, 2, 3, 4)), requires_grad=True
    )

    def f(x: Any) -> Any:
        return microtorch.nn.functional.interpolate(
            x, size=(5, 3), mode="bilinear", align_corners=corners
        )

    assert gradcheck(f, (x,))
    assert gradgradcheck(lambda x: f(x) ** 2, (x,))


def test_upsample_layer_bilinear_matches_torch(torch_module: ModuleType) -> None:
    x = np.random.default_rng(4).standard_normal((1, 2, 3, 3)).astype(np.float32)
    outs = []
    for lib in (microtorch, torch_module):
        layer = lib.nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
        outs.append((repr(layer), layer(lib.tensor(x)).numpy()))
    assert outs[0][0] == outs[1][0]
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-6, atol=1e-6)


ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "linear_of_4d": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 2, 2), scale_factor=2, mode="linear"
    ),
    "bilinear_of_3d": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 2), scale_factor=2, mode="bilinear"
    ),
    "integer_input": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 3, dtype=L.int64), scale_factor=2, mode="linear"
    ),
    "align_corners_with_nearest": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 3), scale_factor=2, align_corners=True
    ),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    theirs = error_of(lambda: ERRORS[name](torch_module))
    assert theirs[0] != "no error"
    assert error_of(lambda: ERRORS[name](microtorch)) == theirs

"""F.interpolate (nearest), nn.Upsample and nn.UpsamplingNearest2d against PyTorch 2.13:
values, float64 gradients (also by finite differences), grad_fn names, errors and reprs."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

# (input shape, keyword arguments)
CASES: list[tuple[tuple[int, ...], dict[str, Any]]] = [
    ((2, 3, 4, 5), {"scale_factor": 2}),
    ((1, 2, 3, 4), {"scale_factor": (2, 3)}),
    ((1, 1, 5, 7), {"size": (3, 4)}),
    ((1, 2, 4, 4), {"size": 6}),
    ((1, 1, 5, 5), {"scale_factor": 0.7}),
    ((1, 1, 3, 3), {"scale_factor": 1.5}),
    ((1, 1, 3, 3), {"scale_factor": 1.7, "recompute_scale_factor": True}),
    ((2, 3, 5), {"scale_factor": 3}),
    ((2, 3, 7), {"size": 4}),
    ((1, 1, 6, 6), {"size": (6, 12)}),
]


def _run(lib: ModuleType, shape: tuple[int, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    x = lib.tensor(np.random.default_rng(0).standard_normal(shape), requires_grad=True)
    y = lib.nn.functional.interpolate(x, **kwargs)
    y.backward(lib.tensor(np.random.default_rng(1).uniform(-1, 2, tuple(y.shape))))
    return {"out": y.detach().numpy(), "grad": x.grad.numpy(), "fn": type(y.grad_fn).__name__}


@pytest.mark.parametrize(("shape", "kwargs"), CASES)
def test_nearest_matches_torch(torch_module: ModuleType, shape: Any, kwargs: Any) -> None:
    mine, theirs = _run(microtorch, shape, kwargs), _run(torch_module, shape, kwargs)
    assert mine["fn"] == theirs["fn"]
    for key in ("out", "grad"):
        assert mine[key].shape == theirs[key].shape
        np.testing.assert_array_equal(mine[key], theirs[key])


def test_gradient_by_finite_differences() -> None:
    x = microtorch.tensor(
        np.random.default_rng(2).standard_normal((1, 2, 3, 3)), requires_grad=True
    )
    f = microtorch.nn.functional.interpolate
    assert microtorch.autograd.gradcheck(lambda a: f(a, size=(5, 4)), (x,))


def test_layers_and_errors_match_torch(torch_module: ModuleType) -> None:
    def layers(lib: ModuleType) -> list[Any]:
        nn, x = lib.nn, lib.tensor(np.arange(12.0).reshape(1, 1, 3, 4))
        made = [nn.Upsample(scale_factor=2), nn.Upsample(size=(3, 5)),
                nn.Upsample(scale_factor=(2, 1)), nn.UpsamplingNearest2d(scale_factor=2),
                nn.UpsamplingNearest2d(size=2)]  # fmt: skip
        return [(repr(m), m(x).tolist()) for m in made]

    assert layers(microtorch) == layers(torch_module)

    def calls(lib: ModuleType) -> list:
        F, x = lib.nn.functional, lib.ones(1, 1, 2, 2)
        return [
            lambda: F.interpolate(x),
            lambda: F.interpolate(x, size=3, scale_factor=2),
            lambda: F.interpolate(x, scale_factor=2, align_corners=True),
            lambda: F.interpolate(lib.ones(2, 3), size=3),
            lambda: F.interpolate(lib.arange(6).reshape(1, 1, 6), size=4),
        ]

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]

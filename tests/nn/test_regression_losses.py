"""``smooth_l1_loss`` and ``huber_loss`` (and their modules) against PyTorch: values, dtypes,
gradients of input and target in float64 (also by finite differences), errors and reprs."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

# (function, keyword arguments, input shape, target shape)
CASES: list[tuple[str, dict[str, Any], tuple[int, ...], tuple[int, ...]]] = [
    ("smooth_l1_loss", {}, (4, 3), (4, 3)),
    ("smooth_l1_loss", {"beta": 0.5, "reduction": "sum"}, (5,), (5,)),
    ("smooth_l1_loss", {"beta": 2.0, "reduction": "none"}, (2, 3), (2, 3)),
    ("smooth_l1_loss", {"beta": 0.0}, (6,), (6,)),  # PyTorch's l1_loss
    ("smooth_l1_loss", {"beta": 0.3}, (3, 4), (4,)),  # broadcast target, with the warning
    ("smooth_l1_loss", {}, (0,), (0,)),  # empty: nan
    ("huber_loss", {}, (4, 3), (4, 3)),
    ("huber_loss", {"delta": 0.4, "reduction": "sum"}, (7,), (7,)),
    ("huber_loss", {"delta": 3.0, "reduction": "none"}, (2, 5), (2, 5)),
    ("huber_loss", {"delta": 0.7}, (2, 1), (2, 3)),
]


def _values(seed: int, shape: tuple[int, ...]) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 1.5, shape)


def _run(lib: ModuleType, name: str, kwargs: dict[str, Any], xs: Any, ts: Any, dtype: str):
    x = lib.tensor(_values(0, xs), dtype=getattr(lib, dtype), requires_grad=True)
    t = lib.tensor(_values(1, ts), dtype=getattr(lib, dtype), requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = getattr(lib.nn.functional, name)(x, t, **kwargs)
    loss.backward(lib.ones_like(loss) * 0.7)
    return {
        "value": loss.detach().numpy(),
        "dtype": str(loss.dtype).split(".")[-1],
        "grad_fn": type(loss.grad_fn).__name__,
        "x_grad": x.grad.numpy(),
        "t_grad": t.grad.numpy(),
        "warnings": [str(w.message).replace("microtorch.", "torch.") for w in caught],
    }


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize(("name", "kwargs", "xs", "ts"), CASES)
def test_values_and_gradients_match_torch(
    torch_module: ModuleType, name: str, kwargs: dict[str, Any], xs: Any, ts: Any, dtype: str
) -> None:
    mine = _run(microtorch, name, kwargs, xs, ts, dtype)
    theirs = _run(torch_module, name, kwargs, xs, ts, dtype)
    rtol = 1e-12 if dtype == "float64" else 1e-5
    for key in ("value", "x_grad", "t_grad"):
        assert mine[key].dtype == theirs[key].dtype and mine[key].shape == theirs[key].shape
        np.testing.assert_allclose(mine[key], theirs[key], rtol=rtol, atol=rtol)
    for key in ("dtype", "grad_fn", "warnings"):
        assert mine[key] == theirs[key]


@pytest.mark.parametrize(("name", "kwargs", "xs", "ts"), CASES[:4] + CASES[6:])
def test_gradients_by_finite_differences(name: str, kwargs: dict, xs: Any, ts: Any) -> None:
    x = microtorch.tensor(_values(2, xs), dtype=microtorch.float64, requires_grad=True)
    t = microtorch.tensor(_values(3, ts), dtype=microtorch.float64, requires_grad=True)
    loss = getattr(microtorch.nn.functional, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert microtorch.autograd.gradcheck(lambda a, b: loss(a, b, **kwargs), (x, t))


def _mixed(lib: ModuleType) -> list[str]:
    # the result dtype for each mix of input and target dtypes
    F = lib.nn.functional
    f32, f64 = lib.ones(2), lib.full((2,), 2.5, dtype=lib.float64)
    ints, flags = lib.tensor([3, 0]), lib.tensor([True, False])
    out = []
    for fn in (F.smooth_l1_loss, F.huber_loss):
        for a, b in [(f32, f64), (f64, f32), (f32, ints), (ints, f32), (f32, flags)]:
            try:
                out.append(f"{fn(a, b).dtype} {fn(a, b, reduction='none').tolist()}")
            except RuntimeError as error:  # huber_loss of an integer input
                out.append(str(error).split(" (Fix:")[0])
    return out


def test_mixed_dtypes_match_torch(torch_module: ModuleType) -> None:
    assert [s.replace("microtorch.", "torch.") for s in _mixed(microtorch)] == _mixed(torch_module)


def test_huber_weight_matches_torch(torch_module: ModuleType) -> None:
    def run(lib: ModuleType, reduction: str) -> tuple[np.ndarray, np.ndarray]:
        x = lib.tensor(_values(4, (3, 2)), requires_grad=True)
        w = lib.tensor(np.abs(_values(5, (3, 2))))
        target = lib.zeros(3, 2, dtype=lib.float64)
        loss = lib.nn.functional.huber_loss(x, target, reduction, 0.8, weight=w)
        loss.sum().backward()
        return loss.detach().numpy(), x.grad.numpy()

    for reduction in ("mean", "sum", "none"):
        for a, b in zip(run(microtorch, reduction), run(torch_module, reduction)):
            np.testing.assert_allclose(a, b, rtol=1e-6)


def test_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        F, x = lib.nn.functional, lib.ones(2, 3)
        ints = lib.tensor([[1, 2, 3], [4, 5, 6]])
        return [
            lambda: F.smooth_l1_loss(x, x, beta=-1.0),
            lambda: F.huber_loss(x, x, delta=0.0),
            lambda: F.huber_loss(x, x, delta=-2.0),
            lambda: F.smooth_l1_loss(ints, ints),
            lambda: F.huber_loss(ints, ints),
            lambda: F.huber_loss(ints, x),
            lambda: F.huber_loss(lib.tensor([True]), lib.ones(1)),
            lambda: F.smooth_l1_loss(x, x, reduction="avg"),
            lambda: F.huber_loss(x, x, reduction="avg"),
            lambda: F.huber_loss(x, x, reduction="avg", weight=x),
            lambda: F.huber_loss(x, x, weight=lib.ones(3)),
            lambda: F.smooth_l1_loss(x, lib.ones(4)),
            lambda: F.huber_loss(x, lib.ones(2, 4)),
        ]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = [_message(c) for c in calls(microtorch)]
        theirs = [_message(c) for c in calls(torch_module)]
    for a, b in zip(mine, theirs):
        assert a[0] == b[0] and a[1].splitlines()[0].startswith(b[1].splitlines()[0])


def _modules(lib: ModuleType) -> list[Any]:
    nn, x, t = lib.nn, lib.tensor([0.2, -3.0, 1.0]), lib.tensor([0.0, 0.0, 0.5])
    layers = [nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5, reduction="sum"), nn.HuberLoss(),
              nn.HuberLoss(reduction="none", delta=2.0)]  # fmt: skip
    return [(repr(m), m.reduction, m(x, t).tolist(), list(m.state_dict())) for m in layers] + [
        (layers[1].beta, layers[3].delta)
    ]


def test_modules_match_torch(torch_module: ModuleType) -> None:
    mine, theirs = _modules(microtorch), _modules(torch_module)
    assert mine[-1] == theirs[-1]
    for a, b in zip(mine[:-1], theirs[:-1]):
        assert a[0] == b[0] and a[1] == b[1] and a[3] == b[3]
        np.testing.assert_allclose(a[2], b[2], rtol=1e-6)

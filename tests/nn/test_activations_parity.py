"""The activations beyond ReLU/sigmoid/tanh against PyTorch 2.13: values, dtypes, gradients in
float64 (and by finite differences), grad_fn names (in place too), integer inputs, reprs."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

# name -> keyword arguments for F.name
FUNCTIONS: dict[str, dict[str, Any]] = {
    "silu": {}, "elu": {}, "elu ": {"alpha": 0.3}, "selu": {}, "celu": {"alpha": 2.0},
    "softplus": {}, "softplus ": {"beta": 2.0, "threshold": 3.0}, "hardtanh": {},
    "hardtanh ": {"min_val": -0.5, "max_val": 2.0}, "relu6": {}, "logsigmoid": {}, "mish": {},
    "hardswish": {}, "hardsigmoid": {}, "softmin": {"dim": 1}, "softsign": {},
    "tanhshrink": {},
}  # fmt: skip
IN_PLACE = ["silu", "elu", "selu", "celu", "hardtanh", "relu6", "mish", "hardswish", "hardsigmoid"]
# values away from the kinks (-3, 0, 3, 6, the clip bounds), and large ones for overflow
VALUES = np.array([[-40.0, -4.1, -2.5, -0.7, -0.2], [0.3, 1.3, 2.6, 4.4, 50.0]])


def _run(lib: ModuleType, name: str, kwargs: dict[str, Any], dtype: str) -> dict[str, Any]:
    x = lib.tensor(VALUES, dtype=getattr(lib, dtype), requires_grad=True)
    y = getattr(lib.nn.functional, name.strip())(x, **kwargs)
    y.backward(lib.tensor(np.linspace(-1, 2, VALUES.size).reshape(VALUES.shape)).to(y.dtype))
    return {
        "out": y.detach().numpy(), "grad": x.grad.numpy(), "grad_fn": type(y.grad_fn).__name__,
        "next": [type(n).__name__ for n, _ in y.grad_fn.next_functions],
    }  # fmt: skip


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_functions_match_torch(torch_module: ModuleType, name: str, dtype: str) -> None:
    mine = _run(microtorch, name, FUNCTIONS[name], dtype)
    theirs = _run(torch_module, name, FUNCTIONS[name], dtype)
    assert mine["grad_fn"] == theirs["grad_fn"]
    assert [n.replace("torch::autograd::", "") for n in theirs["next"]] == mine["next"]
    tol = 1e-12 if dtype == "float64" else 2e-6
    for key in ("out", "grad"):
        assert mine[key].dtype == theirs[key].dtype
        np.testing.assert_allclose(mine[key], theirs[key], rtol=tol, atol=tol, err_msg=key)


# the kinks themselves: which side's slope each function takes there (hardswish: 0 at -3,
# 1 at 3, as PyTorch's hardswish_backward)
KINKS = np.array([[-6.0, -3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 3.0, 6.0]])


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_gradients_at_the_kinks_match_torch(torch_module: ModuleType, name: str) -> None:
    def grad(lib: ModuleType) -> np.ndarray:
        x = lib.tensor(KINKS, dtype=lib.float64, requires_grad=True)
        getattr(lib.nn.functional, name.strip())(x, **FUNCTIONS[name]).sum().backward()
        return x.grad.numpy()

    np.testing.assert_allclose(grad(microtorch), grad(torch_module), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_gradients_by_finite_differences(name: str) -> None:
    x = microtorch.tensor(VALUES[:, 1:-1] * 0.9, dtype=microtorch.float64, requires_grad=True)
    f = getattr(microtorch.nn.functional, name.strip())
    assert microtorch.autograd.gradcheck(lambda a: f(a, **FUNCTIONS[name]), (x,))


@pytest.mark.parametrize("name", IN_PLACE)
def test_in_place_forms_match_torch(torch_module: ModuleType, name: str) -> None:
    def run(lib: ModuleType) -> tuple[Any, ...]:
        leaf = lib.tensor(VALUES, dtype=lib.float64, requires_grad=True)
        x = leaf * 1.0
        y = getattr(lib.nn.functional, name)(x, inplace=True)
        y.sum().backward()
        return y is x, type(y.grad_fn).__name__, y.detach().numpy(), leaf.grad.numpy()

    mine, theirs = run(microtorch), run(torch_module)
    assert mine[:2] == theirs[:2]
    for a, b in zip(mine[2:], theirs[2:]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_integer_and_bool_inputs_as_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        F, ints = lib.nn.functional, lib.tensor([[-7, 2, 9]])
        out = [lambda n=n: getattr(F, n)(ints) for n in FUNCTIONS if n.strip() == n]
        return out + [
            lambda: F.hardtanh(ints, 0.5, 2.5), lambda: F.hardtanh(lib.tensor([True])),
            lambda: F.celu(lib.ones(2), alpha=0.0),
        ]  # fmt: skip

    def outcome(call: Any) -> Any:
        try:
            y = call()
        except Exception:
            return _message(call)
        return str(y.dtype).split(".")[-1], y.tolist()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # softmin without dim: PyTorch's warning
        mine = [outcome(c) for c in calls(microtorch)]
        theirs = [outcome(c) for c in calls(torch_module)]
    for a, b in zip(mine, theirs):
        if isinstance(b[1], list):
            assert a[0] == b[0]
            np.testing.assert_allclose(a[1], b[1], rtol=1e-6)
        else:
            assert a == b


def _modules(lib: ModuleType) -> list[Any]:
    nn = lib.nn
    return [
        nn.SiLU(), nn.SiLU(True), nn.ELU(), nn.ELU(0.5, True), nn.SELU(), nn.SELU(True),
        nn.CELU(2.0), nn.Softplus(), nn.Softplus(2, 10), nn.ReLU6(), nn.ReLU6(True),
        nn.Hardtanh(), nn.Hardtanh(-2, 2), nn.Hardtanh(0.0, 1.0, True), nn.LogSigmoid(),
        nn.Mish(), nn.Softmin(1), nn.Softmin(), nn.Hardswish(), nn.Hardsigmoid(True),
        nn.Softsign(), nn.Tanhshrink(),
    ]  # fmt: skip


def test_modules_match_torch(torch_module: ModuleType) -> None:
    x = VALUES[:, :4]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Softmin() without dim: PyTorch's warning
        for mine, theirs in zip(_modules(microtorch), _modules(torch_module)):
            assert repr(mine) == repr(theirs)
            assert list(mine.state_dict()) == list(theirs.state_dict()) == []
            a = mine(microtorch.tensor(x)).numpy()
            b = theirs(torch_module.tensor(x)).numpy()
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_hardtanh_errors_and_warnings_match_torch(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        with pytest.raises(AssertionError, match=r"max_val \(1.0\) must be greater"):
            lib.nn.Hardtanh(2.0, 1.0)
        with pytest.warns(FutureWarning, match="`min_value` is deprecated"):
            assert lib.nn.Hardtanh(min_value=-3.0).min_val == -3.0


@pytest.mark.parametrize(("xs", "n"), [((2, 3, 4), 3), ((2, 3, 4), 1), ((5,), 1), ((2, 3), 3)])
def test_prelu_matches_torch(torch_module: ModuleType, xs: tuple[int, ...], n: int) -> None:
    def run(lib: ModuleType) -> tuple[Any, ...]:
        layer = lib.nn.PReLU(n, init=0.3).double()
        x = lib.tensor(np.random.default_rng(4).standard_normal(xs), requires_grad=True)
        y = layer(x)
        y.backward(lib.tensor(np.random.default_rng(5).uniform(-1, 2, xs)))
        nodes = [type(m).__name__.replace("torch::autograd::", "") for m, _ in
                 y.grad_fn.next_functions]  # fmt: skip
        return repr(layer), type(y.grad_fn).__name__, nodes, y.detach().numpy(), x.grad.numpy(), (
            layer.weight.grad.numpy())  # fmt: skip

    mine, theirs = run(microtorch), run(torch_module)
    assert mine[:3] == theirs[:3]
    for a, b in zip(mine[3:], theirs[3:]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    x = microtorch.tensor(np.random.default_rng(6).standard_normal(xs), requires_grad=True)
    w = microtorch.full((n,), 0.2, dtype=microtorch.float64, requires_grad=True)
    assert microtorch.autograd.gradcheck(microtorch.nn.functional.prelu, (x, w))


def test_prelu_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        F, x = lib.nn.functional, lib.ones(2, 3, 4)
        return [
            lambda: F.prelu(x, lib.ones(2)), lambda: F.prelu(lib.ones(3), lib.ones(3)),
            lambda: F.prelu(lib.ones(2, dtype=lib.int64), lib.ones(1)),
            lambda: F.prelu(x, lib.ones(1, 3)),
        ]  # fmt: skip

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]

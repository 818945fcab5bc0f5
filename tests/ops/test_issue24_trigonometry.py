"""Issue 24: tan, sinh, cosh, the inverse trigonometric and hyperbolic functions and atan2,
their ``arc`` names, and the in-place twins of the element-wise functions (``x.sin_()``,
``torch.sin_(x)``), against PyTorch: values, dtypes, grad_fn names, gradients and errors.
(The gradients under random inputs are checked through tests/ops/optable.py too.)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import compare

pytestmark = pytest.mark.torch

UNIT = [-0.9, -0.25, 0.0, 0.3, 0.75]  # inside every domain but acosh's
ABOVE_ONE = [1.0, 1.5, 3.0, 10.0]
OUTSIDE = [-2.0, -1.0, 1.0, 2.0, float("inf"), float("nan")]
ONE_INPUT = ["tan", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh"]
ARC_NAMES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh"}
ARC_NAMES |= {"arccosh": "acosh", "arctanh": "atanh", "arctan2": "atan2"}


def _values(name: str) -> list[float]:
    return ABOVE_ONE if name == "acosh" else UNIT


CASES: dict[str, Callable[[ModuleType], Any]] = {}
for _name in ONE_INPUT:
    CASES[_name] = lambda L, n=_name: getattr(L, n)(L.tensor(_values(n), requires_grad=True))
    CASES[_name + " method"] = lambda L, n=_name: getattr(L.tensor(_values(n)), n)()
    CASES[_name + " float64"] = lambda L, n=_name: getattr(L, n)(
        L.tensor(_values(n), dtype=L.float64, requires_grad=True)
    )
    CASES[_name + " outside"] = lambda L, n=_name: getattr(L, n)(L.tensor(OUTSIDE))
    CASES[_name + " int"] = lambda L, n=_name: getattr(L, n)(L.tensor([[0, 1], [2, 3]]))
    CASES[_name + " bool"] = lambda L, n=_name: getattr(L, n)(L.tensor([True, False]))
    CASES[_name + " empty"] = lambda L, n=_name: getattr(L, n)(L.zeros(0, 3))
    CASES[_name + " 0-d"] = lambda L, n=_name: getattr(L, n)(L.tensor(_values(n)[1]))
    CASES[_name + " list"] = lambda L, n=_name: getattr(L, n)([0.5])
    CASES[_name + " input="] = lambda L, n=_name: getattr(L, n)(input=L.tensor([0.5, 1.5]))
    CASES[_name + "_"] = lambda L, n=_name: getattr(L.tensor(_values(n)), n + "_")()
    CASES[_name + "_ int"] = lambda L, n=_name: getattr(L.tensor([1, 2]), n + "_")()
    CASES["torch." + _name + "_"] = lambda L, n=_name: getattr(L, n + "_")(L.tensor(_values(n)))
CASES |= {
    "atan2": lambda L: L.atan2(L.tensor([[1.0, -2.0, 0.0]], requires_grad=True), L.tensor(
        [[0.5], [-1.5]], requires_grad=True)),
    "atan2 zeros": lambda L: L.atan2(
        L.tensor([0.0, -0.0, 0.0, -0.0]), L.tensor([0.0, 0.0, -0.0, -0.0])
    ),
    "atan2 int": lambda L: L.atan2(L.tensor([1, -2]), L.tensor([3, 4])),
    "atan2 int float64": lambda L: L.atan2(
        L.tensor([1, -2]), L.tensor([3.0, 4.0], dtype=L.float64)
    ),
    "atan2 method": lambda L: L.tensor([1.0, 2.0]).atan2(L.tensor([2.0, -1.0])),
    "atan2 number": lambda L: L.atan2(L.tensor([1.0]), 2),
    "atan2 number first": lambda L: L.atan2(2, L.tensor([1.0])),
    "atan2 method number": lambda L: L.tensor([1.0]).atan2(2),
    "atan2 shapes": lambda L: L.atan2(L.ones(2, 3), L.ones(4)),
    "atan2_": lambda L: L.tensor([1.0, 2.0]).atan2_(L.tensor([2.0, -1.0])),
    "atan2 out=": lambda L: L.atan2(L.tensor([1.0]), L.tensor([1.0]), out=L.empty(1)),
    "asin out=": lambda L: L.asin(L.tensor([0.5]), out=L.zeros(1)),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_trigonometry_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


@pytest.mark.parametrize("name", ONE_INPUT + ["atan2"])
def test_gradients_match_pytorch_in_float64(name: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> tuple[Any, ...]:
        rows = [_values(name), [v / 2 + 1.25 for v in _values(name)]]
        x = L.tensor(rows, dtype=L.float64, requires_grad=True)
        y = L.tensor([[0.3], [-2.0]], dtype=L.float64, requires_grad=True)
        out = L.atan2(x, y) if name == "atan2" else getattr(L, name)(x)
        weights = L.arange(out.numel(), dtype=L.float64).reshape(out.shape) - 1.5
        (out * weights).sum().backward()
        return out.grad_fn.name(), x.grad.numpy(), None if y.grad is None else y.grad.numpy()

    mt, t = run(microtorch), run(torch_module)
    assert mt[0] == t[0]
    np.testing.assert_allclose(mt[1], t[1], rtol=1e-12)
    if name == "atan2":
        np.testing.assert_allclose(mt[2], t[2], rtol=1e-12)


@pytest.mark.parametrize("name", ["asin", "acos", "atanh", "acosh"])
def test_gradients_at_the_domain_edge_match_pytorch(name: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> Any:
        x = L.tensor([1.0, -1.0, 2.0] if name != "acosh" else [1.0, 0.5, 2.0], requires_grad=True)
        getattr(L, name)(x).sum().backward()
        return x.grad

    compare(run, torch_module)


def test_arc_names_are_the_same_functions() -> None:
    # (arctan2 is atan2 behind its own argument parser, so that its errors name arctan2, as
    # PyTorch's do: tests/ops/test_binary_argument_errors.py)
    for arc, name in ARC_NAMES.items():
        for namespace in (microtorch, microtorch.Tensor):
            assert inspect.unwrap(getattr(namespace, arc)) is inspect.unwrap(
                getattr(namespace, name)
            )
        assert getattr(microtorch.Tensor, arc + "_") is getattr(microtorch.Tensor, name + "_")


# --- the in-place twins of the functions microtorch had before ---------------------------
TWINS = ["abs", "neg", "exp", "log", "log1p", "sqrt", "sin", "cos", "sigmoid", "tanh"]
TWINS += ["reciprocal", "log10", "log2", "square", "ceil", "floor", "round", "trunc", "sign"]
TORCH_TWINS = [n for n in TWINS if n != "sign"] + ["relu", "clamp", "clip", "negative"]
FLOATS = [[0.25, 1.5, 2.0], [3.5, 0.75, 100.0]]


def _twin_run(name: str, L: ModuleType, via_torch: bool = False) -> Any:
    leaf = L.tensor(FLOATS, dtype=L.float64, requires_grad=True)  # (float64: the formulas'
    x = leaf * 1.0  # float32 roundings, e.g. tanh's 1 - z**2, are not what is tested here)
    args = (0.5,) if name in ("clamp", "clip") else ()
    before = x._version
    out = getattr(L, name + "_")(x, *args) if via_torch else getattr(x, name + "_")(*args)
    assert out is x and x._version == before + 1
    (x * L.arange(6.0, dtype=L.float64).reshape(2, 3)).sum().backward()
    return L.stack([x.detach(), leaf.grad]) if name not in ("relu",) else x


@pytest.mark.parametrize("name", TWINS + ["bitwise_not", "absolute", "negative", "clip"])
def test_method_twins_match_pytorch(name: str, torch_module: ModuleType) -> None:
    if name == "bitwise_not":
        compare(lambda L: L.tensor([1, -2, 0]).bitwise_not_(), torch_module)
        compare(lambda L: L.tensor([1.0]).bitwise_not_(), torch_module)
        return
    compare(lambda L: _twin_run(name, L), torch_module)
    compare(
        lambda L: getattr(L.tensor(FLOATS, requires_grad=True), name + "_")(
            *(0.5,) * (name == "clip")
        ),
        torch_module,
    )  # fmt: skip  (a leaf: PyTorch's error)


@pytest.mark.parametrize("name", TORCH_TWINS)
def test_torch_twins_match_pytorch(name: str, torch_module: ModuleType) -> None:
    compare(lambda L: _twin_run(name, L, via_torch=True), torch_module)


@pytest.mark.parametrize(
    "call",
    [
        lambda L: L.tensor([[1, 2], [3, 4]]).exp_(),  # a float result into an int tensor
        lambda L: L.tensor([[1, 2], [3, 4]]).cumsum_(1),
        lambda L: L.tensor([[1.0, 2], [3, 4]]).cumprod_(dim=0),
        lambda L: L.tensor([1.0, -7.0]).fmod_(3),
        lambda L: L.tensor([1.25, -7.5]).round_(decimals=1),
        lambda L: L.tensor([2, 3]).square_(),
        lambda L: L.tensor([1.0, 2.0]).expand(2, 2).sin_(),  # expanded: PyTorch refuses
        lambda L: L.tensor([1.0, 2.0]).multiply_(3).divide_(2).subtract_(1),
    ],
)
def test_twin_edges_match_pytorch(
    call: Callable[[ModuleType], Any], torch_module: ModuleType
) -> None:
    compare(call, torch_module)


def test_twin_through_a_view_writes_the_base(torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> Any:
        leaf = L.tensor(FLOATS, requires_grad=True)
        base = leaf * 1.0
        base[0].exp_()
        base.sum().backward()
        return L.stack([base.detach(), leaf.grad])

    compare(run, torch_module)


def test_log10_prints_as_pytorch(torch_module: ModuleType) -> None:
    for values in ([100.0], [1000.0, 10.0, 1.0], [1e-3, 1e5]):
        for dtype in ("float32", "float16", "float64"):
            mt = microtorch.log10(microtorch.tensor(values, dtype=getattr(microtorch, dtype)))
            t = torch_module.log10(torch_module.tensor(values, dtype=getattr(torch_module, dtype)))
            assert repr(mt).replace("microtorch", "torch") == repr(t)
    mt, t = (
        microtorch.log2(microtorch.tensor([8.0, 1024.0])),
        torch_module.log2(torch_module.tensor([8.0, 1024.0])),
    )
    assert repr(mt) == repr(t)

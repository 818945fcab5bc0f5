"""walkb: float_power, ldexp, frexp, nextafter, heaviside, hardshrink, celu/selu (and their
in-place forms), prelu, bitwise shifts (and << >>), dist, scalar_tensor and can_cast, with
their methods and in-place twins, against PyTorch: values, dtypes, grad_fn names, float64
gradients and errors.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.ops.test_issue13_operators import compare

pytestmark = pytest.mark.torch


def x(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([0.5, -2.0, 3.0, 0.25, -0.75, 0.0], **kw).requires_grad_()


def x64(L: ModuleType) -> Any:
    return x(L, dtype=L.float64)


def ints(L: ModuleType) -> Any:
    return L.tensor([1, -16, 7, 0, 255])


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "float_power": lambda L: L.float_power(x(L), 2),
    "float_power tensor": lambda L: L.float_power(x64(L).abs(), x64(L)),
    "float_power number base": lambda L: L.float_power(2, x(L)),
    "float_power int": lambda L: L.float_power(L.tensor([2, 3]), 2),
    "float_power method": lambda L: x(L).float_power(0.5),
    "float_power_": lambda L: L.tensor([2.0, 3.0], dtype=L.float64).float_power_(2),
    "float_power_ float32": lambda L: L.tensor([2.0, 3.0]).float_power_(2),
    "ldexp": lambda L: L.ldexp(x64(L), L.tensor([1, 2, 3, -1, 0, 5])),
    "ldexp float32": lambda L: L.ldexp(x(L), L.tensor([2])),
    "ldexp int": lambda L: L.ldexp(L.tensor([1]), L.tensor([2])),
    "ldexp float exponent": lambda L: L.ldexp(x64(L), x64(L)),
    "ldexp number": lambda L: L.ldexp(L.tensor([1.0]), 2),
    "ldexp_": lambda L: L.ldexp_(L.tensor([1.0, 3.0]), L.tensor([2, -1])),
    "ldexp_ method": lambda L: L.tensor([1.0, 3.0]).ldexp_(L.tensor([2, -1])),
    "frexp mantissa": lambda L: L.frexp(L.tensor([8.0, -0.3, 0.0, float("inf"), 1e-40]))[0],
    "frexp exponent": lambda L: L.frexp(L.tensor([8.0, -0.3, 0.0, 1e-40])).exponent,
    "frexp float64": lambda L: L.tensor([8.0, 1e-300], dtype=L.float64).frexp().mantissa,
    "frexp int": lambda L: L.frexp(L.tensor([8])),
    "nextafter": lambda L: L.nextafter(L.tensor([1.0, 2.0, 0.0]), L.tensor([2.0, 1.0, -1.0])),
    "nextafter float64": lambda L: x64(L).nextafter(L.tensor(10.0, dtype=L.float64)),
    "nextafter int": lambda L: L.nextafter(L.tensor([1]), L.tensor([2])),
    "nextafter_": lambda L: L.tensor([1.0]).nextafter_(L.tensor([2.0])),
    "heaviside": lambda L: L.heaviside(L.tensor([-1.0, 0.0, 2.0]), L.tensor([0.5])),
    "heaviside int": lambda L: L.tensor([-1, 0, 2]).heaviside(L.tensor([7])),
    "heaviside dtypes": lambda L: L.heaviside(L.tensor([-1, 0, 2]), L.tensor([0.5])),
    "heaviside_": lambda L: L.tensor([-1.0, 0.0]).heaviside_(L.tensor([0.5])),
    "hardshrink": lambda L: L.hardshrink(x(L), 1.0),
    "hardshrink method": lambda L: x64(L).hardshrink(),
    "hardshrink keyword": lambda L: x64(L).hardshrink(lambd=0.3),
    "hardshrink int": lambda L: L.tensor([1, 2]).hardshrink(),
    "celu": lambda L: L.celu(x64(L)),
    "celu alpha": lambda L: L.celu(x(L), 2.0),
    "celu_": lambda L: L.celu_(L.tensor([1.0, -1.0])),
    "selu": lambda L: L.selu(x64(L)),
    "selu_": lambda L: L.selu_(L.tensor([1.0, -1.0])),
    "selu int": lambda L: L.selu(L.tensor([1])),
    "prelu": lambda L: L.prelu(x64(L), L.tensor([0.25], dtype=L.float64)),
    "left shift": lambda L: L.bitwise_left_shift(ints(L), 3),
    "left shift tensor": lambda L: ints(L).bitwise_left_shift(L.tensor([0, 1, 2, 63, 64])),
    "left shift negative count": lambda L: ints(L) << -1,
    "left shift number first": lambda L: 1 << ints(L).abs().clamp(max=10),
    "left shift uint8": lambda L: L.tensor([255, 3], dtype=L.uint8) << 1,
    "left shift int8 past width": lambda L: L.tensor([3], dtype=L.int8) << 8,
    "left shift_": lambda L: ints(L).bitwise_left_shift_(2),
    "<<=": lambda L: _ilshift(L),
    "right shift": lambda L: L.bitwise_right_shift(ints(L), 2),
    "right shift past width": lambda L: ints(L) >> 64,
    "right shift negative count": lambda L: ints(L) >> -1,
    "right shift number first": lambda L: 1024 >> ints(L).abs().clamp(max=10),
    "right shift_": lambda L: ints(L).bitwise_right_shift_(1),
    "right shift float": lambda L: L.tensor([16.0]) >> 2,
    "shift bool": lambda L: L.tensor([True]) << 1,
    "dist": lambda L: L.dist(x64(L), L.zeros(6, dtype=L.float64)),
    "dist p=3": lambda L: L.dist(x64(L), L.ones(6, dtype=L.float64), 3),
    "dist inf": lambda L: x64(L).dist(L.ones(6, dtype=L.float64), float("inf")),
    "dist 0": lambda L: x64(L).dist(L.ones(6, dtype=L.float64), 0),
    "dist 1": lambda L: x(L).dist(L.ones(1), p=1),
    "dist int": lambda L: L.dist(L.tensor([1, 2]), L.tensor([1, 2])),
    "dist broadcast": lambda L: L.dist(L.ones(2, 3), L.arange(3.0)),
    "dist mixed dtypes": lambda L: L.dist(L.ones(3), L.ones(3, dtype=L.float64)),
    "dist shapes": lambda L: L.dist(L.ones(2), L.ones(3)),
    "scalar_tensor": lambda L: L.scalar_tensor(3),
    "scalar_tensor bool": lambda L: L.scalar_tensor(True),
    "scalar_tensor dtype": lambda L: L.scalar_tensor(3, dtype=L.int64),
    "scalar_tensor float64": lambda L: L.scalar_tensor(0.1, dtype=L.float64),
    "scalar_tensor requires_grad": lambda L: L.scalar_tensor(2.0, requires_grad=True),
    "can_cast": lambda L: str(
        [
            L.can_cast(a, b)
            for a in (L.bool, L.uint8, L.int8, L.int64, L.float16, L.float32, L.float64)
            for b in (L.bool, L.uint8, L.int8, L.int64, L.float16, L.float32, L.float64)
        ]
    ),
    "can_cast not a dtype": lambda L: L.can_cast(1, L.int32),
}


def _ilshift(L: ModuleType) -> Any:
    t = ints(L)
    t <<= 2
    return t


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


OTHER = [1.0, 0.5, -1.0, 0.25, 2.0, 1.0]

GRADS: dict[str, Callable[[ModuleType, Any], Any]] = {
    "float_power": lambda L, t: L.float_power(t, 3),
    "float_power tensor": lambda L, t: L.float_power(t.abs() + 1, t),
    "float_power number": lambda L, t: L.float_power(1.5, t),
    "ldexp": lambda L, t: L.ldexp(t, L.tensor([1, 2, 3, -1, 0, 5])),
    "ldexp float": lambda L, t: L.ldexp(t, t * 2),
    "nextafter": lambda L, t: L.nextafter(t, t * 2),
    "hardshrink": lambda L, t: L.hardshrink(t, 0.4),
    "dist": lambda L, t: L.dist(t, L.tensor(OTHER, dtype=L.float64)),
    "dist p=3": lambda L, t: L.dist(t, L.tensor(OTHER, dtype=L.float64), 3),
    "dist p=1": lambda L, t: L.dist(t, L.tensor(OTHER, dtype=L.float64), 1),
    "dist inf": lambda L, t: L.dist(t, L.tensor(OTHER, dtype=L.float64), float("inf")),
    "dist both": lambda L, t: L.dist(t, t * t),
    "celu": lambda L, t: L.celu(t, 1.5),
    "selu": lambda L, t: L.selu(t),
}


@pytest.mark.parametrize("case", list(GRADS))
def test_float64_gradients(case: str, torch_module: ModuleType) -> None:
    values = [0.5, -2.0, 3.0, 0.3, -0.75, 1.25]
    weights = np.linspace(-1.0, 2.0, len(values))
    grads = []
    for L in (microtorch, torch_module):
        t = L.tensor(values, dtype=L.float64, requires_grad=True)
        y = GRADS[case](L, t)
        (y * L.tensor(weights, dtype=L.float64)).sum().backward()
        grads.append((y.grad_fn.name(), t.grad.numpy()))
    assert grads[0][0] == grads[1][0]
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-10, atol=1e-300)
    # (nextafter's derivative is a convention, and so is ldexp's for an integer exponent
    # below 0, where PyTorch computes 2**b in integers: 0)
    if case not in ("nextafter", "ldexp"):
        t = microtorch.tensor(values, dtype=microtorch.float64, requires_grad=True)
        assert gradcheck(lambda v: GRADS[case](microtorch, v), (t,))


def test_frexp_is_a_return_type(torch_module: ModuleType) -> None:
    r = microtorch.frexp(microtorch.tensor([3.0]))
    assert isinstance(r, microtorch.return_types.frexp)
    assert type(torch_module.frexp(torch_module.tensor([3.0]))).__name__ == "frexp"
    mantissa, exponent = r
    assert mantissa.item() == 0.75 and exponent.item() == 2


def test_heaviside_with_gradient_says_it_has_none() -> None:
    # PyTorch records a NotImplemented node and fails at backward; microtorch fails at once
    t = microtorch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="heaviside has no gradient"):
        microtorch.heaviside(t, microtorch.tensor([0.5]))

"""Issue 13, operators: ``// % ^ & | ~ +``, ``in``, their in-place forms, and the functions
behind them (floor_divide, remainder, fmod, div(rounding_mode=), bitwise_*), against PyTorch.

Each case is a small program run on both libraries; values, dtypes, grad_fn names, gradients
under a non-uniform upstream gradient, and exception types and messages must agree (ours may
add a fix in parentheses after PyTorch's text).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck

pytestmark = pytest.mark.torch

INTS = ([-7, 7, -3, 5, 0, 6], [2, -2, 3, -3, 4, -5])
FLOATS = ([-7.5, 7.5, -3.0, 5.0, 0.25, -0.5], [2.0, -2.0, 3.0, -3.0, 0.5, 0.75])


def outcome(fn: Callable[[Any], Any], lib: ModuleType) -> Any:
    """What ``fn(lib)`` gives: ("ok", result) or ("error", type name, message)."""
    try:
        return ("ok", fn(lib))
    except Exception as error:  # noqa: BLE001 - the exception is what is compared
        return ("error", type(error).__name__, str(error))


def same(mt: Any, t: Any) -> None:
    """A microtorch result matches a torch result: values, dtype, grad_fn name."""
    if isinstance(t, (bool, int, float, str)):
        assert type(mt) is type(t) and mt == t
        return
    assert tuple(mt.shape) == tuple(t.shape)
    assert str(mt.dtype).split(".")[1] == str(t.dtype).split(".")[1]
    m_values, t_values = mt.detach().numpy(), t.detach().numpy()
    np.testing.assert_allclose(m_values, t_values, rtol=1e-6)
    zeros = t_values == 0  # -0.0 and 0.0 print differently: their signs must agree too
    assert np.array_equal(np.signbit(m_values[zeros]), np.signbit(t_values[zeros]))
    t_name = None if t.grad_fn is None else t.grad_fn.name()
    assert (None if mt.grad_fn is None else mt.grad_fn.name()) == t_name
    if t.grad_fn is not None:
        assert len(mt.grad_fn.next_functions) == len(t.grad_fn.next_functions)


def compare(fn: Callable[[Any], Any], torch: ModuleType) -> Any:
    """Run ``fn`` on both libraries and check they agree; returns microtorch's result."""
    mt, t = outcome(fn, microtorch), outcome(fn, torch)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
        return None
    same(mt[1], t[1])
    return mt[1]


def ints(lib: ModuleType, dtype: str = "int64") -> tuple[Any, Any]:
    return tuple(lib.tensor(v, dtype=getattr(lib, dtype)) for v in INTS)  # type: ignore[return-value]


def floats(lib: ModuleType, requires_grad: bool = True) -> tuple[Any, Any]:
    return tuple(lib.tensor(v, requires_grad=requires_grad) for v in FLOATS)  # type: ignore[return-value]


MASKS = ([True, False, True, False], [True, True, False, False])

VALUE_CASES: dict[str, Callable[[Any], Any]] = {
    "int // int": lambda lib: ints(lib)[0] // ints(lib)[1],
    "int % int": lambda lib: ints(lib)[0] % ints(lib)[1],
    "int // number": lambda lib: ints(lib)[0] // 2,
    "int % -number": lambda lib: ints(lib)[0] % -3,
    "number // int": lambda lib: 7 // ints(lib)[1],
    "number % int": lambda lib: -7 % ints(lib)[1],
    "float number % int": lambda lib: -7.5 % ints(lib)[1],
    "int // float number": lambda lib: ints(lib)[0] // 2.5,
    "int % float number": lambda lib: ints(lib)[0] % 2.5,
    "int8 // int8": lambda lib: ints(lib, "int8")[0] // ints(lib, "int8")[1],
    "int32 // int64": lambda lib: ints(lib, "int32")[0] // ints(lib)[1],
    "float // float": lambda lib: floats(lib)[0] // floats(lib)[1],
    "float % float": lambda lib: floats(lib)[0] % floats(lib)[1],
    "float // number": lambda lib: floats(lib)[0] // 2,
    "float % number": lambda lib: floats(lib)[0] % 2,
    "float % -number": lambda lib: floats(lib)[0] % -0.75,
    "number // float": lambda lib: 7.0 // floats(lib)[0],
    "number % float": lambda lib: 7 % floats(lib)[0],
    "float // 0": lambda lib: floats(lib)[0] // 0,
    "float % 0": lambda lib: floats(lib)[0] % 0,
    "float64 % float32 0-d": lambda lib: floats(lib)[0].double() % lib.tensor(2.0),
    "int // 0": lambda lib: ints(lib)[0] // 0,
    "int % 0": lambda lib: ints(lib)[0] % 0,
    "int // int zeros": lambda lib: ints(lib)[1] // ints(lib)[0],
    "fmod int 0": lambda lib: lib.fmod(ints(lib)[0], 0),
    "bool // bool": lambda lib: lib.tensor(MASKS[0]) // lib.tensor(MASKS[1]),
    "bool % bool": lambda lib: lib.tensor(MASKS[0]) % lib.tensor(MASKS[1]),
    "fmod bool": lambda lib: lib.fmod(lib.tensor(MASKS[0]), lib.tensor(MASKS[1])),
    "floor_divide": lambda lib: lib.floor_divide(*floats(lib)),
    "floor_divide number first": lambda lib: lib.floor_divide(7, ints(lib)[1]),
    "floor_divide keywords": lambda lib: lib.floor_divide(input=floats(lib)[0], other=2),
    "remainder": lambda lib: lib.remainder(*floats(lib)),
    "remainder number first": lambda lib: lib.remainder(7, ints(lib)[1]),
    "remainder 0-d tensor": lambda lib: lib.remainder(floats(lib)[0], lib.tensor(2.0)),
    "fmod": lambda lib: lib.fmod(*floats(lib)),
    "fmod int": lambda lib: lib.fmod(*ints(lib)),
    "fmod number": lambda lib: lib.fmod(floats(lib)[0], 2),
    "fmod 0-d tensor": lambda lib: lib.fmod(floats(lib)[0], lib.tensor(2.0)),
    "methods": lambda lib: ints(lib)[0].remainder(3) + ints(lib)[0].floor_divide(2),
    "fmod method": lambda lib: floats(lib)[0].fmod(2),
    "div floor": lambda lib: lib.div(*floats(lib), rounding_mode="floor"),
    "div trunc": lambda lib: lib.div(*floats(lib), rounding_mode="trunc"),
    "div floor number": lambda lib: lib.div(floats(lib)[0], 2, rounding_mode="floor"),
    "div floor 0-d": lambda lib: lib.div(floats(lib)[0], lib.tensor(2.0), rounding_mode="floor"),
    "div trunc int": lambda lib: lib.div(*ints(lib), rounding_mode="trunc"),
    "div floor int": lambda lib: lib.div(*ints(lib), rounding_mode="floor"),
    "div trunc int 0": lambda lib: lib.div(ints(lib)[0], 0, rounding_mode="trunc"),
    "div floor bool": lambda lib: lib.div(lib.tensor(MASKS[0]), True, rounding_mode="floor"),
    "div bad mode": lambda lib: lib.div(*floats(lib), rounding_mode="round"),
    "div method": lambda lib: floats(lib)[0].div(3, rounding_mode="trunc"),
    "div floor number first": lambda lib: lib.div(7, floats(lib)[0], rounding_mode="floor"),
    "div trunc number first int": lambda lib: lib.div(7, ints(lib)[1], rounding_mode="trunc"),
    "int & int": lambda lib: lib.tensor([1, 2]) & lib.tensor([3, 3]),
    "int | int": lambda lib: ints(lib)[0] | ints(lib)[1],
    "int ^ int": lambda lib: ints(lib)[0] ^ ints(lib)[1],
    "~int": lambda lib: ~ints(lib)[0],
    "int ^ number": lambda lib: ints(lib)[0] ^ 3,
    "number & int": lambda lib: 3 & ints(lib)[0],
    "number | int": lambda lib: 8 | ints(lib)[0],
    "number ^ bool": lambda lib: 7 ^ lib.tensor(MASKS[0]),
    "int8 & int64": lambda lib: ints(lib, "int8")[0] & ints(lib)[1],
    "uint8 | number": lambda lib: lib.tensor([1, 2, 255], dtype=lib.uint8) | 4,
    "bool & bool": lambda lib: lib.tensor(MASKS[0]) & lib.tensor(MASKS[1]),
    "bool | bool": lambda lib: lib.tensor(MASKS[0]) | lib.tensor(MASKS[1]),
    "bool ^ bool": lambda lib: lib.tensor(MASKS[0]) ^ lib.tensor(MASKS[1]),
    "~bool": lambda lib: ~lib.tensor(MASKS[0]),
    "bool & True": lambda lib: lib.tensor(MASKS[0]) & True,
    "bool & 1": lambda lib: lib.tensor(MASKS[0]) & 1,
    "int & True": lambda lib: ints(lib)[0] & True,
    "comparisons &": lambda lib: (floats(lib)[0] > 0) & (floats(lib)[1] < 1),
    "float & float": lambda lib: floats(lib)[0] & floats(lib)[1],
    "float | float": lambda lib: floats(lib)[0] | floats(lib)[1],
    "float ^ float": lambda lib: floats(lib)[0] ^ floats(lib)[1],
    "double & int": lambda lib: floats(lib)[0].double() & 1,
    "~float": lambda lib: ~floats(lib)[0],
    "int & float number": lambda lib: ints(lib)[0] & 1.5,
    "float number & int": lambda lib: 1.5 & ints(lib)[0],
    "int & bad shape": lambda lib: ints(lib)[0] & lib.tensor([1, 2]),
    "bitwise_and": lambda lib: lib.bitwise_and(*ints(lib)),
    "bitwise_and keywords": lambda lib: lib.bitwise_and(input=ints(lib)[0], other=3),
    "bitwise_and number first": lambda lib: lib.bitwise_and(3, ints(lib)[0]),
    "bitwise_or": lambda lib: lib.bitwise_or(*ints(lib)),
    "bitwise_xor number": lambda lib: lib.bitwise_xor(ints(lib)[0], 1),
    "bitwise_not": lambda lib: lib.bitwise_not(ints(lib)[0]),
    "bitwise_not bool": lambda lib: lib.bitwise_not(lib.tensor(MASKS[0])),
    "bitwise_not float": lambda lib: lib.bitwise_not(floats(lib)[0]),
    "bitwise methods": lambda lib: ints(lib)[0].bitwise_and(6).bitwise_or(1).bitwise_xor(2),
    "bitwise_not method": lambda lib: ints(lib)[0].bitwise_not(),
    "bitwise_and float method": lambda lib: floats(lib)[0].bitwise_and(floats(lib)[0]),
    "+float": lambda lib: +floats(lib)[0],
    "+int": lambda lib: +ints(lib)[0],
    "+bool": lambda lib: +lib.tensor(MASKS[0]),
    "+ is the tensor": lambda lib: (lambda x: (+x) is x and lib.positive(x) is x)(floats(lib)[0]),
    "int in": lambda lib: -3 in ints(lib)[0],
    "int not in": lambda lib: 3 in ints(lib)[0],
    "float number in int": lambda lib: -3.0 in ints(lib)[0],
    "float in": lambda lib: 0.25 in floats(lib)[0],
    "0-d tensor in": lambda lib: lib.tensor(6) in ints(lib)[0],
    "bool in": lambda lib: True in lib.tensor(MASKS[0]),
    "str in": lambda lib: "a" in ints(lib)[0],
    "int // str": lambda lib: ints(lib)[0] // "a",
    "None % int": lambda lib: None % ints(lib)[0],
    "list // int": lambda lib: [1, 2] // ints(lib)[0],
    "int & None": lambda lib: ints(lib)[0] & None,
    "list | int": lambda lib: [1] | ints(lib)[0],
    "array ^ int": lambda lib: np.arange(6) ^ ints(lib)[0],
    "numpy int & int": lambda lib: np.int64(3) & ints(lib)[0],
    "tensor in, bad shape": lambda lib: lib.tensor([3, 5]) in ints(lib)[0],
}


@pytest.mark.parametrize("name", VALUE_CASES)
def test_operator_matches_torch(name: str, torch_module: ModuleType) -> None:
    compare(VALUE_CASES[name], torch_module)


def _inplace(code: str) -> Callable[[Any], Any]:
    def run(lib: ModuleType) -> Any:
        env = {"lib": lib, "a": ints(lib)[0], "b": ints(lib)[1], "m": lib.tensor(MASKS[0])}
        env["x"], env["y"] = floats(lib)
        env["f"] = floats(lib, requires_grad=False)[0]
        exec(code, env)  # noqa: S102 - the same statement on both libraries
        return env["t"]

    return run


INPLACE_CASES = [
    "t = a.clone(); t &= b",
    "t = a.clone(); t |= 3",
    "t = a.clone(); t ^= b",
    "t = a.clone(); t //= b",
    "t = a.clone(); t %= b",
    "t = a.clone(); t //= 2.5",
    "t = a.clone(); t %= 2.5",
    "t = a.clone(); t &= m",
    "t = a.clone(); t //= 0",
    "t = f.clone(); t //= 2",
    "t = f.clone(); t %= -2",
    "t = f.clone(); t &= f",
    "t = m.clone(); t &= True",
    "t = m.clone(); t ^= m",
    "t = x * 1; t %= 2",
    "t = x * 1; t %= y",
    "t = x * 1; t //= 2",
    "t = x; t %= 2",
    "t = x; t //= 2",
    "t = a.clone(); t.bitwise_and_(6)",
    "t = a.clone(); t.remainder_(4)",
    "t = a.clone(); t.floor_divide_(4)",
    "t = x * 1; t.div_(2, rounding_mode='floor')",
    "t = a.clone(); t.div_(b, rounding_mode='trunc')",
    "t = a.clone(); t.div_(2.5, rounding_mode='floor')",
    "t = f.clone(); t.div_(2)",
]


@pytest.mark.parametrize("code", INPLACE_CASES)
def test_inplace_operator_matches_torch(code: str, torch_module: ModuleType) -> None:
    compare(_inplace(code), torch_module)


GRAD_CASES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "remainder": lambda lib, x, y: x % y,
    "remainder number": lambda lib, x, y: x % 2,
    "fmod": lambda lib, x, y: lib.fmod(x, y),
    "fmod number": lambda lib, x, y: lib.fmod(x, -2),
    "div floor": lambda lib, x, y: lib.div(x, y, rounding_mode="floor"),
    "div trunc": lambda lib, x, y: lib.div(x, y, rounding_mode="trunc"),
    "div floor number": lambda lib, x, y: lib.div(x, 2, rounding_mode="floor") * x,
    "broadcast remainder": lambda lib, x, y: x.reshape(2, 3) % y[:3],
    "in-place remainder": lambda lib, x, y: (x * 1).remainder_(y),
    "floor_divide": lambda lib, x, y: x // y,
    "floor_divide number": lambda lib, x, y: x // 2,
    "number // float": lambda lib, x, y: 7 // x,
    "number % float": lambda lib, x, y: 7 % x,
}


@pytest.mark.parametrize("name", GRAD_CASES)
def test_gradient_matches_torch(name: str, torch_module: ModuleType) -> None:
    fn = GRAD_CASES[name]
    upstream = np.random.default_rng(0).standard_normal(6)

    def run(lib: ModuleType) -> Any:
        x, y = (lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in FLOATS)
        out = fn(lib, x, y)
        out.backward(lib.tensor(upstream.reshape(out.shape)))
        return tuple(lib.zeros(6, dtype=lib.float64) if g is None else g for g in (x.grad, y.grad))

    mt, t = outcome(run, microtorch), outcome(run, torch_module)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
        return
    for m, g in zip(mt[1], t[1]):
        same(m, g)


def test_remainder_and_fmod_gradients_match_finite_differences() -> None:
    # Away from the jumps (a / b not near an integer) both are smooth in a and b.
    x = microtorch.tensor([-7.3, 7.4, -3.2, 5.1], dtype=microtorch.float64, requires_grad=True)
    y = microtorch.tensor([2.1, -2.2, 3.3, -3.4], dtype=microtorch.float64, requires_grad=True)
    assert gradcheck(lambda a, b: a % b, (x, y))
    assert gradcheck(lambda a, b: microtorch.fmod(a, b), (x, y))
    assert gradcheck(lambda a: a % 2.5, (x,))


@pytest.mark.parametrize("changed", ["a", "b"])
@pytest.mark.parametrize("needs", ["a", "b", "ab"])
@pytest.mark.parametrize("mode", ["floor", "trunc"])
def test_div_rounded_saves_what_pytorch_saves(
    mode: str, needs: str, changed: str, torch_module: ModuleType
) -> None:
    # PyTorch's DivBackward2 reads b for a's gradient and both for b's: an in-place change
    # of what it saved makes backward raise (a float32 b of a float64 a is cast on the way)
    def run(lib: ModuleType) -> Any:
        a = lib.tensor([7.5, -3.0], dtype=lib.float64, requires_grad="a" in needs)
        b = lib.tensor([2.0, -2.5], requires_grad="b" in needs)
        z = lib.div(a, b, rounding_mode=mode)
        with lib.no_grad():
            (a if changed == "a" else b).add_(1)
        z.sum().backward()
        return [None if t.grad is None else t.grad.tolist() for t in (a, b)]

    mt, t = outcome(run, microtorch), outcome(run, torch_module)
    assert mt[0] == t[0] and mt[1:2] == t[1:2], (mt, t)
    if t[0] == "ok":
        assert mt[1] == t[1]

"""Wrong operands to the binary functions and operators, on both libraries (issue 24).

Every binary function is called as ``torch.f(a, b)``, ``x.f(b)``, ``torch.f(x)`` and
``torch.f()`` with tensors of three dtypes, numbers, a str, None and a list on either side;
every operator as ``x op v`` and ``v op x``. microtorch must give PyTorch's result dtype, or
PyTorch's exception class with PyTorch's first line at the start of its message (its own fix
may follow): the argument parser's texts for the functions ("gt() received an invalid
combination of arguments", "argument 'other' (position 1)" for a method), and Python's own for
the operators ("unsupported operand type(s) for +: 'Tensor' and 'str'").
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from itertools import product
from types import ModuleType
from typing import Any

import pytest

import microtorch
from microtorch.api.binary_functions import SIGNATURES

pytestmark = pytest.mark.torch

NAMES = sorted(SIGNATURES)
OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul"]
OPERATORS += ["gt", "ge", "lt", "le", "eq", "ne", "and_", "or_", "xor"]


def _operands(lib: ModuleType) -> dict[str, Any]:
    return {
        "xf": lib.tensor([1.5, -2.0]),
        "xi": lib.tensor([1, 2]),
        "xb": lib.tensor([True, False]),
        "2": 2,
        "2.5": 2.5,
        "True": True,
        "'a'": "a",
        "None": None,
        "[1, 2]": [1, 2],
    }


def _outcome(call: Callable[..., Any], *args: Any) -> str:
    try:
        result = call(*args)
    except Exception as error:  # noqa: BLE001 - the class and text are what is compared
        first = str(error).splitlines()[0] if str(error) else ""
        return f"{type(error).__name__}: {first}"
    if not hasattr(result, "dtype"):  # x == None is False; "a" % x formats a str
        return f"-> {result!r}"
    return f"-> {str(result.dtype).removeprefix('torch.').removeprefix('microtorch.')}"


def _function_calls(lib: ModuleType, name: str) -> dict[str, str]:
    f, values = getattr(lib, name), _operands(lib)
    outcomes = {}
    for (ka, a), (kb, b) in product(values.items(), repeat=2):
        if ka.startswith("x") or kb.startswith("x"):
            outcomes[f"torch.{name}({ka}, {kb})"] = _outcome(f, a, b)
    for ka, kb in product(("xf", "xi"), values):
        method = getattr(values[ka], name)
        outcomes[f"{ka}.{name}({kb})"] = _outcome(method, values[kb])
    outcomes[f"torch.{name}(xf)"] = _outcome(f, values["xf"])
    outcomes[f"torch.{name}()"] = _outcome(f)
    return outcomes


def _operator_calls(lib: ModuleType, name: str) -> dict[str, str]:
    op, values = getattr(operator, name), _operands(lib)
    outcomes = {}
    for kx, kv in product(("xf", "xi"), ("'a'", "None", "[1, 2]", "2.5")):
        x, v = values[kx], values[kv]
        outcomes[f"{kx} {name} {kv}"] = _outcome(op, x, v)
        outcomes[f"{kv} {name} {kx}"] = _outcome(op, v, x)
    return outcomes


def _assert_same(theirs: dict[str, str], ours: dict[str, str]) -> None:
    wrong = [
        f"{call}\n  torch:      {theirs[call]}\n  microtorch: {ours[call]}"
        for call in theirs
        if not ours[call].startswith(theirs[call])
    ]
    assert not wrong, f"{len(wrong)} of {len(theirs)} calls differ:\n" + "\n".join(wrong[:20])


@pytest.mark.parametrize("name", NAMES)
def test_a_binary_function_given_wrong_operands_answers_as_pytorch(
    name: str, torch_module: ModuleType
) -> None:
    _assert_same(_function_calls(torch_module, name), _function_calls(microtorch, name))


@pytest.mark.parametrize("name", OPERATORS)
def test_an_operator_given_an_operand_it_does_not_take_leaves_it_to_python(
    name: str, torch_module: ModuleType
) -> None:
    _assert_same(_operator_calls(torch_module, name), _operator_calls(microtorch, name))


def test_comparing_with_none_is_pythons_identity_test() -> None:
    x = microtorch.tensor([1.0, 2.0])
    assert (x == None) is False  # noqa: E711 - the comparison itself is under test
    assert (x != None) is True  # noqa: E711
    assert (x == "a") is False


def test_a_failing_call_keeps_microtorchs_fix_after_pytorchs_text() -> None:
    with pytest.raises(TypeError) as caught:
        microtorch.maximum(microtorch.ones(2), 2.0)
    message = str(caught.value)
    assert message.startswith("maximum(): argument 'other' (position 2) must be Tensor, not float")
    assert "(Fix: x.clamp(min=...) compares with a number)" in message


def test_an_alias_names_itself_in_its_errors() -> None:
    x = microtorch.ones(2)
    for alias in ("greater", "less_equal", "not_equal", "true_divide", "multiply", "arctan2"):
        with pytest.raises(TypeError, match=rf"^{alias}\(\)"):
            getattr(microtorch, alias)(x, "a")
        with pytest.raises(TypeError, match=rf"^{alias}\(\)"):
            getattr(x, alias)("a")


def _join_calls(lib: ModuleType, name: str) -> dict[str, str]:
    f, x = getattr(lib, name), lib.ones(2, 2)
    arguments = {"x": x, "'a'": "a", "[x, 'a']": [x, "a"], "(x, 2)": (x, 2), "[]": [], "3": 3}
    return {f"{name}({k})": _outcome(f, v) for k, v in arguments.items()}


@pytest.mark.parametrize("name", ["cat", "stack", "vstack", "hstack", "column_stack", "row_stack"])
def test_joining_takes_a_list_or_tuple_of_tensors_as_in_pytorch(
    name: str, torch_module: ModuleType
) -> None:
    # (vstack(x) of a matrix once joined its rows; vstack("a") showed "'str' object has no
    # attribute '_data'")
    _assert_same(_join_calls(torch_module, name), _join_calls(microtorch, name))

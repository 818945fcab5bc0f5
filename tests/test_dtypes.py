"""dtypes: names, reprs and PyTorch's promotion rules (tensors, 0-d tensors, Python numbers)."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
ALL_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "*": operator.mul,
    "/": operator.truediv,
}


def operand(lib: ModuleType, kind: str) -> Any:
    """``kind`` is "dims:<dtype>", "0d:<dtype>", "int", "float" or "bool"."""
    if kind == "int":
        return 3
    if kind == "float":
        return 2.5
    if kind == "bool":
        return True
    where, name = kind.split(":")
    values = [1, 0] if where == "dims" else 1
    return lib.tensor(values, dtype=getattr(lib, name))


KINDS = [f"{w}:{d}" for w in ("dims", "0d") for d in DTYPES] + ["int", "float", "bool"]
PAIRS = [(a, b) for a, b in itertools.product(KINDS, KINDS) if ":" in a or ":" in b]


def _name(d: Any) -> str:
    return str(d).split(".")[-1]


@pytest.mark.torch
@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize(("left", "right"), PAIRS)
def test_result_dtype_matches_torch(
    op: str, left: str, right: str, torch_module: ModuleType
) -> None:
    results = []
    for lib in (microtorch, torch_module):
        try:
            out = OPS[op](operand(lib, left), operand(lib, right))
            results.append(("ok", _name(out.dtype), tuple(out.shape)))
        except Exception as e:  # e.g. bool tensors: both libraries must refuse alike
            results.append((type(e).__name__, None, None))
    assert results[0] == results[1]


@pytest.mark.torch
@pytest.mark.parametrize(("a", "b"), list(itertools.product(ALL_DTYPES, ALL_DTYPES)))
def test_promote_types_matches_torch(a: str, b: str, torch_module: ModuleType) -> None:
    ours = microtorch.promote_types(getattr(microtorch, a), getattr(microtorch, b))
    theirs = torch_module.promote_types(getattr(torch_module, a), getattr(torch_module, b))
    assert _name(ours) == _name(theirs)


def test_wrapped_numbers_only_decide_the_category() -> None:
    i32 = microtorch.tensor([1, 2], dtype=microtorch.int32)
    assert (i32 * 2).dtype is microtorch.int32  # a Python int does not widen int32
    assert (i32 * 2.5).dtype is microtorch.float32  # a Python float makes it the default float
    f32 = microtorch.tensor([1.0, 2.0])
    assert (f32 * microtorch.tensor(2.0, dtype=microtorch.float64)).dtype is microtorch.float32
    assert (
        f32 * microtorch.tensor([2.0, 1.0], dtype=microtorch.float64)
    ).dtype is microtorch.float64
    assert (microtorch.tensor([True]) + 1).dtype is microtorch.int64
    assert (microtorch.tensor([1, 2]) / 2).dtype is microtorch.float32  # true division
    assert microtorch.result_type(i32, 2.5) is microtorch.float32


@pytest.fixture
def float64_default() -> Iterator[None]:
    microtorch.set_default_dtype(microtorch.float64)
    try:
        yield
    finally:
        microtorch.set_default_dtype(microtorch.float32)


def test_set_default_dtype_changes_floats_from_python_numbers(float64_default: None) -> None:
    assert microtorch.get_default_dtype() is microtorch.float64
    assert microtorch.tensor([1.5]).dtype is microtorch.float64
    assert (microtorch.tensor([1, 2]) * 2.5).dtype is microtorch.float64
    assert microtorch.zeros(2).dtype is microtorch.float64
    assert microtorch.tensor([1, 2]).dtype is microtorch.int64
    assert repr(microtorch.tensor([1.5])) == "tensor([1.5000])"  # the default prints no dtype


def test_set_default_dtype_refuses_integer_types() -> None:
    with pytest.raises(TypeError, match="only floating-point types"):
        microtorch.set_default_dtype(microtorch.int64)
    assert microtorch.get_default_dtype() is microtorch.float32


@pytest.mark.parametrize("name", ALL_DTYPES)
def test_dtype_prints_and_pickles_by_name(name: str) -> None:
    import pickle

    d = getattr(microtorch, name)
    assert repr(d) == str(d) == f"microtorch.{name}"
    assert d.numpy == np.dtype(name if name != "bool" else np.bool_)
    assert pickle.loads(pickle.dumps(d)) is d
    assert d.is_floating_point == name.startswith("float")


def test_aliases_are_the_same_objects() -> None:
    m = microtorch
    assert m.float is m.float32 and m.double is m.float64 and m.half is m.float16
    assert m.long is m.int64 and m.int is m.int32 and m.short is m.int16


UNARY_INT_CASES = [
    ("exp", lambda t: t.exp(), "float32"),
    ("sqrt", lambda t: t.sqrt(), "float32"),
    ("sigmoid", lambda t: t.sigmoid(), "float32"),
    ("abs", lambda t: t.abs(), "int64"),
    ("neg", lambda t: -t, "int64"),
    ("relu", lambda t: t.relu(), "int64"),
    ("sum", lambda t: t.sum(), "int64"),
    ("sum_int32", lambda t: t.int().sum(), "int64"),
    ("sum_bool", lambda t: (t > 1).sum(), "int64"),
    ("max", lambda t: t.max(), "int64"),
    ("argmax", lambda t: t.argmax(), "int64"),
    ("compare", lambda t: t > 1, "bool"),
    ("float", lambda t: t.float(), "float32"),
    ("double", lambda t: t.double(), "float64"),
    ("to", lambda t: t.to(microtorch.float64), "float64"),
    ("long_of_float", lambda t: t.float().long(), "int64"),
    ("pow", lambda t: t**2, "int64"),
    ("pow_float", lambda t: t**0.5, "float32"),
    ("rpow", lambda t: 2**t, "int64"),
    ("softmax_dtype", lambda t: t.softmax(0, dtype=microtorch.float64), "float64"),
]


@pytest.mark.parametrize(
    ("name", "fn", "expected"), UNARY_INT_CASES, ids=[c[0] for c in UNARY_INT_CASES]
)
def test_dtype_of_ops_on_integer_tensors(name: str, fn: Callable, expected: str) -> None:
    out = fn(microtorch.tensor([1, 2, 3]))
    assert out.dtype is getattr(microtorch, expected)


@pytest.mark.torch
@pytest.mark.parametrize(
    ("name", "fn", "expected"), UNARY_INT_CASES, ids=[c[0] for c in UNARY_INT_CASES]
)
def test_dtype_of_ops_on_integer_tensors_matches_torch(
    name: str, fn: Callable, expected: str, torch_module: ModuleType
) -> None:
    if name in ("to", "softmax_dtype"):
        fn = {
            "to": lambda t: t.to(torch_module.float64),
            "softmax_dtype": lambda t: t.softmax(0, dtype=torch_module.float64),
        }[name]
    out = fn(torch_module.tensor([1, 2, 3]))
    assert _name(out.dtype) == expected


def test_comparisons_return_bool_tensors_without_a_graph() -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    for mask in (x > 1, x == 2, x <= 1.5, x != x):
        assert mask.dtype is microtorch.bool
        assert mask.grad_fn is None and not mask.requires_grad
    assert (x > 1).tolist() == [False, True]

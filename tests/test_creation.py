"""Factories: dtype inference as PyTorch's, shared memory, ranges, seeded random numbers."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

# Each case runs on microtorch and on torch: same values, dtype and shape (or same error).
FACTORIES: dict[str, Callable[[ModuleType], Any]] = {
    "ints": lambda L: L.tensor([1, 2]),
    "floats": lambda L: L.tensor([1.0, 2.0]),
    "mixed_int_float": lambda L: L.tensor([1, 2.5]),
    "bools": lambda L: L.tensor([True, False]),
    "bool_and_int": lambda L: L.tensor([True, 2]),
    "nested": lambda L: L.tensor([[1, 2], [3, 4.0]]),
    "scalar_int": lambda L: L.tensor(3),
    "scalar_float": lambda L: L.tensor(2.5),
    "scalar_bool": lambda L: L.tensor(True),
    "tuple": lambda L: L.tensor((1, 2)),
    "empty": lambda L: L.tensor([]),
    "empty_nested": lambda L: L.tensor([[]]),
    "numpy_float64_scalar": lambda L: L.tensor(np.float64(1.5)),
    "numpy_int32_scalar": lambda L: L.tensor(np.int32(3)),
    "numpy_scalar_in_list": lambda L: L.tensor([np.float64(1.0), 2.0]),
    "numpy_int32_array": lambda L: L.tensor(np.array([1, 2], dtype=np.int32)),
    "numpy_float64_array": lambda L: L.tensor(np.array([1.0, 2.0])),
    "explicit_dtype": lambda L: L.tensor([1.7, -1.7], dtype=L.int64),
    "explicit_float64": lambda L: L.tensor(0.52, dtype=L.float64),
    # the seed's analytic gradient: a list of 0-d tensors keeps their dtype
    "list_of_0d": lambda L: (lambda x: L.tensor([2 * x[0] + x[1], x[0]]))(L.tensor([2.0, 3.0])),
    "list_of_0d_float64": lambda L: (lambda x: L.tensor([x[1], 2.0 * x[0]]))(
        L.tensor([2.0, 3.0], dtype=L.float64)
    ),
    "list_of_0d_int": lambda L: (lambda x: L.tensor([x[0], x[1]]))(L.tensor([2, 3])),
    # lists read in one numpy conversion: the dtype PyTorch infers, its rounding and errors
    "int_to_float32_via_double": lambda L: L.tensor([2**60 + 2**36 + 1], dtype=L.float32),
    "mixed_int_float_rounds_through_double": lambda L: L.tensor([2**60 + 2**36 + 1, 0.5]),
    "float64_keeps_every_digit": lambda L: L.tensor([0.1, 1 / 3], dtype=L.float64),
    "int_beyond_int64_with_floats": lambda L: L.tensor([2**64, 1.5]),
    "int_beyond_int64": lambda L: L.tensor([[1, 2], [3, 2**63]]),
    "int_beyond_int64_to_float64": lambda L: L.tensor([2**63], dtype=L.float64),
    "lowest_int64": lambda L: L.tensor([-(2**63), 1]),
    "bool_and_float": lambda L: L.tensor([True, 0.5]),
    "bools_to_float": lambda L: L.tensor([True, False], dtype=L.float32),
    "floats_to_bool": lambda L: L.tensor([0.0, 0.5, -2.0], dtype=L.bool),
    "floats_to_int8_out_of_range": lambda L: L.tensor([1.5, 200.0], dtype=L.int8),
    "ints_to_uint8_out_of_range": lambda L: L.tensor([[1], [256]], dtype=L.uint8),
    "ints_to_uint8_negative": lambda L: L.tensor([-3, 255], dtype=L.uint8),
    "floats_to_float16_overflow": lambda L: L.tensor([0.1, 70000.0], dtype=L.float16),
    "huge_float_to_float32": lambda L: L.tensor([1e300, -1e300, 1e-300]),
    "inf_to_int": lambda L: L.tensor([float("inf")], dtype=L.int64),
    "nested_tuples_and_lists": lambda L: L.tensor(((1, 2.5), [3, 4])),
    "nested_empty_rows": lambda L: L.tensor([[], [], []]),
    "deep_nesting": lambda L: L.tensor([[[[[1.0], [2.0]]]]]),
    "ragged_last_row": lambda L: L.tensor([[1.0, 2.0], [3.0, 4.0], [5.0]]),
    "numpy_float32_scalars": lambda L: L.tensor([np.float32(1.1), np.float32(2.0)]),
    "numpy_float32_and_float": lambda L: L.tensor([np.float32(1.1), 2.2]),
    "numpy_int32_and_int": lambda L: L.tensor([np.int32(1), 2]),
    "numpy_int32_and_float": lambda L: L.tensor([np.int32(1), 2.5]),
    "numpy_uint8_and_int8": lambda L: L.tensor([np.uint8(200), np.int8(-3)]),
    "numpy_bools": lambda L: L.tensor([np.bool_(True), np.bool_(False)]),
    "numpy_scalars_nested": lambda L: L.tensor([[np.float64(0.1)], [np.float64(0.2)]]),
    "none_in_nested": lambda L: L.tensor([[1.0], [None]]),
    "string_in_nested": lambda L: L.tensor([[1.0], ["a"]]),
    "dict_in_list": lambda L: L.tensor([1.0, {}]),
    "list_of_0d_mixed_dtypes": lambda L: L.tensor([L.tensor(1), L.tensor(2.5, dtype=L.float64)]),
    "list_of_0d_int_and_float32": lambda L: L.tensor([L.tensor(2**40 + 1), L.tensor(0.5)]),
    "list_of_one_element_tensors": lambda L: L.tensor([L.tensor([1.5]), L.tensor([2.5])]),
    "list_of_two_element_tensors": lambda L: L.tensor([L.tensor([1.5, 2.0])]),
    "list_of_0d_requiring_grad": lambda L: L.tensor([L.ones((), requires_grad=True) * 2]),
    "list_of_0d_then_requires_grad": lambda L: L.tensor([L.tensor(1.0)], requires_grad=True),
    "tensors_in_nested_lists": lambda L: L.tensor([[L.tensor(1.0), 2.0], [3.0, L.tensor(4.0)]]),
    "floats_requires_grad": lambda L: L.tensor([[1.0, 2.0]], requires_grad=True),
    "ints_requires_grad": lambda L: L.tensor([1, 2], requires_grad=True),
    "zeros": lambda L: L.zeros(2, 3),
    "zeros_tuple": lambda L: L.zeros((2, 3)),
    "zeros_0d": lambda L: L.zeros(()),
    "ones_int": lambda L: L.ones(2, dtype=L.int64),
    "full_int": lambda L: L.full((2,), 7),
    "full_float": lambda L: L.full([2, 2], 1.5),
    "full_bool": lambda L: L.full((2,), True),
    "arange_int": lambda L: L.arange(5),
    "arange_start_end": lambda L: L.arange(1, 4),
    "arange_step": lambda L: L.arange(0, 10, 3),
    "arange_float": lambda L: L.arange(5.0),
    "arange_float_step": lambda L: L.arange(0, 1, 0.25),
    "arange_negative_step": lambda L: L.arange(10, 0, -3),
    "arange_dtype": lambda L: L.arange(5, dtype=L.float32),
    "arange_empty": lambda L: L.arange(0),
    "linspace": lambda L: L.linspace(0, 1, 5),
    "linspace_one": lambda L: L.linspace(0, 1, steps=1),
    "eye": lambda L: L.eye(3),
    "eye_rect": lambda L: L.eye(2, 3),
    "zeros_like_int": lambda L: L.zeros_like(L.tensor([1, 2])),
    "ones_like_float64": lambda L: L.ones_like(L.tensor([1.0], dtype=L.float64)),
    "full_like_rounds": lambda L: L.full_like(L.tensor([1, 2]), 2.5),
    "zeros_requires_grad": lambda L: L.zeros(2, requires_grad=True),
    "as_tensor": lambda L: L.as_tensor([1, 2]),
    # errors
    "ragged": lambda L: L.tensor([[1, 2], [3]]),
    "ragged_deep": lambda L: L.tensor([[[1, 2], [3, 4]], [[1, 2], [3]]]),
    "string": lambda L: L.tensor("a"),
    "none": lambda L: L.tensor([1, None]),
    "int_requires_grad": lambda L: L.ones(2, dtype=L.int64, requires_grad=True),
    "negative_size": lambda L: L.ones(2, -1),
    "from_numpy_list": lambda L: L.from_numpy([1, 2]),
    # multinomial: certain draws, then PyTorch's errors
    "multinomial_one_hot": lambda L: L.multinomial(L.tensor([0.0, 0.0, 3.0]), 1),
    "multinomial_rows": lambda L: L.multinomial(L.tensor([[2.0, 0.0], [0.0, 1.0]]), 3, True),
    "multinomial_int": lambda L: L.multinomial(L.tensor([1, 2]), 1),
    "multinomial_3d": lambda L: L.multinomial(L.ones(2, 2, 2), 1),
    "multinomial_zero_samples": lambda L: L.multinomial(L.ones(2), 0),
    "multinomial_too_many": lambda L: L.multinomial(L.ones(2), 3),
    "multinomial_negative": lambda L: L.multinomial(L.tensor([-1.0, 2.0]), 1),
    "multinomial_nan": lambda L: L.multinomial(L.tensor([1.0, float("nan")]), 1),
    "multinomial_all_zero": lambda L: L.multinomial(L.zeros(2), 1),
}


def _run(fn: Callable[[ModuleType], Any], lib: ModuleType) -> tuple[Any, ...]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = fn(lib)
    except Exception as e:
        return (type(e).__name__, str(e).split(" (")[0])
    return (str(t.dtype).split(".")[1], tuple(t.shape), t.tolist(), t.requires_grad)


@pytest.mark.torch
@pytest.mark.parametrize("name", list(FACTORIES))
def test_factory_matches_torch(name: str, torch_module: ModuleType) -> None:
    assert _run(FACTORIES[name], microtorch) == _run(FACTORIES[name], torch_module)


def test_dtype_inference_without_torch() -> None:
    m = microtorch
    assert m.tensor([1, 2]).dtype is m.int64
    assert m.tensor([1.0, 2.0]).dtype is m.float32
    assert m.tensor([True, False]).dtype is m.bool
    assert m.tensor([1, 2.5]).dtype is m.float32
    x = m.tensor([2.0, 3.0], requires_grad=True)
    grad = m.tensor([2 * x[0] + x[1], x[0]])  # the seed's analytic_grad(x)
    assert repr(grad) == "tensor([7., 2.])" and not grad.requires_grad and grad.is_leaf
    assert m.tensor([x.double()[0], 1.0]).dtype is m.float64  # any element decides
    with pytest.raises(ValueError, match=r"expected sequence of length 2 at dim 1 \(got 1\)"):
        m.tensor([[1, 2], [3]])


@pytest.mark.torch
@pytest.mark.parametrize("kind", ["ints", "floats", "rows", "numpy_scalars", "0d_tensors"])
def test_long_lists_match_torch(kind: str, torch_module: ModuleType) -> None:
    # A long list is read in one numpy conversion: the same values and dtype as PyTorch's.
    def values(lib: ModuleType) -> list[Any]:
        rng = np.random.default_rng(0)  # the same numbers for both libraries
        if kind == "ints":
            return rng.integers(-(2**62), 2**62, 5000).tolist()
        if kind == "floats":
            return (rng.standard_normal(5000) * 1e30).tolist()
        if kind == "rows":
            return rng.standard_normal((50, 40)).tolist()
        if kind == "numpy_scalars":
            return list(rng.standard_normal(500).astype(np.float16))
        return [lib.tensor(v) for v in rng.standard_normal(300).tolist()]

    for dtype in (None, "float64", "float16"):
        got, want = (
            lib.tensor(values(lib), dtype=dtype and getattr(lib, dtype))
            for lib in (microtorch, torch_module)
        )
        assert str(got.dtype) == str(want.dtype).replace("torch", "microtorch"), dtype
        assert np.array_equal(got.numpy(), want.numpy(), equal_nan=True), dtype


def test_default_dtype_applies_to_python_floats_only() -> None:
    m = microtorch
    m.set_default_dtype(m.float64)
    try:
        assert m.tensor([0.1, 1]).dtype is m.float64
        assert m.tensor([0.1, 1]).tolist() == [0.1, 1.0]
        assert m.tensor([np.float32(0.5), 1]).dtype is m.float32
        assert m.tensor([1, 2]).dtype is m.int64
    finally:
        m.set_default_dtype(m.float32)


def test_tensor_copies_its_data_but_from_numpy_shares_memory() -> None:
    a = np.array([1.0, 2.0, 3.0])
    copied, shared = microtorch.tensor(a), microtorch.from_numpy(a)
    assert copied.dtype is shared.dtype is microtorch.float64
    a[0] = 10.0
    assert copied.tolist() == [1.0, 2.0, 3.0]
    assert shared.tolist() == [10.0, 2.0, 3.0]
    shared[1] = 20.0  # and the other way round
    assert a.tolist() == [10.0, 20.0, 3.0]
    assert microtorch.as_tensor(a).numpy() is a or np.shares_memory(
        microtorch.as_tensor(a).numpy(), a
    )


def test_tensor_of_a_tensor_warns_as_pytorch_does() -> None:
    x = microtorch.tensor([1.0, 2.0])
    with pytest.warns(UserWarning, match=r"To copy construct from a tensor"):
        y = microtorch.tensor(x)
    assert y.tolist() == x.tolist() and not np.shares_memory(y.numpy(), x.numpy())


RANDOM: dict[str, Callable[[], Any]] = {
    "rand": lambda: microtorch.rand(2, 3),
    "randn": lambda: microtorch.randn(4),
    "randint": lambda: microtorch.randint(0, 10, (5,)),
    "randint_high_size": lambda: microtorch.randint(10, (5,)),
    "randperm": lambda: microtorch.randperm(6),
    "multinomial": lambda: microtorch.multinomial(microtorch.ones(2, 10), 4),
    "randn_like": lambda: microtorch.randn_like(microtorch.zeros(3, dtype=microtorch.float64)),
}


@pytest.mark.parametrize("name", list(RANDOM))
def test_manual_seed_makes_random_numbers_reproducible(name: str) -> None:
    microtorch.manual_seed(0)
    first, second = RANDOM[name](), RANDOM[name]()
    microtorch.manual_seed(0)
    again = RANDOM[name]()
    assert again.tolist() == first.tolist() and again.dtype is first.dtype
    assert second.tolist() != first.tolist()  # the sequence moves on
    microtorch.manual_seed(1)
    assert RANDOM[name]().tolist() != first.tolist()


def test_random_factories_shapes_dtypes_and_ranges() -> None:
    microtorch.manual_seed(0)
    u = microtorch.rand(1000)
    assert u.dtype is microtorch.float32 and u.min().item() >= 0 and u.max().item() < 1
    n = microtorch.randn(2000, dtype=microtorch.float64)
    assert n.dtype is microtorch.float64 and abs(n.mean().item()) < 0.1
    assert abs(n.std().item() - 1) < 0.1
    r = microtorch.randint(3, 7, (100,))
    assert r.dtype is microtorch.int64 and set(r.tolist()) <= {3, 4, 5, 6}
    assert sorted(microtorch.randperm(5).tolist()) == [0, 1, 2, 3, 4]
    g = microtorch.Generator().manual_seed(5)
    assert (
        microtorch.randn(3, generator=g).tolist()
        == microtorch.randn(3, generator=microtorch.Generator().manual_seed(5)).tolist()
    )
    assert microtorch.randn(2, 3, requires_grad=True).requires_grad


def test_arange_and_linspace_values() -> None:
    assert microtorch.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert microtorch.arange(5).dtype is microtorch.int64
    assert microtorch.arange(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert microtorch.arange(0, 1, 0.25).dtype is microtorch.float32
    assert microtorch.linspace(-1, 1, 3).tolist() == [-1.0, 0.0, 1.0]
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        microtorch.arange(0, 1, 0)


def test_multinomial_draws_in_proportion_to_the_weights() -> None:
    microtorch.manual_seed(0)
    weights = microtorch.tensor([1.0, 0.0, 3.0])  # unnormalised: 1/4, 0, 3/4
    draws = microtorch.multinomial(weights, 4000, replacement=True)
    assert draws.dtype is microtorch.int64 and draws.shape == (4000,)
    counts = np.bincount(draws.numpy(), minlength=3)
    assert counts[1] == 0 and abs(counts[2] / 4000 - 0.75) < 0.03
    rows = microtorch.multinomial(microtorch.tensor([[5.0, 1.0, 0.0, 2.0]] * 50), 3)
    assert rows.shape == (50, 3)
    for row in rows.tolist():  # without replacement: distinct, never the zero weight
        assert len(set(row)) == 3 and 2 not in row
    first = [row[0] for row in rows.tolist()]
    assert first.count(0) > first.count(3) > first.count(1)  # 5 > 2 > 1

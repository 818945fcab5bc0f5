"""walkb: torch.randint_like (shapes, dtypes, ranges, seeded determinism, errors against
PyTorch; the values come from microtorch's generator, not PyTorch's) and torch.nan_to_num_."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import compare

pytestmark = pytest.mark.torch


@pytest.mark.parametrize(
    ("args", "kwargs", "dtype"),
    [((5,), {}, "float32"), ((2, 5), {"dtype": "int64"}, "int64"), ((3,), {}, "int32"),
     ((), {"high": 3}, "float32"), ((0, 2), {}, "bool"), ((-4, 4), {"dtype": "int8"}, "int8")],
)  # fmt: skip
def test_randint_like(args: tuple, kwargs: dict, dtype: str, torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        like = L.ones(200, 3, dtype=L.int32 if dtype == "int32" else L.float32)
        if dtype == "bool":
            like = like.bool()
        kw = {k: getattr(L, v) if k == "dtype" else v for k, v in kwargs.items()}
        L.manual_seed(1)
        a = L.randint_like(like, *args, **kw)
        L.manual_seed(1)
        b = L.randint_like(like, *args, **kw)
        assert str(a.dtype).endswith(dtype) and tuple(a.shape) == (200, 3)
        assert np.array_equal(a.numpy(), b.numpy())  # (the same seed, the same draws)
        low, high = (0, args[0]) if len(args) == 1 else args if args else (0, 3)
        values = a.numpy().astype(np.int64)
        assert values.min() >= low and values.max() < high
        assert len(np.unique(values)) == high - low  # (600 draws see every value)


@pytest.mark.parametrize(
    "case",
    ["low >= high", "bool range"],
)
def test_randint_like_errors(case: str, torch_module: ModuleType) -> None:
    cases = {
        "low >= high": lambda L: L.randint_like(L.ones(2), 5, 2),
        "bool range": lambda L: L.randint_like(L.ones(2, dtype=L.bool), 5),
    }
    compare(cases[case], torch_module)


def test_nan_to_num_(torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> object:
        t = L.tensor([float("nan"), float("inf"), -float("inf"), 1.5])
        r = L.nan_to_num_(t, nan=2.0, posinf=9.0)
        assert r is t
        return t

    compare(run, torch_module)
    compare(lambda L: L.nan_to_num_(L.tensor([float("nan"), float("inf")])), torch_module)

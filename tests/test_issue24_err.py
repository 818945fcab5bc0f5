"""Issue 24, the argument parser's texts as PyTorch 2.13 prints them: the keywords of a call
in "got (...)" in the order of PyTorch's C++ hash table (microtorch.api.keyword_order), the
types of torch.layout and torch.memory_format by those names; each compared with torch."""

from __future__ import annotations

import random
import re
import warnings
from types import ModuleType
from typing import Any

import pytest

import microtorch
from microtorch.api.keyword_order import unordered_map_order

pytestmark = pytest.mark.torch

# Calls torch refuses with "received an invalid combination of arguments - got (...)",
# keywords in several orders and numbers (two to eight)
INVALID = [
    "L.linspace(start=0, end=3, steps=1.5)",
    "L.logspace(end=3, start=0, steps=1.5, base=2.0)",
    "L.linspace(0, 3, steps=1.5, requires_grad=False, dtype=L.float64)",
    "L.linspace(start=0, end=3, steps=1.5, dtype=L.float64, layout=L.strided, device='cpu', "
    "pin_memory=False, requires_grad=False)",
    "L.histogram(input=x.flatten(), bins=1.5, density=True)",
    "x.std(dim=1.5, correction=1, keepdim=True)",
    "L.std_mean(x, keepdim=True, dim=1.5)",
    "L.tensor_split(input=x, indices=[1.5], dim=0)",
    "x.var(unbiased=True, dim=1.5)",
    "L.sum(x, axis=1.5, keepdim=True, dtype=L.float64)",
    "L.sum(x, L.strided)",
    "L.sum(x, L.contiguous_format)",
]


def _error(call: str, L: ModuleType) -> str:
    x = L.ones(2, 3)  # noqa: F841 - the calls use it
    with pytest.raises(TypeError) as info:
        eval(call)
    return str(info.value).split("\n")[0].replace("microtorch.", "torch.")


@pytest.mark.parametrize("call", INVALID)
def test_the_parsers_first_line_is_pytorchs(call: str, torch_module: ModuleType) -> None:
    assert _error(call, microtorch) == _error(call, torch_module)


def test_keywords_come_in_pytorchs_hash_table_order(torch_module: ModuleType) -> None:
    """torch.randint refused (high a float), with 2 to 13 of its keywords, and made-up
    ones, in random orders: "got (...)" lists them as unordered_map_order says."""
    x = {"size": (2,), "dtype": torch_module.float32, "layout": torch_module.strided}
    x |= {"device": "cpu", "pin_memory": False, "requires_grad": False, "generator": None}
    x |= {"low": 0, "a": 1, "bb": 2, "ccc": 3, "dddd": 4}
    rng = random.Random(0)
    checked = 0
    for _ in range(60):
        keys = rng.sample(sorted(x), rng.randint(1, len(x))) + ["high"]
        rng.shuffle(keys)
        with pytest.raises(TypeError) as info:
            torch_module.randint(high=1.5, **{k: x[k] for k in keys if k != "high"})
        text = str(info.value)
        if "got (" not in text:
            continue  # (one plausible signature: PyTorch names the argument instead)
        # (torch's call put high first: the order the call's dict has)
        order = ["high"] + [k for k in keys if k != "high"]
        got = text.split("got (", 1)[1].split("), but", 1)[0]
        assert [k.split("=")[0] for k in got.split(", ") if k] == unordered_map_order(order)
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("name", ["tril_indices", "triu_indices"])
def test_triangle_indices_take_dtype_none_and_refuse_float_sizes(
    name: str, torch_module: ModuleType
) -> None:
    """dtype=None is PyTorch's long; a float row, col or offset is the parser's TypeError
    (numpy's tril_indices took 3.5 rows as 4)."""
    ours, theirs = getattr(microtorch, name), getattr(torch_module, name)
    got, expected = ours(3, 4, 1, dtype=None), theirs(3, 4, 1, dtype=None)
    assert got.tolist() == expected.tolist() and str(got.dtype) == "microtorch.int64"
    for args in ((3.5, 3), (3, 3.0), (3, 3, 0.5)):
        with pytest.raises(TypeError) as info:
            theirs(*args)
        with pytest.raises(TypeError, match=re.escape(str(info.value))):
            ours(*args)


def _outcome(call: str, L: ModuleType) -> tuple[str, Any]:
    """("value", a plain result) or ("error", class name, first line without the fix), and
    the warnings' texts."""
    F = L.nn.functional  # noqa: F841 - the calls use these
    x, t, p = L.ones(2, 4) / 4, L.tensor([0, 1]), L.ones(2, 4) / 2  # noqa: F841 - exact sums
    A = L.diag(L.arange(1.0, 10.0, dtype=L.float64))  # noqa: F841
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = eval(call)
            if isinstance(got, tuple):
                got = got[0]
            shown: Any = ("value", got.tolist() if isinstance(got, L.Tensor) else got)
        except Exception as error:  # noqa: BLE001 - compared with torch's
            first = str(error).split("\n")[0].split(" (Fix:")[0].replace("microtorch.", "torch.")
            shown = ("error", type(error).__name__.lstrip("_"), first)
    return shown, [str(w.message) for w in caught]


# Calls from issue 24's list of small gaps, each compared with torch 2.13
SMALL = [
    # 'elementwise_mean', PyTorch's old name of 'mean': a warning and the mean
    "F.cross_entropy(x, t, reduction='elementwise_mean')",
    "F.nll_loss(x, t, reduction='elementwise_mean')",
    "F.mse_loss(x, p, reduction='elementwise_mean')",
    "F.binary_cross_entropy(p, p, reduction='elementwise_mean')",
    "L.nn.L1Loss(reduction='elementwise_mean')(x, p)",
    "F.poisson_nll_loss(x, p, reduction='elementwise_mean')",  # (its own check: ValueError)
    "F.l1_loss(x, p, reduction='average')",
    # label_smoothing: C++'s double in the text; below 0 or NaN no smoothing, as in PyTorch
    "F.cross_entropy(x, t, label_smoothing=2.0)",
    "F.cross_entropy(x, t, label_smoothing=1.23456789)",
    "F.cross_entropy(x, t, label_smoothing=2.5e10)",
    "round(F.cross_entropy(x * L.arange(4.0), t, label_smoothing=-1).item(), 6)",
    "round(F.cross_entropy(x * L.arange(4.0), p, label_smoothing=float('nan')).item(), 6)",
    # F.linear's dtype texts: mm's without a bias, addmm's with one (its bias check first)
    "F.linear(x, L.ones(3, 4, dtype=L.float64))",
    "F.linear(x[0].double(), L.ones(3, 4))",
    "F.linear(x, L.ones(3, 4), L.ones(3, dtype=L.float64))",
    "F.linear(x.double(), L.ones(3, 4), L.ones(3))",
    "F.linear(x, L.ones(3, 4, dtype=L.float64), L.ones(3))",
    # float cutoffs: Linear(4, 4.0) inside, torch.empty's text
    "L.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [2.0, 5])",
    "L.nn.Linear(4, 4.0)",
    "L.nn.Linear(4.0, 4)",
    # Tensor.unflatten is Python in PyTorch: Python's TypeErrors, named Tensor.unflatten()
    "x.unflatten(input=0, sizes=(2, 2))",
    "x.unflatten(self=x, dim=1, sizes=(2, 2))",
    "x.unflatten(1)",
    # a float padding_idx: F's range check, then torch.embedding's parser
    "F.embedding(t, L.ones(5, 3), padding_idx=1.5)",
    "F.embedding(t, L.ones(5, 3), padding_idx=-1.5)",
    "F.embedding(t, L.ones(5, 3), padding_idx=10.5)",
    "L.nn.Embedding(5, 3, padding_idx=1.5)",
    # lobpcg's X and k
    "L.lobpcg(A, X=L.ones(9, 2))",
    "L.lobpcg(A.float(), X=L.ones(9, 2, dtype=L.float64))",
    "L.lobpcg(A.long(), X=L.ones(9, 2, dtype=L.float64))",
    "L.lobpcg(A, X=L.ones(9, 2, dtype=L.int64))",
    "L.lobpcg(A, X=L.ones(9, 0, dtype=L.float64))",
    "L.lobpcg(A, k=0)",
    "L.lobpcg(A, k=1.5)",
    "L.lobpcg(A, k=0, n=2)",
    "hasattr(L.Tensor, 'bucketize')",  # (torch 2.13 has torch.bucketize only)
]


@pytest.mark.parametrize("call", SMALL)
def test_small_gaps_as_torch(call: str, torch_module: ModuleType) -> None:
    assert _outcome(call, microtorch) == _outcome(call, torch_module)

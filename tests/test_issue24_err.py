"""Issue 24, the argument parser's texts as PyTorch 2.13 prints them: the keywords of a call
in "got (...)" in the order of PyTorch's C++ hash table (microtorch.api.keyword_order), the
types of torch.layout and torch.memory_format by those names; each compared with torch."""

from __future__ import annotations

import random
import re
from types import ModuleType

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

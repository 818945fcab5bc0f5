"""Names from the walk of PyTorch's namespaces (docs/api_walk.md) that are other names of ops
microtorch has, constants, checks and the in-place comparisons: each compared with torch 2.13
(values, dtypes, grad_fn names, gradients in float64, errors and warnings)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import outcome, same

M = [[1.5, -2.0, 0.0], [3.25, 4.0, -0.5]]


def _x(lib: ModuleType, grad: bool = True, dtype: str = "float64") -> Any:
    return lib.tensor(M, dtype=getattr(lib, dtype), requires_grad=grad)


def _run(fn: Callable[[ModuleType], Any], lib: ModuleType) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = outcome(fn, lib)
    texts = [f"{w.category.__name__}: {str(w.message).split(' (Triggered')[0]}" for w in caught]
    return result, texts


def _agree(fn: Callable[[ModuleType], Any], torch: ModuleType) -> Any:
    (mt, mt_warnings), (t, t_warnings) = _run(fn, microtorch), _run(fn, torch)
    assert mt[0] == t[0], (mt, t)
    assert mt_warnings == t_warnings
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
        return None
    if isinstance(t[1], tuple):
        assert len(mt[1]) == len(t[1])
        for a, b in zip(mt[1], t[1]):
            same(a, b)
    elif t[1] is None or isinstance(t[1], float):
        assert mt[1] is t[1] or (mt[1] == t[1] or (math.isnan(mt[1]) and math.isnan(t[1])))
    else:
        same(mt[1], t[1])
    return mt[1], t[1]


ALIASES: dict[str, Callable[[ModuleType], Any]] = {
    "greater": lambda L: L.greater(_x(L), 1.0),
    "greater_equal": lambda L: L.greater_equal(_x(L), _x(L, False)),
    "less": lambda L: L.less(_x(L), 0),
    "less_equal": lambda L: _x(L).less_equal(1.5),
    "not_equal": lambda L: _x(L).not_equal(L.tensor([1.5, 0.0, 0.0], dtype=L.float64)),
    "true_divide": lambda L: L.true_divide(_x(L), 4),
    "true_divide int": lambda L: L.tensor([1, 2, 3]).true_divide(2),
    "fix": lambda L: L.fix(_x(L)),
    "fix method": lambda L: _x(L).fix(),
    "row_stack": lambda L: L.row_stack((_x(L), _x(L, False))),
    "logical_xor": lambda L: L.logical_xor(_x(L), L.tensor([1, 0, 0])),
    "logical_xor method": lambda L: L.tensor([True, False]).logical_xor(L.tensor([1.0, 1.0])),
    "H": lambda L: _x(L).H,
    "mH": lambda L: _x(L).unsqueeze(0).expand(2, 2, 3).mH,
    "adjoint": lambda L: L.adjoint(_x(L)),
    "adjoint method": lambda L: _x(L).adjoint(),
    "ravel": lambda L: L.ravel(_x(L)),
    "ravel transposed": lambda L: _x(L).t().ravel(),
    "msort": lambda L: L.msort(_x(L)),
    "msort method": lambda L: _x(L).msort(),
    "where method": lambda L: _x(L).where(_x(L, False) > 0, 0.0),
    "isreal": lambda L: L.isreal(_x(L)),
    "isreal int": lambda L: L.tensor([1, 2]).isreal(),
    "detach": lambda L: L.detach(_x(L)),
    "detach_": lambda L: L.detach_(_x(L) * 2),
    "fix_": lambda L: L.fix_(_x(L, False)),
    "H of a 1-d tensor": lambda L: L.ones(3).H,
    "H of a 3-d tensor": lambda L: L.ones(2, 2, 2).H,
    "H of a 0-d tensor": lambda L: L.tensor(1.0).H,
    "mH of a 1-d tensor": lambda L: L.ones(3).mH,
    "mH of a 0-d tensor": lambda L: L.tensor(1.0).mH,
    "adjoint of a 1-d tensor": lambda L: L.ones(3).adjoint(),
    "adjoint of a 0-d tensor": lambda L: L.tensor(2.0).adjoint(),
    "detach of a list": lambda L: L.detach([1.0]),
    "ravel of a list": lambda L: L.ravel([1.0]),
}


@pytest.mark.parametrize("name", ALIASES)
def test_other_names_give_torchs_result(name: str, torch_module: ModuleType) -> None:
    _agree(ALIASES[name], torch_module)


GRADIENTS = [
    "true_divide",
    "fix",
    "fix method",
    "row_stack",
    "H",
    "mH",
    "adjoint",
    "adjoint method",
    "ravel",
    "ravel transposed",
    "msort",
    "msort method",
    "where method",
]


@pytest.mark.parametrize("name", GRADIENTS)
def test_their_gradients_are_torchs(name: str, torch_module: ModuleType) -> None:
    results = []
    for lib in (microtorch, torch_module):
        x = lib.tensor(M, dtype=lib.float64, requires_grad=True)
        out = ALIASES[name](_Fixed(lib, x))
        weights = lib.arange(out.numel(), dtype=lib.float64).reshape(out.shape)
        (out * weights).sum().backward()
        results.append(x.grad.numpy())
    np.testing.assert_array_equal(*results)


class _Fixed:
    """``lib`` with ``tensor(M, ...)`` returning the one input ``x`` whose gradient is read."""

    def __init__(self, lib: ModuleType, x: Any) -> None:
        self._lib, self._x = lib, x

    def __getattr__(self, name: str) -> Any:
        return getattr(self._lib, name)

    def tensor(self, data: Any, *args: Any, requires_grad: bool = False, **kw: Any) -> Any:
        if requires_grad:
            return self._x
        return self._lib.tensor(data, *args, **kw)


CHECKS: dict[str, Callable[[ModuleType], Any]] = {
    "is_signed": lambda L: (
        L.ones(2).is_signed(),
        L.tensor([True]).is_signed(),
        L.tensor([1], dtype=L.uint8).is_signed(),
        L.is_signed(L.tensor([1])),
    ),
    "is_same_size": lambda L: (
        L.ones(2, 3).is_same_size(L.zeros(2, 3)),
        L.is_same_size(L.ones(2, 3), L.ones(3, 2)),
    ),
    "is_nonzero": lambda L: (L.is_nonzero(L.tensor([0])), L.tensor(2.5).is_nonzero()),
    "is_nonzero of two": lambda L: L.is_nonzero(L.ones(2)),
    "is_nonzero of none": lambda L: L.is_nonzero(L.tensor([])),
    "device flags": lambda L: (L.ones(1).is_meta, L.ones(1).is_mps, L.ones(1).is_pinned()),
    "itemsize": lambda L: tuple(
        L.ones(1, dtype=d).itemsize
        for d in (L.float16, L.float32, L.float64, L.int8, L.int64, L.bool)
    ),
    "layout": lambda L: (
        L.ones(1).layout is L.strided,
        repr(L.strided).split(".")[1],
        isinstance(L.strided, L.layout),
    ),
    "constants": lambda L: (L.pi, L.e, L.inf, L.newaxis, math.isnan(L.nan)),
}


@pytest.mark.parametrize("name", CHECKS)
def test_checks_and_constants_are_torchs(name: str, torch_module: ModuleType) -> None:
    mt, t = _run(CHECKS[name], microtorch), _run(CHECKS[name], torch_module)
    assert mt[1] == t[1]
    if t[0][0] == "error":
        assert mt[0][:2] == t[0][:2] and mt[0][2].startswith(t[0][2]), (mt, t)
    else:
        assert mt[0] == t[0]


IN_PLACE = [
    "eq_",
    "ne_",
    "lt_",
    "le_",
    "gt_",
    "ge_",
    "greater_",
    "greater_equal_",
    "less_",
    "less_equal_",
    "not_equal_",
    "logical_and_",
    "logical_or_",
    "logical_xor_",
]


@pytest.mark.parametrize("name", IN_PLACE)
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_in_place_comparisons_write_torchs_values(name: str, dtype: str, torch_module) -> None:
    def run(L: ModuleType) -> Any:
        x = L.tensor([[0, 1, 2], [3, 0, 1]]).to(getattr(L, dtype))
        other = L.tensor([1.0, 0.0, 2.0]) if dtype != "bool" else L.tensor([True, False, True])
        out = getattr(x, name)(other)
        return out is x, x, x._version if hasattr(x, "_version") else None

    mt, t = outcome(run, microtorch), outcome(run, torch_module)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1:] == t[1:] or mt[2].startswith(t[2]), (mt, t)
        return
    assert mt[1][0] is t[1][0] is True
    same(mt[1][1], t[1][1])
    assert mt[1][2] == t[1][2]


def test_in_place_comparisons_with_numbers_and_logical_not(torch_module: ModuleType) -> None:
    for fn in (
        lambda L: L.tensor([1, 2]).lt_(1.5),
        lambda L: L.tensor([1.0, 0.0]).logical_not_(),
        lambda L: L.tensor([1.0, 2.0]).true_divide_(4),
        lambda L: L.tensor([1.0]).eq_(1),
    ):
        _agree(fn, torch_module)


def test_in_place_comparisons_refuse_a_leaf_like_torch_and_a_graph_tensor_clearly(torch_module):
    _agree(lambda L: L.tensor([1.0, 2.0], requires_grad=True).eq_(1.0), torch_module)
    x = microtorch.tensor([1.0, 2.0], requires_grad=True) * 1
    before = x.detach().clone()
    with pytest.raises(RuntimeError, match=r"does not record lt_ on a tensor that requires grad"):
        x.lt_(1.5)
    assert microtorch.equal(x.detach(), before) and x._version == 0, "nothing changed"
    t = torch_module.tensor([1.0, 2.0], requires_grad=True) * 1
    assert t.lt_(1.5).grad_fn.name() == "LtBackward0", "what microtorch refuses to follow"
    with microtorch.no_grad():
        assert microtorch.equal(x.lt_(1.5), microtorch.tensor([1.0, 0.0]))


def test_second_derivatives_through_the_other_names(torch_module: ModuleType) -> None:
    results = []
    for L in (microtorch, torch_module):
        x = L.tensor(M, dtype=L.float64, requires_grad=True)
        y = (L.true_divide(x, 3).H.ravel() ** 3).sum() + (x.adjoint().msort() ** 2).sum()
        (g,) = L.autograd.grad(y, x, create_graph=True)
        (h,) = L.autograd.grad((g * g).sum(), x)
        results.append((g.detach().numpy(), h.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-12)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-12)

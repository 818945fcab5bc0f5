"""Issue 24: torch.scatter / Tensor.scatter / Tensor.scatter_ with PyTorch's deprecated
``reduce="add"`` / ``"multiply"``, for a src tensor and for a number, against PyTorch 2.13:
values, dtypes, the in-place form, PyTorch's errors and parser errors, its warning (once per
process, for a src tensor only), and its gradient: none (``torch::autograd::NotImplemented``,
whose backward raises "derivative for aten::scatter is not implemented").
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import microtorch
from microtorch.api import scatter as scatter_api
from tests.ops.test_issue13_operators import compare

pytestmark = pytest.mark.torch


def x23(L: ModuleType, dtype: str = "float32") -> Any:
    return (L.arange(6.0).reshape(2, 3) + 1).to(getattr(L, dtype))


def idx(L: ModuleType) -> Any:
    return L.tensor([[0, 1, 0], [1, 0, 0]])


def src(L: ModuleType, dtype: str = "float32") -> Any:
    return L.tensor([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]]).to(getattr(L, dtype))


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "add dim 0": lambda L: L.scatter(x23(L), 0, idx(L), src(L), reduce="add"),
    "multiply dim 0": lambda L: L.scatter(x23(L), 0, idx(L), src(L), reduce="multiply"),
    "add dim 1": lambda L: L.scatter(x23(L), 1, idx(L), src(L), reduce="add"),
    "multiply dim -1": lambda L: L.scatter(x23(L), -1, idx(L), src(L), reduce="multiply"),
    "add a number": lambda L: L.scatter(x23(L), 0, idx(L), 2.5, reduce="add"),
    "multiply a number": lambda L: L.scatter(x23(L), 0, idx(L), 2.5, reduce="multiply"),
    "value=": lambda L: L.scatter(x23(L), 0, idx(L), value=2.5, reduce="add"),
    "keywords": lambda L: L.scatter(input=x23(L), dim=0, index=idx(L), src=src(L), reduce="add"),
    "method": lambda L: x23(L).scatter(0, idx(L), src(L), reduce="add"),
    "method keywords": lambda L: x23(L).scatter(dim=1, index=idx(L), src=src(L), reduce="add"),
    "method a number": lambda L: x23(L).scatter(0, idx(L), 2, reduce="multiply"),
    "method value=": lambda L: x23(L).scatter(0, idx(L), value=2.0, reduce="add"),
    "a smaller index": lambda L: L.scatter(x23(L), 0, idx(L)[:1, :2], src(L), reduce="add"),
    "out=": lambda L: L.scatter(x23(L), 0, idx(L), src(L), reduce="add", out=L.empty(2, 3)),
    "out= a number": lambda L: L.scatter(x23(L), 0, idx(L), 2.0, reduce="add", out=L.empty(2, 3)),
    "int64": lambda L: L.scatter(x23(L, "int64"), 0, idx(L), src(L, "int64"), reduce="multiply"),
    "int64 by an int": lambda L: L.scatter(x23(L, "int64"), 0, idx(L), 2, reduce="multiply"),
    "int64 by a float": lambda L: L.scatter(x23(L, "int64"), 0, idx(L), 2.5, reduce="multiply"),
    "int32 add a negative float": lambda L: L.scatter(
        x23(L, "int32"), 0, idx(L), -2.7, reduce="add"
    ),
    "bool add": lambda L: L.scatter(x23(L, "bool"), 0, idx(L), src(L, "bool"), reduce="add"),
    "bool multiply by 0": lambda L: L.scatter(x23(L, "bool"), 0, idx(L), 0, reduce="multiply"),
    "float add True": lambda L: L.scatter(x23(L), 0, idx(L), True, reduce="add"),
    "repeated places sum in order": lambda L: L.scatter(
        L.ones(3), 0, L.tensor([0, 0, 0]), L.tensor([1e-8, 1e-8, 1.0]), reduce="add"
    ),
    "in place add": lambda L: x23(L).scatter_(0, idx(L), src(L), reduce="add"),
    "in place multiply": lambda L: x23(L).scatter_(0, idx(L), src(L), reduce="multiply"),
    "in place a number": lambda L: x23(L).scatter_(1, idx(L), 3.0, reduce="multiply"),
    "in place value=": lambda L: x23(L).scatter_(1, idx(L), value=3.0, reduce="add"),
    "in place keywords": lambda L: x23(L).scatter_(dim=0, index=idx(L), src=src(L), reduce="add"),
    # errors
    "reduce mean": lambda L: L.scatter(x23(L), 0, idx(L), src(L), reduce="mean"),
    "reduce sum": lambda L: x23(L).scatter_(0, idx(L), src(L), reduce="sum"),
    "reduce prod a number": lambda L: x23(L).scatter(0, idx(L), 2.0, reduce="prod"),
    "reduce Add": lambda L: L.scatter(x23(L), 0, idx(L), 2.0, reduce="Add"),
    "reduce mean out of bounds": lambda L: L.scatter(x23(L), 0, idx(L) + 5, 2.0, reduce="mean"),
    "reduce mean sizes": lambda L: L.scatter(x23(L), 0, idx(L), L.ones(1, 1), reduce="mean"),
    "reduce an int": lambda L: L.scatter(x23(L), 0, idx(L), src(L), reduce=1),
    "reduce by position": lambda L: L.scatter(x23(L), 0, idx(L), src(L), "add"),
    "method reduce by position": lambda L: x23(L).scatter(0, idx(L), src(L), "add"),
    "src and value": lambda L: x23(L).scatter(0, idx(L), src(L), value=2.0),
    "no src": lambda L: L.scatter(x23(L), 0, idx(L)),
    "src a str": lambda L: L.scatter(x23(L), 0, idx(L), "a"),
    "method src a str": lambda L: x23(L).scatter(0, idx(L), "a"),
    "in place src a str": lambda L: x23(L).scatter_(0, idx(L), "a"),
    "src dtype": lambda L: L.scatter(x23(L), 0, idx(L), src(L, "float64"), reduce="add"),
    "index dtype": lambda L: L.scatter(x23(L), 0, idx(L).float(), src(L), reduce="add"),
    "out of bounds": lambda L: L.scatter(x23(L), 0, idx(L) + 5, src(L), reduce="add"),
    "bad dim": lambda L: L.scatter(x23(L), 5, idx(L), 2.0, reduce="add"),
    "index dims": lambda L: L.scatter(x23(L), 0, idx(L)[0], 2.0, reduce="add"),
    "index dims in place": lambda L: x23(L).scatter_(0, idx(L)[0], src(L)),
    "0-d src": lambda L: L.scatter(x23(L), 0, idx(L), L.tensor(2.0), reduce="add"),
    "a number too big for int8": lambda L: L.scatter(
        L.ones(3, dtype=L.int8), 0, L.tensor([0, 0, 0]), 300, reduce="add"
    ),
    "a number too big for int8, no reduce": lambda L: L.scatter(
        L.ones(3, dtype=L.int8), 0, L.tensor([0, 0, 0]), 300
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the deprecation: tested below)
        compare(CASES[case], torch_module)


GRAD_CASES: dict[str, Callable[[ModuleType, Any, Any], Any]] = {
    "src": lambda L, x, s: L.scatter(x, 0, idx(L), s, reduce="add"),
    "src alone requires grad": lambda L, x, s: L.scatter(x.detach(), 0, idx(L), s, reduce="add"),
    "multiply": lambda L, x, s: L.scatter(x, 1, idx(L), s, reduce="multiply"),
    "a number": lambda L, x, s: L.scatter(x, 0, idx(L), 2.0, reduce="add"),
    "method a number": lambda L, x, s: x.scatter(0, idx(L), 2.0, reduce="multiply"),
    "in place": lambda L, x, s: (x * 1).scatter_(0, idx(L), s, reduce="multiply"),
    "in place a number": lambda L, x, s: (x * 1).scatter_(0, idx(L), 2.0, reduce="add"),
}


@pytest.mark.parametrize("case", list(GRAD_CASES))
def test_no_gradient_pytorchs_error(case: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> tuple[Any, ...]:
        x = x23(L).requires_grad_()
        s = src(L).requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = GRAD_CASES[case](L, x, s)
        try:
            out.sum().backward()
        except RuntimeError as error:
            return out.tolist(), out.grad_fn.name(), str(error)
        raise AssertionError("backward did not raise")

    mt, t = run(microtorch), run(torch_module)
    assert mt[:2] == t[:2] and mt[1] == "torch::autograd::NotImplemented"
    assert mt[2].startswith(t[2]), (mt[2], t[2])  # (aten::scatter, or aten::scatter_)


def test_no_graph_without_a_gradient(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        x = x23(L).requires_grad_()
        with L.no_grad():
            assert L.scatter(x, 0, idx(L), 2.0, reduce="add").grad_fn is None
        assert L.scatter(x23(L), 0, idx(L), src(L), reduce="add").grad_fn is None


def _deprecations(fn: Callable[[], Any]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def test_the_deprecation_warns_once_for_a_src_tensor(
    torch_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # PyTorch warns once per process (TORCH_WARN_ONCE): its text, then nothing more
    monkeypatch.setattr(scatter_api, "_warned", [])
    L = microtorch
    first = _deprecations(lambda: L.scatter(x23(L), 0, idx(L), src(L), reduce="add"))
    again = _deprecations(lambda: x23(L).scatter_(0, idx(L), src(L), reduce="multiply"))
    assert first == [
        "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed "
        "in a future PyTorch release. Use torch.scatter_reduce instead for more reduction "
        "options."
    ]
    assert again == []
    torch_text = _deprecations(
        lambda: torch_module.scatter(x23(torch_module), 0, idx(torch_module), src(torch_module),
                                     reduce="add")
    )  # fmt: skip
    assert all(t.startswith(first[0]) for t in torch_text)  # (empty if torch warned already)


def test_no_warning_for_a_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scatter_api, "_warned", [])
    L = microtorch
    assert _deprecations(lambda: L.scatter(x23(L), 0, idx(L), 2.0, reduce="add")) == []
    assert _deprecations(lambda: x23(L).scatter_(0, idx(L), 2.0, reduce="multiply")) == []
    assert _deprecations(lambda: L.scatter(x23(L), 0, idx(L), src(L))) == []  # (no reduce)

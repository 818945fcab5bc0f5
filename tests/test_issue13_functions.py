"""Issue 13, functions and methods beginner code calls: round/floor/ceil/trunc/sign,
isnan/isinf/isfinite, log10/log2, prod, cumsum/cumprod, norm, any/all, against PyTorch.

Each case runs on both libraries: values, dtypes, grad_fn names, gradients under a
non-uniform upstream gradient, and exception types and messages must agree (ours may add a fix
in parentheses after PyTorch's text).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.ops.test_issue13_operators import outcome, same

pytestmark = pytest.mark.torch

HALVES = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.0, 1.2345]
GRID = [[1.0, 2.0, 0.0], [3.0, -1.0, 2.0]]
NO_ZEROS = [[1.0, 2.0, -0.5], [3.0, -1.0, 2.0]]
TWO_ZEROS = [[1.0, 0.0, 0.0], [3.0, -1.0, 2.0]]
SPECIAL = [1.0, float("nan"), float("inf"), -float("inf"), -0.0]


def h(lib: ModuleType) -> Any:
    return lib.tensor(HALVES, requires_grad=True)


def g(lib: ModuleType, values: list[list[float]] = GRID) -> Any:
    return lib.tensor(values, requires_grad=True)


def ints(lib: ModuleType) -> Any:
    return lib.tensor([[-3, 0, 4], [1, 2, 3]])


def bools(lib: ModuleType) -> Any:
    return lib.tensor([[True, False], [True, True]])


VALUE_CASES: dict[str, Callable[[Any], Any]] = {
    "round": lambda lib: lib.round(h(lib)),
    "round method": lambda lib: h(lib).round(),
    "round decimals": lambda lib: lib.round(h(lib), decimals=2),
    "round decimals -1": lambda lib: lib.round(lib.tensor([1.2345, 125.0, -15.0]), decimals=-1),
    "round decimals method": lambda lib: h(lib).round(decimals=1),
    "round int": lambda lib: lib.round(ints(lib)),
    "round int decimals": lambda lib: lib.round(ints(lib), decimals=1),
    "round bool": lambda lib: lib.round(bools(lib)),
    "floor": lambda lib: lib.floor(h(lib)),
    "floor method": lambda lib: h(lib).floor(),
    "floor int": lambda lib: ints(lib).floor(),
    "floor bool": lambda lib: lib.floor(bools(lib)),
    "ceil": lambda lib: lib.ceil(h(lib)),
    "ceil method": lambda lib: h(lib).ceil(),
    "ceil bool": lambda lib: lib.ceil(bools(lib)),
    "trunc": lambda lib: lib.trunc(h(lib)),
    "trunc method": lambda lib: h(lib).trunc(),
    "trunc bool": lambda lib: lib.trunc(bools(lib)),
    "sign": lambda lib: lib.sign(h(lib)),
    "sign special": lambda lib: lib.sign(lib.tensor(SPECIAL)),
    "sign int": lambda lib: ints(lib).sign(),
    "sign bool": lambda lib: lib.sign(bools(lib)),
    "isnan": lambda lib: lib.isnan(lib.tensor(SPECIAL)),
    "isinf": lambda lib: lib.isinf(lib.tensor(SPECIAL)),
    "isfinite": lambda lib: lib.isfinite(lib.tensor(SPECIAL)),
    "isnan method": lambda lib: lib.tensor(SPECIAL).isnan(),
    "isinf method": lambda lib: lib.tensor(SPECIAL).isinf(),
    "isfinite method": lambda lib: lib.tensor(SPECIAL).isfinite(),
    "isnan int": lambda lib: lib.isnan(ints(lib)),
    "isfinite int": lambda lib: ints(lib).isfinite(),
    "isnan list": lambda lib: lib.isnan([1.0]),
    "log10": lambda lib: lib.log10(h(lib)),
    "log2": lambda lib: lib.log2(h(lib)),
    "log10 method": lambda lib: h(lib).log10(),
    "log2 int": lambda lib: ints(lib).log2(),
    "prod": lambda lib: lib.prod(g(lib)),
    "prod dim": lambda lib: g(lib).prod(1),
    "prod keepdim": lambda lib: g(lib).prod(dim=0, keepdim=True),
    "prod int": lambda lib: lib.prod(ints(lib)),
    "prod int dim": lambda lib: ints(lib).prod(1),
    "prod bool": lambda lib: lib.prod(bools(lib)),
    "prod dtype": lambda lib: g(lib).prod(dtype=lib.float64),
    "prod 0-d": lambda lib: lib.tensor(3.0, requires_grad=True).prod(0),
    "prod tuple dim": lambda lib: lib.prod(g(lib), (0, 1)),
    "prod bad dim": lambda lib: g(lib).prod(2),
    "cumsum": lambda lib: lib.cumsum(g(lib), 1),
    "cumsum method": lambda lib: g(lib).cumsum(dim=0),
    "cumsum negative dim": lambda lib: g(lib).cumsum(-1),
    "cumsum no dim": lambda lib: lib.cumsum(g(lib)),
    "cumsum method no dim": lambda lib: g(lib).cumsum(),
    "cumsum int": lambda lib: lib.cumsum(ints(lib), 0),
    "cumsum bool": lambda lib: lib.cumsum(bools(lib), 1),
    "cumsum dtype": lambda lib: lib.cumsum(g(lib), 1, dtype=lib.float64),
    "cumsum bad dim": lambda lib: lib.cumsum(g(lib), 5),
    "cumsum 0-d": lambda lib: lib.cumsum(lib.tensor(2.0, requires_grad=True), 0),
    "cumprod": lambda lib: lib.cumprod(g(lib), 1),
    "cumprod method": lambda lib: g(lib).cumprod(0),
    "cumprod no dim": lambda lib: lib.cumprod(g(lib)),
    "cumprod int": lambda lib: lib.cumprod(ints(lib), 1),
    "norm": lambda lib: lib.norm(g(lib)),
    "norm method": lambda lib: g(lib).norm(),
    "norm p=1": lambda lib: lib.norm(g(lib), p=1),
    "norm dim": lambda lib: lib.norm(g(lib), dim=1),
    "norm positional": lambda lib: lib.norm(g(lib), 2, 1, True),
    "norm fro": lambda lib: g(lib).norm(p="fro"),
    "norm fro dim": lambda lib: g(lib).norm(p="fro", dim=1),
    "norm inf": lambda lib: g(lib).norm(p=float("inf")),
    "norm -inf dim": lambda lib: g(lib).norm(p=-float("inf"), dim=1),
    "norm p=0": lambda lib: g(lib).norm(p=0),
    "norm p=3 dim": lambda lib: g(lib).norm(p=3, dim=0),
    "norm p=-1": lambda lib: g(lib, NO_ZEROS).norm(p=-1),
    "norm dims": lambda lib: g(lib).norm(dim=(0, 1)),
    "norm int": lambda lib: lib.norm(ints(lib)),
    "any": lambda lib: lib.any(bools(lib)),
    "any dim": lambda lib: bools(lib).any(dim=1),
    "all keepdim": lambda lib: bools(lib).all(1, keepdim=True),
    "all int": lambda lib: lib.all(ints(lib)),
    "any float dim": lambda lib: lib.any(g(lib), 0),
    "any dims": lambda lib: ints(lib).any(dim=(0, 1)),
    "all uint8": lambda lib: lib.all(lib.tensor([1, 0], dtype=lib.uint8)),
    "all method": lambda lib: (g(lib) > 0).all(),
}


@pytest.mark.parametrize("name", VALUE_CASES)
def test_function_matches_torch(name: str, torch_module: ModuleType) -> None:
    mt, t = outcome(VALUE_CASES[name], microtorch), outcome(VALUE_CASES[name], torch_module)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
    else:
        same(mt[1], t[1])


GRAD_CASES: dict[str, tuple[Callable[[Any, Any], Any], list[Any]]] = {
    "round": (lambda lib, x: lib.round(x), HALVES),
    "round decimals": (lambda lib, x: lib.round(x, decimals=1), HALVES),
    "floor": (lambda lib, x: lib.floor(x) * x, HALVES),
    "ceil": (lambda lib, x: x.ceil(), HALVES),
    "trunc": (lambda lib, x: x.trunc(), HALVES),
    "sign": (lambda lib, x: x.sign() * x, HALVES),
    "log10": (lambda lib, x: lib.log10(x.abs() + 1), HALVES),
    "log2": (lambda lib, x: lib.log2(x.abs() + 1), HALVES),
    "prod": (lambda lib, x: x.prod(), NO_ZEROS),
    "prod one zero": (lambda lib, x: x.prod(), GRID),
    "prod two zeros": (lambda lib, x: x.prod(), TWO_ZEROS),
    "prod dim": (lambda lib, x: x.prod(1), NO_ZEROS),
    "prod dim zero": (lambda lib, x: x.prod(1), GRID),
    "prod dim two zeros": (lambda lib, x: x.prod(1, keepdim=True), TWO_ZEROS),
    "prod dim 0": (lambda lib, x: x.prod(0), TWO_ZEROS),
    "cumsum": (lambda lib, x: x.cumsum(1), GRID),
    "cumsum dim 0": (lambda lib, x: x.cumsum(0), GRID),
    "cumprod": (lambda lib, x: x.cumprod(1), NO_ZEROS),
    "cumprod zero": (lambda lib, x: x.cumprod(1), GRID),
    "cumprod two zeros": (lambda lib, x: x.cumprod(1), TWO_ZEROS),
    "cumprod zero first": (lambda lib, x: x.cumprod(1), [[0.0, 2.0, 3.0], [2.0, 0.0, 5.0]]),
    "cumprod dim 0": (lambda lib, x: x.cumprod(0), TWO_ZEROS),
    "norm": (lambda lib, x: x.norm(), GRID),
    "norm zeros": (lambda lib, x: (x * 0).norm(), GRID),
    "norm p=1": (lambda lib, x: x.norm(p=1), GRID),
    "norm p=3 dim": (lambda lib, x: x.norm(p=3, dim=1), GRID),
    "norm dim keepdim": (lambda lib, x: x.norm(dim=0, keepdim=True), GRID),
    "norm inf": (lambda lib, x: x.norm(p=float("inf")), [[3.0, -3.0, 1.0], [2.0, 0.0, 1.0]]),
    "norm inf dim": (lambda lib, x: x.norm(p=float("inf"), dim=1), GRID),
    "norm p=0": (lambda lib, x: x.norm(p=0), GRID),
}


@pytest.mark.parametrize("name", GRAD_CASES)
def test_gradient_matches_torch(name: str, torch_module: ModuleType) -> None:
    fn, values = GRAD_CASES[name]

    def run(lib: ModuleType) -> Any:
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        out = fn(lib, x)
        upstream = np.random.default_rng(0).standard_normal(tuple(out.shape))
        out.backward(lib.tensor(upstream))
        return out, x.grad

    mt, t = outcome(run, microtorch), outcome(run, torch_module)
    assert mt[0] == t[0] == "ok", (mt, t)
    for m, tt in zip(mt[1], t[1]):
        if tt is None:  # no gradient reached x (norm with p=0)
            assert m is None
        else:
            same(m, tt)


def test_new_gradients_match_finite_differences() -> None:
    x = microtorch.tensor([[1.5, -2.0, 0.7], [3.0, -1.2, 2.0]], dtype=microtorch.float64)
    x.requires_grad_()
    for fn in (
        lambda a: a.prod(),
        lambda a: a.prod(1),
        lambda a: a.cumsum(1),
        lambda a: a.cumprod(1),
        lambda a: a.cumprod(0),
        lambda a: a.norm(p=3, dim=0),
        lambda a: microtorch.log10(a.abs()),
        lambda a: microtorch.log2(a.abs()),
    ):
        assert gradcheck(fn, (x,))


def hist_in(lib: ModuleType, requires_grad: bool = False) -> Any:
    return lib.tensor([1.0, 2.0, 1.0, 4.0, 2.5, 0.0, 7.0], requires_grad=requires_grad)


def _pair(result: Any) -> tuple[Any, Any]:
    """A histogram result as its two tensors, after checking it is named as PyTorch's."""
    assert type(result).__name__ == "histogram"
    assert result.hist is result[0] and result.bin_edges is result[1]
    return result.hist, result.bin_edges


TENSOR_CASES: dict[str, Callable[[Any], Any]] = {
    "histc": lambda lib: lib.histc(hist_in(lib), bins=4),
    "histc range": lambda lib: lib.histc(hist_in(lib), bins=4, min=0, max=3),
    "histc method": lambda lib: hist_in(lib).histc(3),
    "histc float64": lambda lib: lib.histc(hist_in(lib).double(), 5),
    "histc equal values": lambda lib: lib.histc(lib.tensor([1.0, 1.0]), bins=2),
    "histc min = max given": lambda lib: lib.histc(hist_in(lib), bins=3, min=2, max=2),
    "histc empty": lambda lib: lib.histc(lib.tensor([]), bins=3),
    "histc requires grad": lambda lib: lib.histc(hist_in(lib, True), bins=3),
    "histc int": lambda lib: lib.histc(lib.tensor([1, 2]), bins=2),
    "histc max < min": lambda lib: lib.histc(hist_in(lib), bins=2, min=3, max=1),
    "histogram": lambda lib: _pair(lib.histogram(hist_in(lib), bins=3)),
    "histogram edges": lambda lib: _pair(
        lib.histogram(hist_in(lib), bins=lib.tensor([0.0, 1.0, 3.0]))
    ),
    "histogram range": lambda lib: _pair(lib.histogram(hist_in(lib), 3, range=(0.0, 2.0))),
    "histogram density": lambda lib: _pair(lib.histogram(hist_in(lib), 3, density=True)),
    "histogram weight": lambda lib: _pair(lib.histogram(hist_in(lib), 3, weight=lib.arange(7.0))),
    "histogram equal values": lambda lib: _pair(lib.histogram(lib.tensor([1.0, 1.0]), 2)),
    "histogram empty": lambda lib: _pair(lib.histogram(lib.tensor([]), 2)),
    "histogram method": lambda lib: _pair(hist_in(lib).histogram(2)),
    "histogram requires grad": lambda lib: _pair(lib.histogram(hist_in(lib, True), 2)),
    "histogram int": lambda lib: lib.histogram(lib.tensor([1, 2]), 2),
    "histogram backward": lambda lib: lib.histogram(hist_in(lib, True), 2).hist.sum().backward(),
    "numel": lambda lib: hist_in(lib).numel(),
    "nelement": lambda lib: hist_in(lib).nelement(),
    "torch.numel": lambda lib: lib.numel(lib.zeros(2, 3)),
    "is_cuda": lambda lib: hist_in(lib).is_cuda,
    "is_cpu": lambda lib: hist_in(lib).is_cpu,
    "new_ones": lambda lib: hist_in(lib).new_ones(2, 3),
    "new_ones tuple dtype": lambda lib: hist_in(lib).new_ones((2, 3), dtype=lib.int64),
    "new_ones size=": lambda lib: hist_in(lib).new_ones(size=(2,)),
    "new_zeros requires_grad": lambda lib: hist_in(lib).new_zeros(2, requires_grad=True),
    "new_zeros device": lambda lib: hist_in(lib).new_zeros(2, device="cpu"),
    "new_zeros cuda": lambda lib: hist_in(lib).new_zeros(2, device="cuda"),
    "new_zeros int requires_grad": lambda lib: lib.tensor([1]).new_zeros(2, requires_grad=True),
    "new_full": lambda lib: hist_in(lib).new_full((2,), 3),
    "new_full dtype": lambda lib: hist_in(lib).new_full((2,), 3, dtype=lib.int32),
    "new_full int": lambda lib: lib.tensor([1, 2]).new_full((2,), 2.5),
    "new_empty shape": lambda lib: tuple(hist_in(lib).new_empty(2, 3).shape),
    "new_tensor": lambda lib: hist_in(lib).new_tensor([1, 2]),
    "new_tensor dtype": lambda lib: hist_in(lib).new_tensor([1, 2], dtype=lib.int64),
    "new_tensor requires_grad": lambda lib: hist_in(lib).new_tensor([1.0], requires_grad=True),
    "new_ones int": lambda lib: lib.tensor([1, 2]).new_ones(2),
    "zeros_like device": lambda lib: lib.zeros_like(hist_in(lib), device="cpu"),
    "ones_like device": lambda lib: lib.ones_like(hist_in(lib), device=lib.device("cpu")),
    "full_like device": lambda lib: lib.full_like(hist_in(lib), 2, device="cpu"),
    "empty_like device": lambda lib: tuple(lib.empty_like(hist_in(lib), device="cpu").shape),
    "rand_like device": lambda lib: tuple(lib.rand_like(hist_in(lib), device="cpu").shape),
    "randn_like device": lambda lib: tuple(lib.randn_like(hist_in(lib), device="cpu").shape),
    "zeros_like cuda": lambda lib: lib.zeros_like(hist_in(lib), device="cuda"),
    "half": lambda lib: lib.tensor([1.0, 2.0]).half(),
    "half int": lambda lib: lib.tensor([1, 2]).half(),
    "half dtype names": lambda lib: lib.half is lib.float16,
    "float16 tensor": lambda lib: lib.tensor([1.5, 2.25, 60000.0], dtype=lib.float16),
    "float16 sum": lambda lib: lib.tensor([1.5, 2.25, 60000.0], dtype=lib.half).sum(),
    "float16 sum overflows": lambda lib: lib.tensor([6e4, 6e4], dtype=lib.float16).sum(),
    "float16 mean accumulates": lambda lib: lib.tensor([6e4, 6e4], dtype=lib.float16).mean(),
    "float16 mean dim": lambda lib: lib.tensor([[6e4, 6e4]], dtype=lib.float16).mean(1),
    "float16 sum dim": lambda lib: lib.full((3, 2048), 0.1, dtype=lib.float16).sum(1),
    "float16 type": lambda lib: lib.zeros(2, dtype=lib.half).type().split(".")[1],
    "get_default_device": lambda lib: str(lib.get_default_device()),
    "set_default_device cpu": lambda lib: (lib.set_default_device("cpu"), lib.zeros(1))[1],
    "set_default_device None": lambda lib: lib.set_default_device(None),
    "accelerator.is_available": lambda lib: lib.accelerator.is_available(),
    "accelerator.current_accelerator": lambda lib: lib.accelerator.current_accelerator(),
    "accelerator.device_count": lambda lib: lib.accelerator.device_count(),
    "Variable": lambda lib: lib.autograd.Variable(lib.tensor([1.0, 2.0])),
    "Variable requires_grad": lambda lib: lib.autograd.Variable(lib.ones(2), requires_grad=True),
    "Variable int requires_grad": lambda lib: lib.autograd.Variable(
        lib.tensor([1]), requires_grad=True
    ),
    "Variable of a list": lambda lib: lib.autograd.Variable([1.0]),
    "Variable empty": lambda lib: lib.autograd.Variable(),
    "Variable of a graph": lambda lib: lib.autograd.Variable(hist_in(lib, True) * 2),
}


def _same_outcome(mt: Any, t: Any) -> None:
    if isinstance(t, tuple):
        assert isinstance(mt, tuple) and len(mt) == len(t)
        for m, tt in zip(mt, t):
            _same_outcome(m, tt)
    elif t is None or isinstance(t, (bool, int, float, str)):
        assert type(mt) is type(t) and mt == t, (mt, t)
    else:
        same(mt, t)
        assert mt.requires_grad == t.requires_grad and mt.is_leaf == t.is_leaf


@pytest.mark.parametrize("name", TENSOR_CASES)
def test_tensor_function_matches_torch(name: str, torch_module: ModuleType) -> None:
    mt, t = outcome(TENSOR_CASES[name], microtorch), outcome(TENSOR_CASES[name], torch_module)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
    else:
        _same_outcome(mt[1], t[1])


def test_histogram_and_float16_print_as_torch(torch_module: ModuleType) -> None:
    for fn in (
        lambda lib: lib.histogram(hist_in(lib), bins=3),
        lambda lib: lib.tensor([1.5, 2.25, 60000.0], dtype=lib.float16),
        lambda lib: lib.tensor([1.0, 2.0]).half().sum(),
    ):
        assert repr(fn(microtorch)).replace("microtorch.", "torch.") == repr(fn(torch_module))


def test_variable_shares_memory_and_is_every_tensor(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        t = lib.tensor([1.0, 2.0])
        v = lib.autograd.Variable(t, requires_grad=True)
        assert v is not t and v.data_ptr() == t.data_ptr() and not t.requires_grad
        assert isinstance(t, lib.autograd.Variable) and type(v) is lib.Tensor
        (v * 2).sum().backward()
        assert v.grad.tolist() == [2.0, 2.0] and t.grad is None
        with pytest.warns(UserWarning, match="volatile was removed and now has no effect"):
            lib.autograd.Variable(t, volatile=True)
        with pytest.warns(UserWarning, match="To copy construct from a tensor"):
            t.new_tensor(t)


def test_cuda_default_device_raises_torchs_error() -> None:
    # Deliberate difference: PyTorch accepts set_default_device("cuda") and raises at the
    # next factory call; microtorch raises the same error at once.
    with pytest.raises(AssertionError, match="^Torch not compiled with CUDA enabled"):
        microtorch.set_default_device("cuda")
    assert microtorch.zeros(1).device == microtorch.device("cpu")


@pytest.mark.parametrize("factory", ["zeros", "ones", "empty", "rand", "randn"])
def test_factories_take_size_keyword(factory: str, torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        assert tuple(getattr(lib, factory)(size=(2, 3)).shape) == (2, 3)
        assert tuple(getattr(lib, factory)(size=[4], dtype=lib.float64).shape) == (4,)
    for lib in (microtorch, torch_module):
        assert tuple(lib.randint(0, 5, size=(3,)).shape) == (3,)
        assert tuple(lib.randint(5, size=(2, 2)).shape) == (2, 2)
        assert tuple(lib.full(size=(2,), fill_value=1.0).shape) == (2,)

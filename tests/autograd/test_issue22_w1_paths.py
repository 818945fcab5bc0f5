"""Issue 22 (W1): a backward pass calls a node's ``pre_hooks`` only when hooks were registered
on it (``Node.has_pre_hooks``), and ``x.tanh()`` of a floating-point tensor runs ``Tanh``
itself (``api/operators.op_method``). Call counts pin both; the values, dtypes and errors of
the methods that take the short way, and hooks on each kind of node, are checked against
torch 2.13."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import versions
from tests.autograd.test_issue22_call_counts import python_calls

METHODS = ["neg", "exp", "log", "log1p", "sqrt", "abs", "sin", "cos", "sigmoid", "tanh", "relu"]
METHODS += ["reciprocal"]


@pytest.fixture(autouse=True)
def no_version_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    # as in a fresh process (see test_issue22_call_counts)
    monkeypatch.setattr(versions, "counters", {})


def _w1_chain(x: Any, c: Any) -> Any:
    y = x
    for _ in range(33):  # 99 ops, W1's: mul, add, tanh
        y = (y * c + c).tanh()
    return y


def test_a_backward_runs_fewer_than_ten_python_functions_per_node() -> None:
    # Per node: the walk's step, run, call_backward, the formula, release_saved, add_into;
    # for Mul and Tanh also saved_tensors, unpack (and its version_of); for Mul and Add
    # input_shape and unbroadcast. pre_hooks only for x's AccumulateGrad, which looks for
    # the leaf's own hooks: none of the op nodes has one.
    x, c = microtorch.tensor([0.5], requires_grad=True), microtorch.tensor([0.9])
    chains = iter([_w1_chain(x, c) for _ in range(4)])  # 3 warm-ups, then the measured one
    calls = python_calls(lambda: next(chains).backward())
    assert sum(call.startswith("pre_hooks") for call in calls) == 1, calls
    assert len(calls) / 100 <= 9.65, len(calls)  # 99 nodes and x's AccumulateGrad


def test_a_tanh_method_runs_thirteen_python_functions() -> None:
    y = microtorch.tensor([0.5], requires_grad=True) * 1.0
    calls = python_calls(lambda: y.tanh())
    # the method, then as for a * b (apply ... keep_saved), and the record of the output
    assert len(calls) <= 13, calls
    assert calls[1].startswith("apply"), calls  # (not via microtorch.tanh)


@pytest.mark.parametrize("name", METHODS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_the_unary_methods_match_torch(torch_module: ModuleType, name: str, dtype: str) -> None:
    values = np.array([-1.5, 0.0, 0.25, 2.0])
    out = {}
    for lib in (microtorch, torch_module):
        t = lib.tensor(values).to(getattr(lib, dtype))
        if dtype.startswith("float"):
            t.requires_grad_()
        try:
            y = getattr(t, name)()
        except Exception as e:  # noqa: BLE001 - the class is compared below
            out[lib] = type(e)
            continue
        if y.requires_grad:
            y.backward(lib.ones_like(y))
        grad = None if t.grad is None else t.grad.numpy()
        name_of = None if y.grad_fn is None else y.grad_fn.name()
        out[lib] = (y.detach().numpy(), str(y.dtype).split(".")[1], grad, name_of)
    mine, theirs = out[microtorch], out[torch_module]
    if isinstance(theirs, type):
        assert mine is theirs or isinstance(mine, type) and issubclass(mine, theirs), out
        return
    assert not isinstance(mine, type), out
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-6, equal_nan=True)
    assert mine[1:2] + mine[3:] == theirs[1:2] + theirs[3:]
    if theirs[2] is not None:
        np.testing.assert_allclose(mine[2], theirs[2], rtol=1e-6, equal_nan=True)


def test_a_unary_method_with_arguments_goes_the_long_way(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        with pytest.raises(TypeError):
            lib.ones(2).tanh(1)
        with pytest.raises(TypeError):
            lib.ones(2).exp(out=lib.ones(2))
    assert microtorch.Tensor.tanh.__name__ == "tanh"


def test_each_kind_of_pre_hook_still_runs(torch_module: ModuleType) -> None:
    seen: dict[Any, list[str]] = {}
    for lib in (microtorch, torch_module):
        log = seen[lib] = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        z = h.tanh()
        h.register_hook(lambda g, log=log: log.append("tensor"))
        z.grad_fn.register_prehook(lambda g, log=log: log.append("node"))
        x.register_hook(lambda g, log=log: log.append("leaf"))
        h.retain_grad()
        z.sum().backward()
        log.append(str(np.round(h.grad.numpy(), 5).tolist()))
    assert seen[microtorch] == seen[torch_module]
    assert seen[microtorch][:3] == ["node", "tensor", "leaf"]

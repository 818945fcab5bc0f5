""".grad owns its memory, as in PyTorch: a leaf's first gradient is kept as ``.grad`` without a
copy only when nothing else holds it (see ``engine.private`` and ``AccumulateGrad.run``).

Each case changes one gradient in place (a second backward's ``+=``, ``zero_()``, an optimizer
step) and then reads everything else that could share its memory: the other leaves' ``.grad``,
the gradient a hook kept, the ``gradient=`` passed in, a custom Function's own tensor. Run in
both libraries and compared (``same``); the last tests check that microtorch does keep the
new gradient of a matrix product instead of copying it (what makes W3 fast).
"""

from __future__ import annotations

import tracemalloc
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.autograd.test_torch_model import cases, same

pytestmark = pytest.mark.torch


def passed_through_to_two_leaves(L: ModuleType) -> Any:
    x, y = L.tensor([1.0, 2.0], requires_grad=True), L.tensor([3.0, 4.0], requires_grad=True)
    ((x + y) * 2).sum().backward()  # AddBackward0 hands MulBackward0's new gradient to both
    x.grad.mul_(10)
    return x.grad, y.grad


def passed_through_twice_then_accumulated(L: ModuleType) -> Any:
    x, y = L.tensor([1.0, 2.0], requires_grad=True), L.tensor([3.0, 4.0], requires_grad=True)
    z = (x * 2 + y * 1).sum()
    z.backward(retain_graph=True)
    z.backward()  # in place into both .grads
    return x.grad, y.grad


def root_gradient_of_a_leaf(L: ModuleType) -> Any:
    x, g = L.tensor([1.0, 2.0], requires_grad=True), L.tensor([0.5, 0.25])
    x.backward(g)
    x.grad.add_(1)
    return x.grad, g


def root_gradient_passed_through(L: ModuleType) -> Any:
    x, g = L.tensor([1.0, 2.0], requires_grad=True), L.tensor([0.5, 0.25])
    (x + 1).backward(g)
    x.grad.zero_()
    return x.grad, g


def leaf_hook_keeps_the_gradient(L: ModuleType) -> Any:
    w, kept = L.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True), []
    w.register_hook(lambda g: kept.append(g))
    a = L.tensor([[0.5, -1.0], [2.0, 0.25]])
    loss = (a @ w).sum()
    loss.backward(retain_graph=True)
    loss.backward()
    return w.grad, kept


def node_hook_keeps_the_gradients(L: ModuleType) -> Any:
    w, kept = L.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True), []
    y = L.tensor([[0.5, -1.0], [2.0, 0.25]]) @ w
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: kept.append(grad_inputs))
    y.sum().backward(retain_graph=True)
    w.grad.mul_(3)
    return w.grad, kept


def custom_function_returns_its_own_tensor(L: ModuleType) -> Any:
    constant = L.tensor([7.0, 8.0])

    class Twice(L.autograd.Function):  # type: ignore[name-defined, misc]
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            return constant  # the same tensor every call: it stays the Function's own

    x = L.tensor([1.0, 2.0], requires_grad=True)
    Twice.apply(x).sum().backward()
    x.grad.add_(100)
    return x.grad, constant


def one_new_gradient_to_two_edges(L: ModuleType) -> Any:
    x = L.tensor([1.0, -2.0], requires_grad=True)
    y = L.tensor([3.0, 0.5], requires_grad=True)
    L.stack([x, y]).mul(3).sum().backward()  # StackBackward0 slices one gradient per input
    x.grad.sub_(1)
    return x.grad, y.grad


def sgd_step_after_a_kept_gradient(L: ModuleType) -> Any:
    w = L.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    a = L.tensor([[0.5, -1.0], [2.0, 0.25]])
    opt = L.optim.SGD([w], lr=0.1, momentum=0.9)
    for _ in range(3):
        opt.zero_grad()
        (a @ w).pow(2).sum().backward()
        opt.step()
    return w, w.grad


def expanded_gradient_of_a_sum(L: ModuleType) -> Any:
    x = L.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x.sum().backward()  # SumBackward0's gradient is an expanded view: copied into .grad
    x.grad[0, 0] = 5.0  # changes one element only
    return x.grad


def leaf_used_twice(L: ModuleType) -> Any:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    (x * x + x).sum().backward()
    x.grad.mul_(2)
    return x.grad


def stepper_records_stay(L: ModuleType) -> Any:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).sum()
    if L is microtorch:
        steps = list(microtorch.autograd.iter_backward(y, retain_graph=True))
        recorded = [s.grad_outputs[0] for s in steps if s.name == "AccumulateGrad"]
    else:
        y.backward(retain_graph=True)
        recorded = [x.grad.clone()]
    y.backward()  # accumulates into x.grad in place: the recorded step must not change
    return recorded, x.grad


CASES = cases(
    passed_through_to_two_leaves,
    passed_through_twice_then_accumulated,
    root_gradient_of_a_leaf,
    root_gradient_passed_through,
    leaf_hook_keeps_the_gradient,
    node_hook_keeps_the_gradients,
    custom_function_returns_its_own_tensor,
    one_new_gradient_to_two_edges,
    sgd_step_after_a_kept_gradient,
    expanded_gradient_of_a_sum,
    leaf_used_twice,
    stepper_records_stay,
)


@pytest.mark.parametrize("case", CASES)
def test_grad_owns_its_memory_as_in_torch(case: Any, torch_module: ModuleType) -> None:
    same(case, torch_module)


def _shares(a: Any, b: Any) -> bool:
    return np.shares_memory(np.asarray(a), np.asarray(b))


def test_a_new_gradient_is_kept_without_a_copy() -> None:
    # The gradient MmBackward0 computes for w is new and held by nothing else: it becomes
    # w.grad itself, so a big layer's first backward allocates no second copy of it
    # (numpy reports its allocations to tracemalloc).
    w = microtorch.tensor(np.ones((1000, 1000), np.float32), requires_grad=True)  # 4 MB
    loss = (microtorch.tensor(np.ones((2, 1000), np.float32)) @ w).sum()
    tracemalloc.start()
    try:
        loss.backward()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 4e6 <= peak < 6e6, f"backward's peak was {peak / 1e6:.1f} MB: w.grad was copied"
    assert w.grad._data.base is None and w.grad._data.flags.owndata


def test_a_passed_through_gradient_is_copied() -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    y = microtorch.tensor([3.0, 4.0], requires_grad=True)
    (x + y).backward(microtorch.tensor([1.0, 1.0]))  # the same array to both leaves
    assert not _shares(x.grad._data, y.grad._data)

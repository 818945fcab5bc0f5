"""A tensor saved by several nodes at one version is one SavedTensor (issue 22: a weight many
ops use, the constant of a 100,000-op chain). Sharing must never change what backward checks:
each node still refuses a value changed since *it* saved it, with PyTorch's message, and a node
saving it after the change accepts it."""

from __future__ import annotations

import gc
from types import ModuleType
from typing import Any

import pytest

import microtorch
from tests.autograd.test_torch_model import same


def test_nodes_saving_one_tensor_at_one_version_share_its_record() -> None:
    w = microtorch.tensor([1.0, 2.0], requires_grad=True)
    c = microtorch.tensor([3.0, 4.0])
    first, second = w * c, (w + 1) * c
    a, b = first.grad_fn._saved[0], second.grad_fn._saved[0]
    assert a is b and a.tensor is c and a.version == 0
    c.add_(1)
    third = w * c
    assert third.grad_fn._saved[0] is not a and third.grad_fn._saved[0].version == 1


def test_a_chain_of_a_constant_holds_three_tracked_objects_per_op() -> None:
    x = microtorch.tensor([1.0], requires_grad=True)
    y = x * 1.000001
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(2000):
        y = y * 1.000001
    gc.collect()
    per_op = (len(gc.get_objects()) - before) / 2000
    assert per_op < 3.01, per_op  # the node, its edges, its saved tuple (4 before sharing)


def changed_after_one_of_two_saves(L: ModuleType) -> Any:
    w = L.tensor([1.0, 2.0], requires_grad=True)
    c = L.tensor([3.0, 4.0])
    y1 = w * c
    c.add_(1)
    y2 = w * c
    y2.sum().backward()
    grad = w.grad.clone()
    y1.sum().backward()  # y1 saved c at version 0: PyTorch's error, naming versions 1 and 0
    return grad


def saved_twice_then_changed(L: ModuleType) -> Any:
    w = L.tensor([1.0, 2.0], requires_grad=True)
    c = L.tensor([3.0, 4.0])
    y = (w * c).sum() + (w * c * c).sum()
    c.mul_(2)
    y.backward()


def saved_twice_unchanged(L: ModuleType) -> Any:
    w = L.tensor([1.0, 2.0], requires_grad=True)
    c = L.tensor([3.0, 4.0])
    y = (w * c).sum() + (w * c * c).sum()
    y.backward()
    return w.grad


def detached_in_place_between_saves(L: ModuleType) -> Any:
    w = L.tensor([1.0, 2.0], requires_grad=True)
    h = w * 2
    y1 = h * h
    h.detach_()
    y2 = w * h
    y2.sum().backward()
    grad = w.grad.clone()
    y1.sum().backward()  # y1 saved h while it had a grad_fn: PyTorch's detach_ error
    return grad


@pytest.mark.torch
@pytest.mark.parametrize(
    "case",
    [
        changed_after_one_of_two_saves,
        saved_twice_then_changed,
        saved_twice_unchanged,
        detached_in_place_between_saves,
    ],
    ids=lambda f: f.__name__,
)
def test_shared_records_check_as_torch(case: Any, torch_module: ModuleType) -> None:
    same(case, torch_module)

"""The shorter recorded path of issue 22: what it shares between nodes must never change what
a node holds or checks (flags stay bools, shapes ints), a chain of a constant holds two
tracked objects per op, ``t()`` records ``TBackward0`` with its own forward, NllLoss's
backward reuses its forward's picks yet still refuses a target changed in place, and addmm
adds its bias into the product."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.autograd.test_torch_model import same
from tests.autograd.tracked import tracked_objects_per_op


def test_needs_input_grad_stays_bools_after_output_numbers_alike() -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    _, second = x.unbind(0)  # output 1 of its node: edges numbered (1, 0) below
    y = second * microtorch.tensor(3.0)
    assert y.grad_fn._next_nrs == (1, 0)
    z = x * microtorch.tensor([1.0, 1.0])  # flags (True, False), equal to (1, 0) in Python
    assert z.grad_fn.needs_input_grad == (True, False)
    assert all(type(flag) is bool for flag in z.grad_fn.needs_input_grad)


def test_an_output_shape_of_one_stays_ints() -> None:
    x = microtorch.tensor([1.0], requires_grad=True)
    y = x * microtorch.tensor([2.0])  # flags (True,) and shape (1,) are equal in Python
    z = y.tanh()
    assert z.grad_fn._out_shape == (1,) and type(z.grad_fn._out_shape[0]) is int
    z.backward()
    assert x.grad.tolist() == pytest.approx([2 * (1 - np.tanh(2.0) ** 2)])


def test_a_chain_of_a_constant_holds_two_tracked_objects_per_op() -> None:
    x = microtorch.tensor([1.0], requires_grad=True)
    per_op, y = tracked_objects_per_op(x * 1.000001, lambda y: y * 1.000001, 2000)
    assert per_op < 2.01, per_op  # the node and its edges; the saved tuple is shared
    y.backward()
    assert x.grad.item() == pytest.approx(float(np.float32(1.000001)) ** 8001, rel=1e-4)


def test_nodes_sharing_a_saved_tuple_still_check_each_version() -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 2.5, (x + 1) * 2.5
    assert a.grad_fn._saved is b.grad_fn._saved  # (the constant 2.5, shared)
    (a.sum() + b.sum()).backward()
    assert x.grad.tolist() == [5.0, 5.0]


def transposed(L: ModuleType) -> Any:
    w = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=L.float64, requires_grad=True)
    v = L.tensor([1.0, -1.0], dtype=L.float64, requires_grad=True)
    y = w.t()
    out = (y * L.arange(6.0, dtype=L.float64).reshape(3, 2)).sum() + (v.t() * v).sum()
    out.backward()
    return y.grad_fn.name(), list(y.shape), y.is_contiguous(), y._base is w, w.grad, v.grad


def nll_target_changed(L: ModuleType) -> Any:
    x = L.tensor([[0.1, 0.2, 0.3], [1.0, -1.0, 0.5]], requires_grad=True)
    target = L.tensor([2, 0])
    loss = L.nn.functional.nll_loss(x.log_softmax(1), target)
    target.add_(0)  # one version more, values unchanged: backward refuses it
    loss.backward()


def nll_weighted(L: ModuleType) -> Any:
    x = L.tensor(
        [[0.1, 0.2, 0.3], [1.0, -1.0, 0.5], [0.0, 2.0, -2.0]], dtype=L.float64, requires_grad=True
    )
    w = L.tensor([0.5, 2.0, 1.0], dtype=L.float64)
    loss = L.nn.functional.nll_loss(x, L.tensor([2, 1, 1]), weight=w, ignore_index=2)
    loss.backward()
    return loss, x.grad


def addmm_bias(L: ModuleType) -> Any:
    a = L.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    b = L.tensor([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0]], requires_grad=True)
    c = L.tensor([0.1, 0.2, 0.3, 0.4], requires_grad=True)
    out = L.addmm(c, a, b)
    column = L.addmm(L.tensor([[1.0], [2.0], [3.0]]), a, b)
    out.sum().backward()
    return out, column, a.grad, b.grad, c.grad


@pytest.mark.torch
@pytest.mark.parametrize("case", [transposed, nll_target_changed, nll_weighted, addmm_bias])
def test_as_torch(case: Any, torch_module: ModuleType) -> None:
    same(case, torch_module)


def test_addmm_with_a_bias_of_another_dtype_adds_out_of_place() -> None:
    from microtorch.ops.linalg import Addmm

    out = Addmm.forward(
        microtorch.autograd.function._UNRECORDED[3], np.zeros(4), np.ones((3, 2), np.float32),
        np.ones((2, 4), np.float32),
    )  # fmt: skip
    assert out.dtype == np.float64 and out.tolist() == [[2.0] * 4] * 3

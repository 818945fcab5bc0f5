"""In-place ops: version counters, errors that change nothing, the no-grad fast path."""

from __future__ import annotations

import pytest

import microtorch as torch


def test_in_place_arithmetic_under_no_grad_updates_memory_and_version() -> None:
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    view = p.detach()  # shares memory
    with torch.no_grad():
        p -= 0.5 * torch.tensor([2.0, 4.0])
        p.add_(torch.tensor([1.0, 1.0]), alpha=2)
        p.mul_(2)
        p.div_(4)
    assert p.tolist() == [1.0, 1.0]
    assert view.tolist() == [1.0, 1.0]
    assert p._version == 4


def test_float_into_int_tensor_is_refused_and_changes_nothing() -> None:
    x = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output"):
        x.add_(1.5)
    assert x.tolist() == [1, 2] and x._version == 0


def test_shape_changing_in_place_op_is_refused() -> None:
    x = torch.zeros(3)
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast"):
        x.add_(torch.ones(2, 3))
    assert x.tolist() == [0.0, 0.0, 0.0] and x._version == 0


def test_device_mismatch_in_place_is_refused() -> None:
    x = torch.zeros(2)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        x.add_(torch.ones(2, device="meta"))
    assert x.tolist() == [0.0, 0.0]


def test_integer_division_in_place_is_refused() -> None:
    x = torch.tensor([4, 6])
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Long"):
        x.div_(2)
    assert x.tolist() == [4, 6]


def test_setitem_on_non_leaf_records_copy_slices() -> None:
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 2
    b[0] = 10.0
    assert b.grad_fn.name() == "torch::autograd::CopySlices"  # as PyTorch names it
    b.sum().backward()
    assert a.grad.tolist() == [0.0, 2.0, 2.0]

"""In-place ops: version counters, errors that change nothing, the no-grad fast path."""

from __future__ import annotations

import re

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


def _version_error(lib, scenario: str) -> str:
    # Each scenario saves a value for backward, changes it in place, then runs backward.
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = lib.tensor([4.0, 5.0, 6.0])
    if scenario == "saved input changed by an op":
        h = a * 2
        y = h * h
        h.add_(1)
    elif scenario == "saved input changed under no_grad":
        h = a * 2
        y = h * a
        with lib.no_grad():
            h.mul_(3)
    elif scenario == "saved constant changed":
        y = a * c
        c.add_(1)
    elif scenario == "saved constant changed through detach":
        y = a * c
        c.detach().add_(1)
    elif scenario == "saved output changed":
        y = a.exp()
        y.mul_(2)
    elif scenario == "saved input, object gone":
        h = a * 2
        y = h.tanh() * h
        view = h.detach()
        del h
        view.add_(1)
    elif scenario == "saved input changed by an op, then deleted":
        h = a.exp()
        y = h * h
        h.add_(1)
        del h
    elif scenario == "saved input changed through a slice":
        h = a * 2
        y = h * a
        h[0] = 5.0
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    text = str(info.value)
    return re.sub(r"(?<!micro)torch\.", "microtorch.", text[: text.index("Hint:")])


@pytest.mark.parametrize(
    "scenario",
    [
        "saved input changed by an op",
        "saved input changed under no_grad",
        "saved constant changed",
        "saved constant changed through detach",
        "saved output changed",
        "saved input, object gone",
        "saved input changed by an op, then deleted",
        "saved input changed through a slice",
    ],
)
def test_in_place_error_describes_the_value_as_pytorch(torch_module, scenario: str) -> None:
    assert _version_error(torch, scenario) == _version_error(torch_module, scenario)


def test_saved_values_are_checked_whatever_else_changed_in_place() -> None:
    # Backward skips the per-value version check only while nothing at all has been changed
    # in place since the node saved its values (the epoch): both sides of that are checked.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = a * a
    y.sum().backward(retain_graph=True)  # nothing changed: the fast path
    other = torch.zeros(2)
    other.add_(1)  # an unrelated change moves the epoch: values are looked at, all unchanged
    y.sum().backward(retain_graph=True)
    assert a.grad.tolist() == [4.0, 8.0]
    z = a.exp()
    h = z * 1.0
    w = h * h
    h.add_(1)  # a saved value changed: caught even after other changes
    other.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        w.sum().backward()

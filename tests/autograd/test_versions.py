"""Version counts: kept per memory, shared by views, forgotten with the memory."""

from __future__ import annotations

import gc

import pytest

import microtorch as torch
from microtorch.autograd import versions


def test_views_and_detach_share_the_count_of_their_memory() -> None:
    x = torch.zeros(4)
    view, alias, other = x[1:], x.detach(), torch.zeros(4)
    view.add_(1)
    alias.mul_(2)
    assert (x._version, view._version, alias._version, other._version) == (2, 2, 2, 0)


def test_changing_data_in_place_counts_as_a_change() -> None:
    # A deliberate difference: PyTorch gives x.data a count of its own, so changing it goes
    # unnoticed by backward; here backward refuses, as it does for x.detach() in both.
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    x.data.add_(1)
    assert x._version == 1
    try:
        y.sum().backward()
    except RuntimeError as error:
        assert "modified by an inplace operation" in str(error)
    else:
        raise AssertionError("backward used values changed through .data")


def test_counts_are_forgotten_with_their_memory() -> None:
    gc.collect()  # earlier tests' garbage goes first, so only these 50 come and go below
    before = len(versions.counters)
    tensors = [torch.zeros(3) for _ in range(50)]
    for t in tensors:
        t.add_(1)
    assert len(versions.counters) == before + 50
    del tensors, t
    gc.collect()
    assert len(versions.counters) == before
    fresh = torch.zeros(3)  # may reuse a dead array's id: starts at version 0 all the same
    assert fresh._version == 0


def test_a_node_saves_only_what_its_gradients_use_with_their_versions() -> None:
    # x * 2: only x needs a gradient, which is 2 * grad: the node keeps the 2, not x.
    x = torch.tensor([1.0], requires_grad=True)
    y = x * 2.0
    saved_other, saved_self = y.grad_fn._saved  # (b first, as PyTorch checks them)
    assert saved_self is None
    assert saved_other.version == 0 and saved_other.tensor is not None
    assert saved_other.tensor.tolist() == 2.0


def test_saved_tensors_remember_the_version_they_were_saved_at() -> None:
    a = torch.tensor([0.5, 2.0], requires_grad=True)
    for make, expected in [
        (lambda b: a * b, [1, 0]),  # Mul keeps b (for a's gradient), then a (for b's)
        (lambda b: a.log(), [0]),  # its input
        (lambda b: b.tanh(), [0]),  # its output, a new tensor
        (lambda b: torch.maximum(b, a), [1, 0]),
        (lambda b: b**3, [1]),
    ]:
        b = torch.tensor([1.5, -1.0], requires_grad=True)
        with torch.no_grad():
            b.mul_(1.0)  # b at version 1
        out = make(b)
        assert [s.version for s in out.grad_fn._saved] == expected
        out.sum().backward(retain_graph=True)  # the versions still match: it runs
        with torch.no_grad():
            b.add_(0.0)  # now b is at a newer version
        if 1 in expected:
            with pytest.raises(RuntimeError, match="modified by an inplace operation"):
                out.sum().backward()

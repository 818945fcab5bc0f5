"""Version counts: kept per memory, shared by views, forgotten with the memory."""

from __future__ import annotations

import gc

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


def test_a_graph_holds_numbers_not_counter_objects() -> None:
    # What a node keeps about its saved values is a tuple of ints: nothing for gc to scan.
    x = torch.tensor([1.0], requires_grad=True)
    y = x * 2.0
    gc.collect()
    assert all(isinstance(v, int) for v in y.grad_fn._saved_meta)
    assert not gc.is_tracked(y.grad_fn._saved_meta)


def test_the_saved_value_shortcuts_agree_with_the_search() -> None:
    # _saved_meta skips the search in the usual cases; it must record what the search would.

    a = torch.tensor([0.5, 2.0], requires_grad=True)
    b = torch.tensor([1.5, -1.0], requires_grad=True)
    with torch.no_grad():
        b.mul_(1.0)  # b at version 1, so versions are looked up, not taken as 0
    cases = [
        ((a, b), lambda: a * b),  # two inputs, in order
        ((a,), lambda: a.log()),  # its input
        ((a,), lambda: a.tanh()),  # its output
        ((a, b), lambda: a / b),
        ((b, a), lambda: torch.maximum(b, a)),
        ((a,), lambda: a**3),
    ]
    for inputs, make in cases:
        out = make()
        node = out.grad_fn
        expected = versions._search(node._saved, list(inputs), (out,), True)
        assert node._saved_meta == expected, (node.name(), node._saved_meta, expected)
    assert (a * b).grad_fn._saved_meta[1:] == (0, 0, -1, 1, 1, -2)  # b's version is 1

"""Issue 22: how many Python functions one tiny ``a * b`` runs. Each layer between the operator
and numpy costs a call per op; these pin the counts, so a layer that comes back fails here.

Counted with ``sys.setprofile``: 'call' events (Python functions; numpy's and the builtins'
C calls are 'c_call' events, not counted), around one ``a * b`` of 1-element tensors after a
warm-up, with the graph of the previous product still alive (a leaf's AccumulateGrad and its
saved record exist then, as in a training step), and no array of the process changed in place
(else each saved input also reads its version: one call more, see autograd/versions.py)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import versions
from tests.autograd.tracked import tracked_objects_per_op


@pytest.fixture(autouse=True)
def no_version_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    # as in a fresh process: earlier tests' in-place changes of arrays still alive are counted
    monkeypatch.setattr(versions, "counters", {})


def python_calls(op: Callable[[], Any]) -> list[str]:
    """The Python functions one call of ``op`` runs, besides ``op`` itself."""
    kept = [op() for _ in range(3)]  # warm-up; the results stay alive, as a graph would
    calls: list[str] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            calls.append(f"{frame.f_code.co_name} ({frame.f_code.co_filename})")

    gc.disable()  # (a collection could run a finalizer's Python code in the middle)
    try:
        sys.setprofile(profile)
        kept.append(op())
        sys.setprofile(None)
    finally:
        gc.enable()
    assert calls[0].startswith("<lambda>")
    return calls[1:]  # without op itself


def test_an_unrecorded_product_runs_six_python_functions() -> None:
    a, b = microtorch.tensor([2.0]), microtorch.tensor([3.0])
    calls = python_calls(lambda: a * b)
    # the operator, Function.apply, unpack, call_forward, Mul.forward, plain_tensor
    assert len(calls) <= 6, calls
    assert (a * b).item() == 6.0


def test_a_product_under_no_grad_runs_six_python_functions() -> None:
    a = microtorch.tensor([2.0], requires_grad=True)
    b = microtorch.tensor([3.0], requires_grad=True)
    with microtorch.no_grad():
        calls = python_calls(lambda: a * b)
        assert (a * b).grad_fn is None
    assert len(calls) <= 6, calls


@pytest.mark.parametrize("grad", [(True, True), (True, False)])
def test_a_recorded_product_runs_twelve_python_functions(grad: tuple[bool, bool]) -> None:
    a = microtorch.tensor([2.0], requires_grad=grad[0])
    b = microtorch.tensor([3.0], requires_grad=grad[1])
    calls = python_calls(lambda: a * b)
    # the operator, apply, unpack, new_node, connect, gradient_edges, call_forward, forward,
    # save_for_backward, outputs, op_result, keep_saved
    assert len(calls) <= 12, calls
    y = a * b
    assert y.grad_fn.name() == "MulBackward0"
    y.backward()
    assert a.grad.item() == 3.0


def test_a_product_with_a_number_runs_twelve_python_functions() -> None:
    y = microtorch.tensor([2.0], requires_grad=True) * 1.0
    calls = python_calls(lambda: y * 1.000001)
    assert len(calls) <= 12, calls
    assert (y * 1.000001).grad_fn.next_functions[1] == (None, 0)  # the number: a constant


def test_a_chain_of_products_tracks_three_objects_per_op() -> None:
    # A tensor constant (W1's c): the node, its tuple of edges and its tuple of saved records
    # (c's record is one for all nodes; a chain of a number shares the tuple too, see
    # test_issue22_speed_paths). The results die as the chain goes on, as y = y * c does.
    x = microtorch.tensor([1.0], requires_grad=True)
    c = microtorch.tensor([1.000001])
    per_op, y = tracked_objects_per_op(x * c, lambda y: y * c, 1000)
    assert per_op <= 3.01, per_op
    y.backward()
    assert x.grad.item() == pytest.approx(float(np.float32(1.000001)) ** 4001, rel=1e-4)

"""Writing into an expanded tensor (stride 0: one memory place for many elements), against
torch 2.13: what PyTorch allows (``fill_``, ``zero_``, ``x[i] = v`` at distinct places, and with
a deprecation warning advanced indexing and ``masked_fill_``), what it refuses, and the same
for the stride-0 gradients ``autograd.grad`` returns for a sum."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import microtorch

WRITES: dict[str, Callable[[ModuleType, Any], Any]] = {
    "fill_": lambda L, t: t.fill_(2.0),
    "zero_": lambda L, t: t.zero_(),
    "fill_tensor": lambda L, t: t.fill_(L.tensor(4.0)),
    "add_": lambda L, t: t.add_(1),
    "mul_": lambda L, t: t.mul_(2),
    "iadd": lambda L, t: t.__iadd__(1),
    "copy_": lambda L, t: t.copy_(L.ones(3, 4)),
    "clamp_": lambda L, t: t.clamp_(0, 1),
    "relu_": lambda L, t: t.relu_(),
    "setitem_int": lambda L, t: t.__setitem__(0, 5.0),
    "setitem_int_int": lambda L, t: t.__setitem__((1, 2), 5.0),
    "setitem_row_overlaps": lambda L, t: t.__setitem__((slice(None), 0), 5.0),
    "setitem_slice": lambda L, t: t.__setitem__(slice(0, 2), 5.0),
    "setitem_ellipsis": lambda L, t: t.__setitem__(Ellipsis, 5.0),
    "setitem_list": lambda L, t: t.__setitem__([0, 2], 5.0),
    "setitem_mask": lambda L, t: t.__setitem__(L.tensor([True, False, True]), 6.0),
    "masked_fill_": lambda L, t: t.masked_fill_(L.tensor([[True, False, True, False]]), 3.0),
}


def _outcome(L: ModuleType, name: str) -> tuple[Any, ...]:
    base = L.tensor([[1.0], [2.0], [3.0]])
    t = base.expand(3, 4)  # rows of one place each
    before = t._version
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            WRITES[name](L, t)
            error = None
        except RuntimeError as e:
            error = str(e)
    texts = [str(w.message).split(" (Triggered internally at")[0] for w in caught]
    return error, base.tolist(), t.tolist(), t._version - before, texts, t.stride()


@pytest.mark.parametrize("name", list(WRITES))
def test_a_write_into_an_expanded_tensor_as_in_torch(name: str, torch_module: ModuleType) -> None:
    assert _outcome(microtorch, name) == _outcome(torch_module, name)


GRAD_WRITES: dict[str, Callable[[Any], Any]] = {
    "zero_": lambda g: g.zero_(),
    "fill_": lambda g: g.fill_(-1.0),
    "add_": lambda g: g.add_(1.0),
    "setitem": lambda g: g.__setitem__(0, 3.0),
    "each_element": lambda g: [e.mul_(2.0) for e in g],
}


def _grad_outcome(L: ModuleType, reduce: str, name: str) -> tuple[Any, ...]:
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = getattr(x, reduce)()
    (g,) = L.autograd.grad(out, [x])
    stride = g.stride()
    try:
        GRAD_WRITES[name](g)
        error = None
    except RuntimeError as e:
        error = str(e)
    return stride, error, g.tolist()


@pytest.mark.parametrize("reduce", ["sum", "mean"])
@pytest.mark.parametrize("name", list(GRAD_WRITES))
def test_writing_into_a_gradient_of_a_reduction_as_in_torch(
    reduce: str, name: str, torch_module: ModuleType
) -> None:
    # a sum's gradient is the incoming one expanded (stride 0); a mean's is a new tensor
    assert _grad_outcome(microtorch, reduce, name) == _grad_outcome(torch_module, reduce, name)


def _second_outcome(L: ModuleType, name: str) -> Any:
    # the write into an expanded view of a tensor in the graph, then its gradient recorded
    # (create_graph=True) and differentiated again
    x = L.tensor([[1.0], [2.0], [3.0]], dtype=L.float64, requires_grad=True)
    base = x * 1
    t = base.expand(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            WRITES[name](L, t)
        except RuntimeError as e:
            return "write", str(e)
    out = (t * t * L.arange(12.0, dtype=L.float64).reshape(3, 4)).sum() + (base**3).sum()
    try:
        (g,) = L.autograd.grad(out, x, create_graph=True)
        (h,) = L.autograd.grad((g * g).sum(), x, allow_unused=True)
    except RuntimeError as e:
        return "grad", str(e).splitlines()[0]
    return g.grad_fn.name(), g.tolist(), None if h is None else h.tolist()


@pytest.mark.parametrize("name", list(WRITES))
def test_second_derivative_through_a_write_into_an_expanded_view_as_in_torch(
    name: str, torch_module: ModuleType
) -> None:
    assert _second_outcome(microtorch, name) == _second_outcome(torch_module, name)

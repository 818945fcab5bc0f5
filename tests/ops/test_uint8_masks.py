"""A uint8 tensor as an index is a mask, as in PyTorch 2.13 (which warns that this is
deprecated, from 1-d on), never the integer indices numpy would read it as; writing one number
through a uint8 mask of 1-d or more raises PyTorch's masked_fill_ error."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch

MASKS = ["[1, 0]", "[0, 1]", "[[1, 0], [0, 1]]", "1", "0"]
READS = ["x[m]", "x[0, m] if m.dim() < 2 else x[m]", "x[m, 1] if m.dim() < 2 else x[m]"]
WRITES = ["3.0", "torch.tensor(5.0)", "torch.tensor([5.0, 6.0])", "torch.tensor([[5.0, 6.0]])"]


def _run(lib: ModuleType, mask: str, source: str) -> tuple[Any, ...]:
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    ns = {
        "torch": lib,
        "x": x,
        "m": eval(f"torch.tensor({mask}, dtype=torch.uint8)", {"torch": lib}),
    }  # noqa: S307
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            out = eval(source, ns)  # noqa: S307
        except Exception as error:
            return (type(error).__name__, str(error).split("\n")[0])
    out.sum().backward()
    said = [str(w.message).split(" (Triggered")[0] for w in caught]
    here = [w.filename == __file__ for w in caught]  # (at the student's line, not inside)
    return (out.detach().numpy().tolist(), tuple(out.shape), x.grad.numpy().tolist(), said, here)


@pytest.mark.parametrize("source", READS)
@pytest.mark.parametrize("mask", MASKS)
def test_reading_through_a_uint8_mask_is_torchs(
    mask: str, source: str, torch_module: ModuleType
) -> None:
    assert _run(microtorch, mask, source) == _run(torch_module, mask, source)


@pytest.mark.parametrize("value", WRITES)
@pytest.mark.parametrize("mask", MASKS)
def test_writing_through_a_uint8_mask_is_torchs(
    mask: str, value: str, torch_module: ModuleType
) -> None:
    results = []
    for lib in (microtorch, torch_module):
        y = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        ns = {
            "torch": lib,
            "y": y,
            "m": eval(f"torch.tensor({mask}, dtype=torch.uint8)", {"torch": lib}),
        }  # noqa: S307
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            try:
                exec(f"y[m] = {value}", ns)  # noqa: S102
            except Exception as error:
                results.append((type(error).__name__, str(error).split("\n")[0]))
                continue
        results.append(np.asarray(y.tolist()).tolist())
    assert results[0] == results[1]


@pytest.mark.parametrize(
    ("index", "shape"),
    [("torch.tensor([0])", (1, 1, 2)), ("torch.tensor([[True, False], [False, True]])", (1, 2))],
)
def test_an_advanced_write_drops_the_values_leading_ones_as_torch(
    index: str, shape: tuple[int, ...], torch_module: ModuleType
) -> None:
    results = []
    for lib in (microtorch, torch_module):
        y = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True) * 1
        v = lib.arange(1.0, 3.0).reshape(shape).requires_grad_()
        y[eval(index, {"torch": lib})] = v  # noqa: S307
        (y * lib.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        nodes = [n.name() for n, _ in y.grad_fn.next_functions]
        results.append((y.tolist(), y.grad_fn.name(), nodes, v.grad.tolist()))
    assert results[0] == results[1]

"""Wrong answers a student types get the check cell's own message, never a crash elsewhere.

Each case swaps one solution of a chapter for a plausible mistake, runs the chapter up to and
including that exercise's check cell, and reads the error the check cell shows.
"""

from __future__ import annotations

import re
from types import ModuleType

import nbformat
import pytest

from .loader import load_tool

CHAPTERS = {p.name[:2]: p for p in load_tool("make_exercises").chapters()}

ZERO_GRAD_LAST = """def train_step(model, optimizer, X, y):
    loss = ((model(X) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()"""
NO_ZERO_GRAD = """def train_step(model, optimizer, X, y):
    loss = ((model(X) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
    return loss.item()"""
NEW_DATA = """def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p.data = p.data - lr * p.grad"""
NO_CLONE = """def gradients_of(weight, loss_fns):
    grads = []
    for loss_fn in loss_fns:
        weight.grad = None
        loss_fn().backward()
        grads.append(weight.grad)
    return grads"""

IN_PLACE = """def loss_of(x):
    y = x.exp()
    y *= 2
    return y.sum()"""
ITEM = """def loss_of(x):
    return (2 * x.exp()).sum().item()"""

CASES = {
    "09 in place": ("09", "def loss_of", IN_PLACE, "RuntimeError: one of the variables needed"),
    "09 a number": ("09", "def loss_of", ITEM, "AssertionError: return the loss as a tensor"),
    "05 no clone": ("05", "def gradients_of", NO_CLONE, "loss 2: its gradient is tensor([[0.2000"),
    "06 zero_grad at the end": ("06", "def train_step", ZERO_GRAD_LAST, "first, not last"),
    "06 no zero_grad": ("06", "def train_step", NO_ZERO_GRAD, "at the start of the iteration"),
    "06 p.data = ...": ("06", "def sgd_step", NEW_DATA, "update p in place"),
}


def _check_error(execute_notebooks: ModuleType, chapter: str, starts: str, answer: str) -> str:
    path = CHAPTERS[chapter]
    nb = nbformat.read(path, as_version=4)
    (index,) = [i for i, c in enumerate(nb.cells) if c.source.startswith(starts)]
    check = nb.cells[index + 1]
    assert "exercise-check" in check.metadata.get("tags", [])
    nb.cells = nb.cells[: index + 2]
    nb.cells[index].source = answer
    check.metadata.setdefault("tags", []).append("raises-exception")
    execute_notebooks.execute(nb, path.parent)
    errors = [o for o in check.outputs if o.output_type == "error"]
    assert errors, f"the check cell accepted the wrong answer:\n{answer}"
    return f"{errors[0].ename}: {errors[0].evalue}"


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_wrong_answer_gets_the_check_cells_message(case: str, execute_notebooks: ModuleType):
    chapter, starts, answer, message = CASES[case]
    error = _check_error(execute_notebooks, chapter, starts, answer)
    assert message in error and error.startswith(("AssertionError", "RuntimeError")), error
    assert not re.search(r"\d\.\d{7,}", error), f"float32 noise in the message: {error}"

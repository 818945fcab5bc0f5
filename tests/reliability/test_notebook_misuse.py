"""Notebooks as students use them: out of order, twice, after a restart; no internal error.

Each chapter runs in one real kernel (nbclient): a later cell before the earlier ones, every
cell in order, every cell twice in a row (widget cells and training cells included: a training
cell re-run keeps training the same model), every cell in reverse order, then a kernel restart
in the middle of the chapter and the rest of it. Errors the student causes (a ``NameError`` for
a variable not defined yet) are fine; an *internal* error is one whose traceback ends inside
microtorch on a line that is not a deliberate ``raise``, or in a library microtorch called (a
numpy error leaking out). With teaching warnings on, a training loop that forgets
``zero_grad()`` is told so.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import microtorch as torch

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
from jupyter_core.utils import run_sync  # noqa: E402 - after the skip: comes with nbclient

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PACKAGE = str(Path(torch.__file__).resolve().parent) + os.sep
LIBRARIES = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix})
CHAPTERS = sorted(p for p in NOTEBOOKS.glob("0[124-6]_*.ipynb"))  # whichever exist now
STALE_GRAD = "still hold the gradient of an earlier backward()"

# Run in the kernel after a failing cell: the frames of the exception the student just saw.
FRAMES = (
    "import sys as _s, traceback as _t, json as _j\n"
    "print('@@' + _j.dumps([[f.filename, f.line or ''] for f in _t.extract_tb(_s.last_traceback)"
    "]))"
)


def internal_error(frames: list[list[str]]) -> str | None:
    """Why a traceback is microtorch's fault, or None if it is a deliberate or student error."""
    if not any(f.startswith(PACKAGE) for f, _ in frames):
        return None  # the student's own error, e.g. NameError
    filename, line = frames[-1]
    if filename.startswith(PACKAGE):
        return None if line.lstrip().startswith("raise") else f"ends inside microtorch: {line}"
    if not filename.startswith(LIBRARIES):
        return None  # the student's code, called back by microtorch (a forward, a hook)
    callers = [f for f, _ in frames if f.startswith(PACKAGE) or not f.startswith(LIBRARIES)]
    if callers[-1].startswith(PACKAGE):
        return f"a library error escaped from microtorch at {filename}"
    return None


class Session:
    """One kernel running a chapter's cells in whatever order a student clicks them."""

    def __init__(self, client: Any, nb: Any) -> None:
        self.client, self.nb = client, nb
        self.code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
        self.problems: list[str] = []
        self.errors = 0
        self.stderr = ""

    def run(self, index: int) -> None:
        cell = self.nb.cells[index]
        cell.outputs = []
        self.client.execute_cell(cell, index)
        for out in cell.outputs:
            if out.output_type == "stream" and out.name == "stderr":
                self.stderr += out.text
            if out.output_type == "error":
                self.errors += 1
                why = internal_error(self._frames())
                if why:
                    self.problems.append(f"cell {index}: {out.ename}: {out.evalue} ({why})")

    def run_source(self, source: str) -> str:
        cell = nbformat.v4.new_code_cell(source)
        self.nb.cells.append(cell)  # nbclient stores outputs by index: a scratch cell at the end
        try:
            self.client.execute_cell(cell, len(self.nb.cells) - 1)
        finally:
            self.nb.cells.pop()
        return "".join(o.get("text", "") for o in cell.outputs)

    def _frames(self) -> list[list[str]]:
        text = self.run_source(FRAMES)
        return json.loads(text[text.index("@@") + 2 :])

    def restart(self) -> None:
        run_sync(self.client.km.restart_kernel)(now=True)
        run_sync(self.client.kc.wait_for_ready)(timeout=60)


def _client(nb: Any) -> Any:
    return nbclient.NotebookClient(
        nb,
        timeout=60,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )


@pytest.mark.slow
@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_cells_out_of_order_twice_and_after_a_restart(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = _client(nb)
    with client.setup_kernel():
        s = Session(client, nb)
        code = s.code
        s.run(code[-1])  # a later cell first
        s.run(code[len(code) // 2])
        s.run_source("import microtorch\nmicrotorch.autograd.set_teaching_warnings(True)")
        for i in code:  # top to bottom
            s.run(i)
        for i in code:  # each cell twice in a row: widgets twice, training continues
            s.run(i)
            s.run(i)
        for i in reversed(code):  # every later cell before the earlier ones
            s.run(i)
        s.restart()
        for i in code[len(code) // 2 :]:  # carry on after a restart, setup not re-run
            s.run(i)
    assert s.errors > 0  # the out-of-order runs did fail (NameError), as they should
    assert not s.problems, "\n".join(s.problems)


TRAINING = [
    "import microtorch as torch\n"
    "torch.manual_seed(0)\n"
    "model = torch.nn.Linear(3, 1)\n"
    "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "x, y = torch.randn(8, 3), torch.randn(8, 1)",
    "for step in range(3):  # the mistake: no optimizer.zero_grad()\n"
    "    loss = ((model(x) - y) ** 2).mean()\n"
    "    loss.backward()\n"
    "    optimizer.step()",
    "for step in range(3):\n"
    "    optimizer.zero_grad()\n"
    "    loss = ((model(x) - y) ** 2).mean()\n"
    "    loss.backward()\n"
    "    optimizer.step()",
]


def test_a_training_cell_without_zero_grad_is_told_so_in_a_notebook() -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in TRAINING]
    client = _client(nb)
    with client.setup_kernel():
        s = Session(client, nb)
        s.run(0)
        s.run(1)  # teaching warnings are off by default: PyTorch says nothing either
        assert STALE_GRAD not in s.stderr
        s.run_source("torch.autograd.set_teaching_warnings(True)")
        s.run(2)  # the fixed loop: no warning
        assert STALE_GRAD not in s.stderr
        s.run(1)  # the mistake: the warning names it and the fix
        assert STALE_GRAD in s.stderr and "optimizer.zero_grad()" in s.stderr
    assert not s.problems and s.errors == 0


CELL = "/tmp/ipykernel_1/123.py"  # where ipykernel puts a cell's code
NUMPY = f"{sys.prefix}/lib/python3.11/site-packages/numpy/core/fromnumeric.py"


@pytest.mark.parametrize(
    ("frames", "internal"),
    [
        ([[CELL, "y = undefined_name"]], False),  # the student's NameError
        ([[CELL, "a @ b"], [PACKAGE + "ops/linalg.py", "raise RuntimeError("]], False),
        ([[CELL, "a.view(x)"], [PACKAGE + "ops/shape.py", "new = a._data.shape"]], True),
        ([[CELL, "torch.exp(a)"], [PACKAGE + "ops/unary.py", "np.exp(a)"], [NUMPY, "f()"]], True),
        ([[CELL, "np.exp('a')"], [NUMPY, "f()"]], False),  # numpy called by the student
        ([[CELL, "model(x)"], [PACKAGE + "nn/module.py", "forward(x)"], [CELL, "1 / 0"]], False),
    ],
)
def test_what_counts_as_an_internal_error(frames: list[list[str]], internal: bool) -> None:
    assert (internal_error(frames) is not None) is internal


def test_the_kernel_check_catches_a_leaking_error() -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import microtorch\nmicrotorch.api.shape.contiguous(None)"),
        nbformat.v4.new_code_cell("microtorch.ones(2) @ microtorch.ones(3)"),
    ]
    client = _client(nb)
    with client.setup_kernel():
        s = Session(client, nb)
        s.run(0)  # a private function misused: AttributeError inside microtorch
        s.run(1)  # a deliberate, teaching error
    assert s.errors == 2 and len(s.problems) == 1 and "AttributeError" in s.problems[0]


def _train(zero_grad: bool, set_to_none: bool = True) -> list[Any]:
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    for _ in range(3):
        if zero_grad:
            optimizer.zero_grad(set_to_none=set_to_none)
        ((model(x) - y) ** 2).mean().backward()
        optimizer.step()
    return [p.tolist() for p in model.parameters()]


def test_teaching_warnings_say_so_and_change_nothing() -> None:
    plain = _train(zero_grad=False)
    with (
        pytest.warns(UserWarning, match=STALE_GRAD) as record,
        torch.autograd.set_teaching_warnings(True),
    ):
        taught = _train(zero_grad=False)
    assert taught == plain  # same numbers: the semantics are PyTorch's
    assert record[0].filename == __file__  # points at the student's loss.backward() line
    assert "2 tensor(s) (shapes [1], [1, 3])" in str(record[0].message)
    assert not torch.autograd.is_teaching_warnings_enabled()


@pytest.mark.parametrize("set_to_none", [True, False])
def test_no_teaching_warning_after_zero_grad(set_to_none: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        with torch.autograd.set_teaching_warnings(True):
            _train(zero_grad=True, set_to_none=set_to_none)


def test_teaching_warnings_are_off_by_default() -> None:
    assert not torch.autograd.is_teaching_warnings_enabled()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _train(zero_grad=False)

"""Every warning microtorch gives names the student's line, as PyTorch's do, whatever path led
there (a function, a method, a module's forward, backward(), a keyword wrapper). Each case runs
on torch 2.13 and on microtorch as a program of its own file name; microtorch must warn with
PyTorch's text, at that program's line, never at a file of microtorch's."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import microtorch

PACKAGE = Path(microtorch.__file__).parent

CASES = {
    "std with one element": "torch.ones(1).std()",
    "var along a size-1 dim": "torch.ones(2, 1).var(dim=1)",
    "mse_loss of other shapes": "F.mse_loss(torch.ones(3, 1), torch.ones(3))",
    "MSELoss module": "torch.nn.MSELoss()(torch.ones(3, 1), torch.ones(3))",
    "l1_loss of other shapes": "F.l1_loss(torch.ones(3, 1), torch.ones(3))",
    "grad of a non-leaf": "x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.grad",
    "softmax without dim": "F.softmax(torch.ones(2, 3))",
    "log_softmax without dim": "F.log_softmax(torch.ones(2, 3))",
    "tensor of a tensor": "torch.tensor(torch.ones(2))",
    "new_tensor of a tensor": "torch.ones(2).new_tensor(torch.ones(2))",
    "meshgrid without indexing": "torch.meshgrid(torch.ones(2), torch.ones(3))",
    "out= of another shape": "o = torch.ones(3)\ntorch.add(torch.ones(2), 1, out=o)",
    "init of an empty tensor": "torch.nn.init.kaiming_uniform_(torch.empty(0, 3))",
    "dropout2d of 3-d input": "F.dropout2d(torch.ones(2, 3, 4))",
    "uint8 mask": "torch.ones(3)[torch.tensor([1, 0, 1], dtype=torch.uint8)]",
    "set_float32_matmul_precision": "torch.set_float32_matmul_precision('fastest')",
    "register_backward_hook": (
        "m = torch.nn.Linear(2, 2)\n"
        "h = m.register_backward_hook(lambda *a: None)\n"
        "m(torch.ones(1, 2, requires_grad=True)).sum().backward()"
    ),
    "softmin without dim": "F.softmin(torch.ones(2, 3))",
    "Softmax module without dim": "torch.nn.Softmax()(torch.ones(2, 3))",
    "gumbel_softmax eps": "F.gumbel_softmax(torch.ones(2, 3), eps=1e-3)",
}


def _run(lib: ModuleType, source: str) -> list[Any]:
    namespace = {"torch": lib, "F": lib.nn.functional}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(compile(source, "<student>", "exec"), namespace)  # noqa: S102
    return [w for w in caught if not issubclass(w.category, (RuntimeWarning, ResourceWarning))]


def _first_line(text: str) -> str:
    text = str(text).split("\n")[0].split(" (Triggered internally at")[0]
    return re.sub(r"\bmicrotorch\.", "torch.", text)


@pytest.mark.parametrize("source", list(CASES.values()), ids=list(CASES))
def test_microtorch_warns_as_pytorch_at_the_students_line(
    source: str, torch_module: ModuleType
) -> None:
    theirs, ours = _run(torch_module, source), _run(microtorch, source)
    assert theirs, "the case must make PyTorch warn"
    assert [w.category for w in ours] == [w.category for w in theirs]
    for t, m in zip(theirs, ours):
        assert _first_line(m.message).startswith(_first_line(t.message))
    assert [w.filename for w in ours] == ["<student>"] * len(ours)


def test_microtorch_warns_only_through_its_helper() -> None:
    # a fixed stacklevel is right for one call path only: every warning goes through warn()
    direct = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "_warn.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if "warnings.warn(" in line
    ]
    assert direct == [], "use microtorch._warn.warn: " + ", ".join(direct)


def test_warnings_given_once_per_process_name_the_students_line_too() -> None:
    # (once per process in both libraries, so in a fresh one: the first call warns)
    source = "import microtorch as torch\ntorch.ones(2, 3, 4).T\ntorch.ones(2).storage()\n"
    shown = subprocess.run(
        [sys.executable, "-W", "always", "-c", source], capture_output=True, text=True, check=True
    ).stderr
    places = re.findall(r"^(\S+):(\d+): UserWarning: (\S+ \S+)", shown, re.M)
    assert places == [
        ("<string>", "2", "The use"),  # of `x.T` on tensors of dimension other than 2
        ("<string>", "3", "TypedStorage is"),
    ], shown

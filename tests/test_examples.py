"""The seed chapter's program (examples/pytorch_autograd_demo.py) on microtorch.

It is the chapter's ``pytorch_autograd_demo.py`` with only its two import lines changed. The
tests run it and check what the chapter says it shows: the autograd gradient is the
hand-derived [7, 2], the loss falls over 2,000 steps, and without ``zero_grad()`` the
accumulated gradients make each update larger than the last.
"""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.optim import SGD

DEMO = Path(__file__).resolve().parents[1] / "examples" / "pytorch_autograd_demo.py"
IMPORTS = (
    "import microtorch as torch\nimport microtorch.nn as nn\n",
    "import torch\nimport torch.nn as nn\n",
)


def test_only_the_imports_differ_from_the_seed_program() -> None:
    source = DEMO.read_text()
    assert source.startswith(IMPORTS[0])
    assert "microtorch" not in source[len(IMPORTS[0]) :]  # the rest is the chapter's code


@pytest.fixture(scope="module")
def demo_run() -> tuple[dict[str, Any], list[list[float]], str]:
    """Run the program once, recording the size of every SGD update; its globals and output."""
    updates: list[list[float]] = []
    original = SGD.step

    def recording_step(self: SGD, closure: Any = None) -> Any:
        before = [p._data.copy() for g in self.param_groups for p in g["params"]]
        result = original(self, closure)
        after = [p._data for g in self.param_groups for p in g["params"]]
        size = float(np.sqrt(sum(((a - b) ** 2).sum() for a, b in zip(after, before))))
        if not updates or updates[-1][0] != id(self):
            updates.append([id(self)])
        updates[-1].append(size)
        return result

    out = StringIO()
    SGD.step = recording_step  # type: ignore[method-assign]
    try:
        with redirect_stdout(out):
            namespace = runpy.run_path(str(DEMO), run_name="__main__")
    finally:
        SGD.step = original  # type: ignore[method-assign]
    return namespace, [u[1:] for u in updates], out.getvalue()


def test_autograd_gradient_is_the_hand_derived_one(demo_run) -> None:
    namespace, _, output = demo_run
    assert namespace["x"].grad.tolist() == [7.0, 2.0]
    assert "autograd gradient: tensor([7., 2.])" in output
    assert "hand-derived gradient: tensor([7., 2.])" in output


def test_the_loss_falls_over_2000_steps(demo_run) -> None:
    namespace, updates, output = demo_run
    printed = [float(v) for v in re.findall(r"step \d+: loss=([0-9.]+)", output)]
    net, X, y = namespace["net"], namespace["X"], namespace["y_target"]
    with microtorch.no_grad():
        final = ((net(X) - y) ** 2).mean().item()
    assert len(printed) == 2 and printed[1] < printed[0] / 5 and final < printed[1]
    assert len(updates[0]) == 2000


def test_without_zero_grad_the_effective_update_grows(demo_run) -> None:
    namespace, updates, output = demo_run
    proper, accumulating = updates
    assert len(accumulating) == 50
    # with zero_grad() every update has about the same size; without it they keep growing
    assert max(proper[:50]) < 1.5 * min(proper[:50])
    assert accumulating[-1] > 4 * accumulating[0]
    assert np.mean(accumulating[-10:]) > 2 * np.mean(accumulating[:10])
    # the gradient left in .grad is the sum of all 50 steps' gradients, far above one step's
    net2, X, y = namespace["net2"], namespace["X"], namespace["y_target"]
    accumulated = [p.grad.numpy().copy() for p in net2.parameters()]
    net2.zero_grad()
    ((net2(X) - y) ** 2).mean().backward()
    fresh = [p.grad.numpy() for p in net2.parameters()]
    norm = lambda gs: np.sqrt(sum((g**2).sum() for g in gs))  # noqa: E731
    assert norm(accumulated) > 5 * norm(fresh)
    assert "without zero_grad(), loss over first 5 steps:" in output


def _run(*args: str) -> str:
    env = dict(os.environ, OMP_NUM_THREADS="1")  # one thread: no contention on small CI boxes
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, check=True, env=env
    )
    return done.stdout


@pytest.fixture(scope="module")
def script_output() -> str:
    """What ``python examples/pytorch_autograd_demo.py`` prints."""
    return _run(str(DEMO))


def test_it_runs_as_a_script(script_output: str) -> None:
    assert script_output.splitlines()[0] == "autograd gradient: tensor([7., 2.])"
    assert len(script_output.splitlines()) == 7


def test_the_seed_program_prints_the_same_lines_on_torch(
    torch_module: ModuleType, script_output: str
) -> None:
    seed = DEMO.read_text().replace(IMPORTS[0], IMPORTS[1], 1)
    out = StringIO()
    with redirect_stdout(out):  # in this process: torch is already imported and single-threaded
        exec(compile(seed, "pytorch_autograd_demo.py", "exec"), {"__name__": "__main__"})
    theirs = out.getvalue()
    pattern = re.compile(r"[0-9]+\.[0-9]+")
    shape = lambda text: [pattern.sub("#", line) for line in text.splitlines()]  # noqa: E731
    assert shape(script_output) == shape(theirs)
    assert theirs.splitlines()[:2] == script_output.splitlines()[:2]

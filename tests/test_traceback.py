"""microtorch/_traceback.py: in a real IPython kernel an error shows the student's lines only.

The cells run in a fresh ipykernel of this Python (tools/execute_notebooks.py, as the chapters
are executed), and the traceback the kernel sends, the one JupyterLab displays, is read.
"""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import microtorch
from microtorch import _traceback

PACKAGE_DIR = str(Path(microtorch.__file__).resolve().parent)
ANSI = re.compile(r"\x1b\[[0-9;]*m")

SETUP = "import sys\nimport microtorch as torch\nfrom microtorch import nn"
# Errors raised on purpose, from each layer: creation, Tensor, ops, autograd, nn, optim,
# testing, viz; two pass through the student's own functions, which must stay visible.
ERRORS = {
    "creation": "torch.tensor([1, 2], requires_grad=True)",
    "tensor": "torch.ones(2, 3).view(5)",
    "ops": "torch.ones(2, 3) @ torch.ones(2, 3)",
    "autograd": (
        "w = torch.ones(2, requires_grad=True)\nloss = (w * w).sum()\nloss.backward()\n"
        "loss.backward()"
    ),
    "nn": "nn.Linear(3, 2)(torch.ones(4))",
    "optim": "torch.optim.SGD([], lr=0.1)",
    "testing": "torch.testing.assert_close(torch.ones(2), torch.zeros(2))",
    "viz": "from microtorch.viz import draw\ndraw(3)",
    "own function": "def reshape(x):\n    return x.view(5)\n\nreshape(torch.ones(2, 3))",
    "own forward": (
        "class Net(nn.Module):\n    def forward(self, x):\n        return x @ torch.ones(3, 3)\n\n"
        "Net()(torch.ones(2))"
    ),
}
OWN_FRAMES = {"own function": "in reshape(x)", "own forward": "in Net.forward(self, x)"}


def _run(cells: list[str]) -> list[dict[str, object]]:
    """Run ``cells`` in a fresh kernel; each cell's error output (or None), text without colour."""
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    from tests.notebooks.loader import load_tool

    execute_notebooks = load_tool("execute_notebooks")
    nb = nbformat.v4.new_notebook()
    for source in cells:
        cell = nbformat.v4.new_code_cell(source)
        cell.metadata["tags"] = ["raises-exception"]
        nb.cells.append(cell)
    execute_notebooks.execute(nb, Path.cwd())
    errors = []
    for cell in nb.cells:
        out = [o for o in cell.outputs if o.output_type == "error"]
        streams = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        errors.append(
            {
                "traceback": ANSI.sub("", "\n".join(out[0].traceback)) if out else None,
                "evalue": out[0].evalue if out else None,
                "stdout": streams,
            }
        )
    return errors


@pytest.fixture(scope="module")
def kernel_errors() -> dict[str, dict[str, object]]:
    names = sorted(ERRORS)
    cells = [SETUP, *(ERRORS[n] for n in names)]
    cells += [
        # post-mortem tools still get every frame
        "print(any('microtorch' in f.f_code.co_filename for f, _ in "
        "__import__('traceback').walk_tb(sys.last_traceback)))",
        "%xmode --show",
        ERRORS["creation"],
    ]
    results = _run(cells)
    assert results[0]["traceback"] is None, results[0]["traceback"]
    named = dict(zip(names, results[1:]))
    named["last_traceback"], _, named["shown"] = results[-3:]
    return named


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_the_kernel_shows_no_microtorch_frame(case: str, kernel_errors):
    error = kernel_errors[case]
    text = error["traceback"]
    assert text is not None, f"{case}: no error was raised"
    assert PACKAGE_DIR not in text and "microtorch/" not in text, text
    assert "skipping hidden" not in text, text
    last_line = ERRORS[case].splitlines()[-1]
    assert re.search(r"Cell In\[\d+\], line \d+", text) and last_line in text, text
    assert text.rstrip().endswith(str(error["evalue"]).rstrip().splitlines()[-1]), text
    if case in OWN_FRAMES:
        assert OWN_FRAMES[case] in text, f"the student's own frame went missing:\n{text}"


def test_post_mortem_tools_and_xmode_show_still_see_every_frame(kernel_errors):
    assert kernel_errors["last_traceback"]["stdout"].strip() == "True"
    shown = kernel_errors["shown"]["traceback"]
    assert shown is not None and f"{PACKAGE_DIR}{'/'}creation.py" in shown, shown


def test_every_module_of_the_package_is_hidden_by_its_name():
    # No module needs a marker of its own, so none can forget it: the rule is the name.
    import pkgutil

    names = [m.name for m in pkgutil.walk_packages(microtorch.__path__, "microtorch.")]
    assert len(names) > 50
    for name in ["microtorch", *names]:
        code = compile("import sys\nframe = sys._getframe()", f"<{name}>", "exec")
        namespace = {"__name__": name}
        exec(code, namespace)
        assert _traceback.is_library_frame(namespace["frame"]), name
    outside = {"__name__": "microtorch_student"}
    exec(compile("import sys\nframe = sys._getframe()", "<x>", "exec"), outside)
    assert not _traceback.is_library_frame(outside["frame"])


def test_the_trimmed_traceback_keeps_other_frames_and_leaves_the_original():
    def students_code():
        microtorch.ones(2, 3).view(5)

    try:
        students_code()
    except RuntimeError as error:
        tb = error.__traceback__
    frames = [t.tb_frame.f_code.co_name for t in _walk(tb)]
    kept = [t.tb_frame.f_code.co_name for t in _walk(_traceback.without_library_frames(tb))]
    assert kept == ["test_the_trimmed_traceback_keeps_other_frames_and_leaves_the_original",
                    "students_code"]  # fmt: skip
    assert len(frames) > len(kept)  # microtorch's frames were there, and still are
    assert frames == [t.tb_frame.f_code.co_name for t in _walk(tb)]


def _walk(tb: types.TracebackType | None) -> list[types.TracebackType]:
    entries = []
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    return entries


def test_outside_ipython_nothing_is_installed():
    code = "import sys, microtorch; print('IPython' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"  # importing microtorch does not import IPython
    assert _traceback.hide_frames_in_ipython() is False  # pytest is no IPython shell


def test_full_tracebacks_on_request(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MICROTORCH_FULL_TRACEBACKS", "1")  # the kernel inherits it
    (_, error) = _run([SETUP, ERRORS["creation"]])
    assert f"{PACKAGE_DIR}/creation.py" in error["traceback"], error["traceback"]

"""Every chapter runs on real PyTorch: what students learn transfers unchanged.

The setup cell's ``import microtorch as torch`` becomes ``import torch``; cells tagged
``microtorch-only`` (drawings, widgets, microtorch's own source) are left out; every other cell
and assert must pass, and every cell that shows an error must raise the same exception type.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import nbformat
import pytest

from .loader import load_tool

CHAPTERS = load_tool("make_exercises").chapters()
SETUP_IMPORT = "import microtorch as torch"


def for_pytorch(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` that imports PyTorch, without its microtorch-only cells."""
    nb = nbformat.from_dict(nb)
    nb.cells = [c for c in nb.cells if "microtorch-only" not in c.metadata.get("tags", [])]
    code = [c for c in nb.cells if c.cell_type == "code"]
    lines = code[0].source.splitlines()
    assert lines.count(SETUP_IMPORT) == 1, f"the setup cell must contain {SETUP_IMPORT!r}"
    code[0].source = "\n".join("import torch" if line == SETUP_IMPORT else line for line in lines)
    for cell in code:
        assert "microtorch" not in cell.source, (
            f"tag this cell microtorch-only, or write it in PyTorch's terms:\n{cell.source}"
        )
    return nb


def error_names(cell: nbformat.NotebookNode) -> list[str]:
    return [o.ename for o in cell.outputs if o.output_type == "error"]


@pytest.mark.torch
@pytest.mark.slow
@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_runs_on_pytorch(path: Path, torch_module: ModuleType, execute_notebooks):
    chapter = nbformat.read(path, as_version=4)
    nb = for_pytorch(chapter)
    # Raises CellExecutionError, with the cell and PyTorch's traceback, if an untagged cell fails.
    execute_notebooks.execute(nb, path.parent)
    assert (
        "running on torch"
        in nb.cells[[c.cell_type for c in nb.cells].index("code")].outputs[0].text
    )
    expected = {c.id: error_names(c) for c in chapter.cells if c.cell_type == "code"}
    for cell in nb.cells:
        if "raises-exception" in cell.metadata.get("tags", []):
            assert error_names(cell) == expected[cell.id], f"PyTorch differs here:\n{cell.source}"

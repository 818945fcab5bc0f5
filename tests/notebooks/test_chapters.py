"""The committed chapters: executed and clean, built to the house layout, exercises up to date."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

from .loader import load_tool

CHAPTERS = load_tool("make_exercises").chapters()
EXERCISES = sorted((CHAPTERS[0].parent / "exercises").glob("*.ipynb")) if CHAPTERS else []
SETUP_IMPORT = "import microtorch as torch"


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def code_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [c for c in nb.cells if c.cell_type == "code"]


def test_there_are_chapters():
    assert [p.name for p in CHAPTERS[:3]] == [
        "00_welcome.ipynb",
        "01_tensors.ipynb",
        "02_requires_grad_and_grad_fn.ipynb",
    ]


def test_exercise_versions_are_up_to_date(make_exercises: ModuleType):
    problems = make_exercises.stale()
    assert problems == [], "\n".join([*problems, "run: .venv/bin/python tools/make_exercises.py"])


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_committed_executed_top_to_bottom_and_clean(path: Path):
    # nbval compares nothing for a cell without an execution count, so an unexecuted chapter
    # would pass it silently: hence this test. Fix: .venv/bin/python tools/execute_notebooks.py
    nb = read(path)
    counts = [c.execution_count for c in code_cells(nb)]
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: re-execute it"
    assert "widgets" not in nb.metadata and "version" not in nb.metadata.language_info
    for cell in nb.cells:
        assert "execution" not in cell.metadata, f"{path.name}: timing metadata left in"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_layout_title_setup_summary(path: Path):
    nb = read(path)
    title = nb.cells[0].source
    number = path.name[:2]
    assert re.match(rf"# {number}[a-z]?\b", title), f"{path.name}: a '# {number} ...' title first"
    for part in ("You will", "**Prerequisites:**", "**Time:**"):
        assert part in title, f"{path.name}: the title cell needs {part!r}"
    assert 2 <= title.count("\n- ") <= 4, f"{path.name}: 2-4 'you will' bullets"
    setup = code_cells(nb)[0].source
    assert SETUP_IMPORT in setup.splitlines() and "torch.manual_seed(" in setup
    assert not any(SETUP_IMPORT in c.source for c in code_cells(nb)[1:]), "one setup cell"
    (summary,) = [c.source for c in nb.cells if c.source.startswith("## Summary")]
    assert 3 <= summary.count("\n- ") <= 5, f"{path.name}: 3-5 summary bullets"


@pytest.mark.parametrize("path", [p for p in CHAPTERS if p.name >= "01"], ids=lambda p: p.name)
def test_two_exercises_with_hints_and_check_cells(path: Path):
    cells = read(path).cells
    checks = [i for i, c in enumerate(cells) if "exercise-check" in c.metadata.get("tags", [])]
    assert len(checks) >= 2, f"{path.name}: at least two exercises with check cells"
    for i in checks:
        assert "### BEGIN SOLUTION" in cells[i - 1].source, "a check cell follows its solution"
    hints = [
        c for c in cells if c.cell_type == "markdown" and "<summary>Hint</summary>" in c.source
    ]
    assert len(hints) >= len(checks), f"{path.name}: a hint for every exercise"


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.name)
def test_every_check_cell_fails_on_the_unfinished_exercise(
    path: Path, execute_notebooks: ModuleType
):
    # The student version must run (errors only where tagged) and no check may pass on a stub.
    nb = read(path)
    execute_notebooks.execute(nb, path.parent)
    checks = [c for c in nb.cells if "exercise-check" in c.metadata.get("tags", [])]
    assert checks
    for cell in checks:
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert [e.ename for e in errors] == ["NotImplementedError"], cell.source


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_the_index_lists_the_chapter_with_its_time(path: Path):
    time = re.search(r"\*\*Time:\*\* (about \d+ minutes)", read(path).cells[0].source)
    assert time, f"{path.name}: the title cell should say **Time:** about N minutes"
    index = (path.parent / "README.md").read_text(encoding="utf-8")
    line = next((x for x in index.splitlines() if f"]({path.name})" in x), None)
    assert line is not None, f"notebooks/README.md needs a line linking {path.name}"
    assert line.rstrip(" |").endswith(time.group(1)), f"the index should say {time.group(1)}"

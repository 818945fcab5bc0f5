"""tools/make_exercises.py: stubs, tags, cleared outputs, links, and stale-file detection."""

from __future__ import annotations

import copy
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

SOLUTION_FN = '''def double(t):
    """2 * t."""
    ### BEGIN SOLUTION
    result = 2 * t
    return result
    ### END SOLUTION'''
SOLUTION_TOP = "### BEGIN SOLUTION\nanswer = 42\n### END SOLUTION\nprint(answer)"
CHECK = 'assert double(3) == 6, "double(3) should be 6"\nprint("correct!")'


def code(source: str, tags: list[str] | None = None, text: str = "") -> nbformat.NotebookNode:
    """An executed code cell, printing ``text``."""
    cell = nbformat.v4.new_code_cell(source, execution_count=1)
    if text:
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
    if tags:
        cell.metadata["tags"] = tags
    return cell


def chapter(*cells: nbformat.NotebookNode) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 99 · Title"), *cells]
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
    return nb


def test_a_solution_in_a_function_becomes_one_stub_at_its_indentation(make_exercises: ModuleType):
    nb = make_exercises.make_exercise(chapter(code(SOLUTION_FN, text="ran\n")))
    cell = nb.cells[2]  # after the title and the inserted note
    assert cell.source == (
        'def double(t):\n    """2 * t."""\n'
        f"    raise NotImplementedError({make_exercises.STUB_MESSAGE!r})"
    )
    # Defining the function raises nothing, so the cell is not tagged; it just looks unrun.
    assert cell.outputs == [] and cell.execution_count is None
    assert "raises-exception" not in cell.metadata.get("tags", [])


def test_a_top_level_stub_is_tagged_raises_exception(make_exercises: ModuleType):
    nb = make_exercises.make_exercise(chapter(code(SOLUTION_TOP, text="42\n")))
    cell = nb.cells[2]
    assert cell.source.splitlines() == [
        f"raise NotImplementedError({make_exercises.STUB_MESSAGE!r})",
        "print(answer)",
    ]
    assert cell.metadata["tags"] == ["raises-exception"]
    assert cell.outputs == [] and cell.execution_count is None


def test_check_cells_are_tagged_and_cleared_and_other_cells_kept(make_exercises: ModuleType):
    lesson = code("x = 1\nx", text="1\n")
    check = code(CHECK, tags=["exercise-check"], text="correct!\n")
    original = chapter(lesson, code(SOLUTION_FN), check)
    before = copy.deepcopy(original)
    nb = make_exercises.make_exercise(original)
    assert original == before, "the chapter itself must not change"
    assert nb.cells[2] == lesson, "a cell without solutions keeps its source and outputs"
    assert nb.cells[4].metadata["tags"] == ["exercise-check", "raises-exception"]
    assert nb.cells[4].outputs == [] and nb.cells[4].execution_count is None
    assert nb.cells[4].source == CHECK


def test_a_note_for_students_follows_the_title(make_exercises: ModuleType):
    nb = make_exercises.make_exercise(chapter(code(SOLUTION_FN)))
    assert nb.cells[0].source == "# 99 · Title"
    assert nb.cells[1].cell_type == "markdown" and "Exercise version" in nb.cells[1].source
    assert nb.cells[1].id == "exercise-version-note"


@pytest.mark.parametrize(
    ("source", "complaint"),
    [
        ("### BEGIN SOLUTION\nx = 1", "never closed"),
        ("x = 1\n### END SOLUTION", "without"),
        ("### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION", "inside another"),
    ],
)
def test_unbalanced_markers_name_the_cell(make_exercises: ModuleType, source: str, complaint: str):
    with pytest.raises(ValueError, match=f"ch.ipynb, cell 1.*{complaint}"):
        make_exercises.make_exercise(chapter(code(source)), "ch.ipynb")


def test_solution_markers_in_markdown_are_an_error(make_exercises: ModuleType):
    nb = chapter(nbformat.v4.new_markdown_cell("### BEGIN SOLUTION\nprose\n### END SOLUTION"))
    with pytest.raises(ValueError, match="markdown"):
        make_exercises.make_exercise(nb)


def test_relative_links_still_work_from_the_exercises_folder(make_exercises: ModuleType):
    text = (
        "[index](README.md) [next](01_tensors.ipynb#summary) [these](exercises/) "
        "[one](exercises/02_x.ipynb) [web](https://pytorch.org) [here](#exercises)"
    )
    assert make_exercises.relink(text) == (
        "[index](../README.md) [next](01_tensors.ipynb#summary) [these](./) "
        "[one](02_x.ipynb) [web](https://pytorch.org) [here](#exercises)"
    )


def test_generate_then_stale_reports_every_kind_of_drift(
    make_exercises: ModuleType, tmp_path: Path
):
    nbformat.write(chapter(code(SOLUTION_FN), code(CHECK)), tmp_path / "01_a.ipynb")
    nbformat.write(chapter(code("x = 1")), tmp_path / "02_b.ipynb")  # no solutions
    make_exercises.generate(tmp_path)
    exercise = tmp_path / "exercises" / "01_a.ipynb"
    assert sorted(p.name for p in (tmp_path / "exercises").iterdir()) == ["01_a.ipynb"]
    assert make_exercises.stale(tmp_path) == []

    nbformat.write(chapter(code(SOLUTION_FN + "\n# edited")), tmp_path / "01_a.ipynb")
    (tmp_path / "exercises" / "09_orphan.ipynb").write_text("{}")
    assert make_exercises.stale(tmp_path) == [
        f"{exercise} is out of date",
        f"{tmp_path / 'exercises' / '09_orphan.ipynb'} has no chapter with solutions",
    ]
    exercise.unlink()
    assert f"{exercise} is missing" in make_exercises.stale(tmp_path)

    make_exercises.generate(tmp_path)
    assert make_exercises.stale(tmp_path) == []
    assert not (tmp_path / "exercises" / "09_orphan.ipynb").exists()


def test_check_mode_exits_nonzero_when_stale(make_exercises: ModuleType, tmp_path: Path, capsys):
    nbformat.write(chapter(code(SOLUTION_FN)), tmp_path / "01_a.ipynb")
    folder = ["--notebooks", str(tmp_path)]
    assert make_exercises.main(["--check", *folder]) == 1
    assert "is missing" in capsys.readouterr().out
    assert make_exercises.main(folder) == 0
    assert make_exercises.main(["--check", *folder]) == 0


def test_the_student_version_runs_and_its_check_cell_fails_on_the_stub(
    make_exercises: ModuleType, execute_notebooks: ModuleType, tmp_path: Path
):
    nb = make_exercises.make_exercise(
        chapter(code(SOLUTION_FN), code(CHECK, tags=["exercise-check"]), code("print('after')"))
    )
    execute_notebooks.execute(nb, tmp_path)  # errors are allowed in tagged cells only
    (error,) = nb.cells[3].outputs
    assert error.output_type == "error" and error.ename == "NotImplementedError"
    assert error.evalue == make_exercises.STUB_MESSAGE
    assert nb.cells[4].outputs[0].text == "after\n", "cells after a failed check still run"

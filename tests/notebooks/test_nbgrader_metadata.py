"""tools/nbgrader_metadata.py: which cells become answers, tests and read-only cells."""

from __future__ import annotations

import nbformat
import pytest

from .loader import load_tool

tool = load_tool("nbgrader_metadata")


def lesson() -> nbformat.NotebookNode:
    cells = [
        nbformat.v4.new_markdown_cell("# 99 · Title"),
        nbformat.v4.new_code_cell("import microtorch as torch\ntorch.manual_seed(0)"),
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_markdown_cell("## Exercises\n\n### Exercise 1"),
        nbformat.v4.new_code_cell("### BEGIN SOLUTION\na = 1\n### END SOLUTION"),
        nbformat.v4.new_code_cell("assert a == 1", metadata={"tags": ["exercise-check"]}),
        nbformat.v4.new_markdown_cell("### Exercise 2"),
        nbformat.v4.new_code_cell(
            "def f():\n    ### BEGIN SOLUTION\n    return 2\n    ### END SOLUTION"
        ),
        nbformat.v4.new_code_cell("### BEGIN SOLUTION\ng = f\n### END SOLUTION"),
        nbformat.v4.new_code_cell("assert g() == 2", metadata={"tags": ["exercise-check"]}),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    for i, cell in enumerate(nb.cells):
        cell.id = f"c{i}"
    return nb


def roles(nb: nbformat.NotebookNode) -> list[tuple[str, bool, bool, bool, object]]:
    out = []
    for cell in nb.cells:
        m = cell.metadata.get("nbgrader")
        if m is None:
            out.append(("-", False, False, False, None))
        else:
            out.append((m["grade_id"], m["solution"], m["grade"], m["locked"], m.get("points")))
    return out


def test_answers_tests_and_read_only_cells():
    assert roles(tool.with_metadata(lesson())) == [
        ("-", False, False, False, None),  # the title: students may annotate it
        ("setup-c1", False, False, True, None),
        ("-", False, False, False, None),  # lesson code stays editable
        ("instructions-c3", False, False, True, None),
        ("exercise-1", True, False, False, None),
        ("exercise-1-check", False, True, True, 1),
        ("instructions-c6", False, False, True, None),
        ("exercise-2", True, False, False, None),
        ("exercise-2-part-2", True, False, False, None),
        ("exercise-2-check", False, True, True, 1),
    ]


def test_the_exercises_heading_may_end_the_summary_cell():
    nb = lesson()
    nb.cells[2] = nbformat.v4.new_markdown_cell("## Summary\n\n- one\n\n## Exercises")
    nb.cells[2].id = "c2"
    nb.cells[3].source = "### Exercise 1"
    assert [r[0] for r in roles(tool.with_metadata(nb))][2:4] == [
        "instructions-c2",
        "instructions-c3",
    ]


def test_running_it_again_changes_nothing_and_keeps_an_instructors_points():
    once = tool.with_metadata(lesson())
    once.cells[5].metadata.nbgrader.points = 3
    twice = tool.with_metadata(once)
    assert twice == once and twice.cells[5].metadata.nbgrader.points == 3


def test_a_removed_exercise_loses_its_metadata():
    nb = tool.with_metadata(lesson())
    nb.cells[4].source = "a = 1"  # no longer a solution, and exercise 1 has no answer now
    with pytest.raises(ValueError, match="cell 5: a check cell with no solution"):
        tool.with_metadata(nb)
    nb.cells = nb.cells[:3]
    assert [c.metadata.get("nbgrader") for c in tool.with_metadata(nb).cells] == [None] * 3


def test_the_metadata_is_valid_for_nbgrader():
    nbgraderformat = pytest.importorskip("nbgrader.nbgraderformat")
    # Raises ValidationError on a missing grade_id, points, or a wrong schema version.
    nbgraderformat.MetadataValidator().validate_nb(tool.with_metadata(lesson()))


def test_the_chapters_metadata_is_up_to_date():
    assert tool.stale() == [], "run .venv/bin/python tools/nbgrader_metadata.py (make notebooks)"


def test_the_exercise_versions_carry_the_same_metadata():
    # (they once carried none: nbgrader then graded a student's exercise file 0, silently, and
    # Validate passed it untouched; issue 25)
    chapter = tool.with_metadata(lesson())
    exercise = load_tool("make_exercises").make_exercise(chapter)
    want = {c.id: c.metadata["nbgrader"] for c in chapter.cells if "nbgrader" in c.metadata}
    got = {c.id: c.metadata["nbgrader"] for c in exercise.cells if "nbgrader" in c.metadata}
    assert got == want and any(m["grade"] for m in want.values())

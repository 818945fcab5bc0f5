"""Real nbgrader hands out every chapter and grades three students' submissions.

The course directory is the one docs/instructors.md describes: each chapter is an assignment
in ``source/<chapter>/``, chapter 10 with its ``data/`` folder. ``nbgrader generate_assignment``
makes the student versions; then

- alice hands in the release with every solution filled in (the chapters' own): full marks;
- bob hands in the release untouched (nbgrader's stubs): no points, and every other cell still
  runs as in the chapter;
- carol hands in chapter 04 with only exercise 1 done: exercise 1's points and nothing else.

Every submission is graded by ``nbgrader autograde``, which re-runs each notebook in a kernel.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.loader import load_tool

from .conftest import ROOT, isolated_env, require

make_exercises = load_tool("make_exercises")
ASSIGNMENTS = [
    p for p in make_exercises.chapters() if make_exercises.has_solutions(nbformat.read(p, 4))
]
ONE_RIGHT = "04_chain_rule_and_backward"
CONFIG = (ROOT / "docs" / "nbgrader_config.py").read_text(encoding="utf-8")

pytestmark = pytest.mark.slow


def nbgrader_meta(cell: nbformat.NotebookNode) -> dict:
    return cell.metadata.get("nbgrader", {})


def points(path: Path) -> dict[str, float]:
    """grade_id -> points of each autograded test cell of a chapter."""
    nb = nbformat.read(path, as_version=4)
    return {m["grade_id"]: m["points"] for m in map(nbgrader_meta, nb.cells) if m.get("grade")}


def solutions(path: Path) -> dict[str, str]:
    """grade_id -> source of each solution cell of a chapter."""
    nb = nbformat.read(path, as_version=4)
    answers = [c for c in nb.cells if nbgrader_meta(c).get("solution")]
    return {nbgrader_meta(c)["grade_id"]: c.source for c in answers}


def hand_in(release: Path, to: Path, answers: dict[str, str]) -> None:
    """Copy a released notebook to ``to``, with the solution cells named in ``answers`` filled."""
    nb = nbformat.read(release, as_version=4)
    for cell in nb.cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if nbgrader_meta(cell).get("solution") and grade_id in answers:
            cell.source = answers[grade_id]
    to.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, to)


def nbgrader(course: Path, *args: str) -> None:
    program = require("nbgrader", "MICROTORCH_REQUIRE_NBGRADER", "make venv installs it")
    run = subprocess.run(
        [program, *args], cwd=course, env=isolated_env(course), capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{run.stdout}\n{run.stderr}"


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A course directory with every chapter released and three students' work autograded."""
    require("nbgrader", "MICROTORCH_REQUIRE_NBGRADER", "make venv installs it")
    root = tmp_path_factory.mktemp("course")
    (root / "nbgrader_config.py").write_text(CONFIG, encoding="utf-8")
    for chapter in ASSIGNMENTS:
        (root / "source" / chapter.stem).mkdir(parents=True)
        shutil.copy(chapter, root / "source" / chapter.stem)
    # (chapter 10 reads its corpus from the installed package course_data: nothing to copy)
    nbgrader(root, "generate_assignment", "*")
    for chapter in ASSIGNMENTS:
        release = root / "release" / chapter.stem / chapter.name
        handed_in = Path(chapter.stem) / chapter.name
        hand_in(release, root / "submitted" / "alice" / handed_in, solutions(chapter))
        hand_in(release, root / "submitted" / "bob" / handed_in, {})
        if chapter.stem == ONE_RIGHT:
            answer = {"exercise-1": solutions(chapter)["exercise-1"]}
            hand_in(release, root / "submitted" / "carol" / handed_in, answer)
    nbgrader(root, "autograde", "*", "--create")
    yield root


def scores(course: Path, student: str, chapter: Path) -> dict[str, tuple[float, float]]:
    """grade_id -> (score, max_score) of each autograded test cell, from nbgrader's gradebook."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_submission_notebook(chapter.stem, chapter.stem, student)
        return {g.name: (g.score, g.max_score) for g in notebook.grades}


def test_every_chapter_becomes_an_assignment_with_nbgraders_stubs(course: Path):
    for chapter in ASSIGNMENTS:
        release = nbformat.read(course / "release" / chapter.stem / chapter.name, as_version=4)
        answers = [c.source for c in release.cells if nbgrader_meta(c).get("solution")]
        assert answers and all("raise NotImplementedError()" in a for a in answers), chapter.name
        assert not any("### BEGIN SOLUTION" in c.source for c in release.cells)
        assert all(not c.get("outputs") for c in release.cells), "handed out unrun"
        locked = [c for c in release.cells if nbgrader_meta(c).get("locked")]
        assert locked and all(c.metadata.get("editable") is False for c in locked)


@pytest.mark.parametrize("chapter", ASSIGNMENTS, ids=lambda p: p.stem)
def test_the_solutions_get_full_marks(course: Path, chapter: Path):
    want = points(chapter)
    assert want, "a chapter with exercises has graded check cells"
    assert scores(course, "alice", chapter) == {g: (p, p) for g, p in want.items()}


@pytest.mark.parametrize("chapter", ASSIGNMENTS, ids=lambda p: p.stem)
def test_the_stubs_get_nothing_and_every_other_cell_runs(course: Path, chapter: Path):
    assert scores(course, "bob", chapter) == {g: (0, p) for g, p in points(chapter).items()}
    graded = nbformat.read(course / "autograded" / "bob" / chapter.stem / chapter.name, 4)
    original = {c.id: c for c in nbformat.read(chapter, as_version=4).cells}
    for cell in graded.cells:
        meta = nbgrader_meta(cell)
        if meta.get("solution") or meta.get("grade"):
            continue
        assert cell.source == original[cell.id].source, "autograde must not change this cell"
        if cell.cell_type == "code":
            errors = [o.ename for o in cell.outputs if o.output_type == "error"]
            want = [o.ename for o in original[cell.id].outputs if o.output_type == "error"]
            assert errors == want, f"{chapter.name}: a lesson cell ran differently:\n{cell.source}"


def test_one_exercise_right_gets_its_points_only(course: Path):
    (chapter,) = [p for p in ASSIGNMENTS if p.stem == ONE_RIGHT]
    want = points(chapter)
    assert len(want) >= 2
    got = scores(course, "carol", chapter)
    assert got == {g: (p if g == "exercise-1-check" else 0, p) for g, p in want.items()}

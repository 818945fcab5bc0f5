"""Real nbgrader hands out every chapter and grades four students' submissions.

The course directory is made by the commands of docs/instructors.md ("Grade with nbgrader"),
extracted from the guide and run as written in bash (in a temporary home, so ``~/mycourse`` is
new): each chapter is an assignment in ``source/<chapter>/``, ``nbgrader generate_assignment``
makes the student versions. Where the guide says to collect the students' files, the test hands
them in (``hand_in``), then the guide's ``nbgrader autograde`` and ``nbgrader export`` run:

- alice hands in the release with every solution filled in (the chapters' own): full marks;
- bob hands in the release untouched (nbgrader's stubs): no points, and every other cell still
  runs as in the chapter;
- carol hands in chapter 04 with only exercise 1 done: exercise 1's points and nothing else;
- dave hands in the exercise versions `make lab` opens (notebooks/exercises/) of two chapters,
  with the solutions typed in place of the stubs: full marks, as for alice.

Every submission is graded by ``nbgrader autograde``, which re-runs each notebook in a kernel.
nbgrader's Validate, the button students have, fails on an untouched exercise version and on a
wrong answer, and passes a solved one.
"""

from __future__ import annotations

import csv
import re
import subprocess
import sys
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

# autograde re-runs about thirty notebooks: minutes on two shared cores
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]
# dave's exercise versions: two chapters (the one the walk graded 0, and the last); that every
# exercise version carries the same metadata is checked for all chapters below
FROM_MAKE_LAB = ("04_chain_rule_and_backward", "11_under_the_hood")


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


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess[str]:
    program = require("nbgrader", "MICROTORCH_REQUIRE_NBGRADER", "make venv installs it")
    return subprocess.run(
        [program, *args], cwd=course, env=isolated_env(course), capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip


def recipe() -> tuple[list[str], list[str]]:
    """The guide's shell commands, split where it says to collect the students' files."""
    guide = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Grade with nbgrader") :]
    (block,) = re.findall(r"```sh\n(.*?)```", section[: section.index("\n## ", 3)], re.S)
    lines = block.splitlines()
    (collect,) = [i for i, line in enumerate(lines) if line.startswith("nbgrader autograde")]
    return lines[:collect], lines[collect:]


def hand_in_all(course: Path) -> None:
    """Put the four students' files where the guide says to collect them."""
    for chapter in ASSIGNMENTS:
        release = course / "release" / chapter.stem / chapter.name
        handed_in = Path(chapter.stem) / chapter.name
        hand_in(release, course / "submitted" / "alice" / handed_in, solutions(chapter))
        hand_in(release, course / "submitted" / "bob" / handed_in, {})
        if chapter.stem == ONE_RIGHT:
            answer = {"exercise-1": solutions(chapter)["exercise-1"]}
            hand_in(release, course / "submitted" / "carol" / handed_in, answer)
        if chapter.stem in FROM_MAKE_LAB:
            exercise = chapter.parent / "exercises" / chapter.name
            typed = {g: strip_markers(a) for g, a in solutions(chapter).items()}
            hand_in(exercise, course / "submitted" / "dave" / handed_in, typed)


def strip_markers(source: str) -> str:
    """A solution as a student types it: without the solution markers."""
    markers = ("### BEGIN SOLUTION", "### END SOLUTION")
    return "\n".join(line for line in source.split("\n") if line.strip() not in markers)


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The guide's course directory, every chapter released and four students' work graded."""
    require("nbgrader", "MICROTORCH_REQUIRE_NBGRADER", "make venv installs it")
    home = tmp_path_factory.mktemp("home")
    before, after = recipe()
    hand_in_step = (
        f'"{sys.executable}" -c "import sys; from tests.course.test_nbgrader import hand_in_all; '
        'from pathlib import Path; hand_in_all(Path(sys.argv[1]))" "$HOME/mycourse"'
    )
    script = "\n".join(["set -euo pipefail", *before, f"(cd {ROOT} && {hand_in_step})", *after])
    env = isolated_env(home, HOME=str(home))
    run = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800
    )
    assert run.returncode == 0, (
        f"the guide's recipe failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}"
    )
    yield home / "mycourse"


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


@pytest.mark.parametrize("chapter", [p for p in ASSIGNMENTS if p.stem in FROM_MAKE_LAB],
                         ids=lambda p: p.stem)  # fmt: skip
def test_an_exercise_version_from_make_lab_gets_full_marks(course: Path, chapter: Path):
    assert scores(course, "dave", chapter) == {g: (p, p) for g, p in points(chapter).items()}


def test_the_guides_export_lists_every_student_and_chapter(course: Path):
    with (course / "grades.csv").open(encoding="utf-8") as file:
        rows = {(r["student_id"], r["assignment"]): float(r["score"]) for r in csv.DictReader(file)}
    students = {"alice", "bob", "carol", "dave"}  # (a chapter not handed in counts 0)
    assert set(rows) == {(who, chapter.stem) for who in students for chapter in ASSIGNMENTS}
    total = {chapter.stem: sum(points(chapter).values()) for chapter in ASSIGNMENTS}
    assert all(rows["alice", name] == full for name, full in total.items())
    assert all(rows["dave", name] == total[name] for name in FROM_MAKE_LAB)
    assert all(rows["bob", name] == 0 for name in total)


def test_every_exercise_version_carries_the_chapters_nbgrader_metadata():
    # Without it nbgrader grades a student's exercise file 0, silently, and Validate passes it.
    for chapter in ASSIGNMENTS:
        exercise = nbformat.read(chapter.parent / "exercises" / chapter.name, as_version=4)
        want = {c.id: c.metadata["nbgrader"] for c in nbformat.read(chapter, 4).cells
                if "nbgrader" in c.metadata}  # fmt: skip
        got = {c.id: c.metadata["nbgrader"] for c in exercise.cells if "nbgrader" in c.metadata}
        assert got == want and want, chapter.name


VALIDATED = "09_reading_error_messages"  # the chapter the walk found passing untouched


@pytest.mark.parametrize("state", ["untouched", "one wrong answer", "solved"])
def test_validate_fails_on_stubs_and_wrong_answers(tmp_path: Path, state: str):
    (chapter,) = [p for p in ASSIGNMENTS if p.stem == VALIDATED]
    exercise = chapter.parent / "exercises" / chapter.name
    answers = {g: strip_markers(a) for g, a in solutions(chapter).items()}
    if state == "untouched":
        answers = {}
    elif state == "one wrong answer":
        answers["exercise-1"] = "def matmul_shapes(message):\n    return (32, 10), (20, 5)"
    hand_in(exercise, tmp_path / chapter.name, answers)
    run = nbgrader(tmp_path, "validate", chapter.name)
    output = run.stdout + run.stderr
    if state == "solved":
        assert "Success! Your notebook passes all the tests." in output, output
    else:
        assert "VALIDATION FAILED" in output and "Success!" not in output, output


def test_autograde_refuses_a_file_without_nbgraders_metadata_loudly(tmp_path: Path):
    # e.g. a student's cells copied into a new notebook: no graded cell, so nbgrader would
    # score it 0 without a word; the course's nbgrader_config.py makes autograde stop instead.
    require("nbgrader", "MICROTORCH_REQUIRE_NBGRADER", "make venv installs it")
    (chapter,) = [p for p in ASSIGNMENTS if p.stem == "00_welcome"]
    config = ROOT / "docs" / "nbgrader_config.py"
    (tmp_path / config.name).write_bytes(config.read_bytes())
    (tmp_path / "source" / chapter.stem).mkdir(parents=True)
    (tmp_path / "source" / chapter.stem / chapter.name).write_bytes(chapter.read_bytes())
    assert nbgrader(tmp_path, "generate_assignment", chapter.stem).returncode == 0
    exercise = nbformat.read(chapter.parent / "exercises" / chapter.name, as_version=4)
    for cell in exercise.cells:
        cell.metadata.pop("nbgrader", None)
    (tmp_path / "submitted" / "eve" / chapter.stem).mkdir(parents=True)
    nbformat.write(exercise, tmp_path / "submitted" / "eve" / chapter.stem / chapter.name)
    run = nbgrader(tmp_path, "autograde", chapter.stem, "--create")
    assert run.returncode != 0, "autograde graded a file with no graded cells without a word"
    output = run.stdout + run.stderr
    assert "eve's 00_welcome has no graded cells" in output and "make lab" in output, output

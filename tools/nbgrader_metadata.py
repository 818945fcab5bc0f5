"""Give the chapters nbgrader's cell metadata, so nbgrader can hand them out and grade them.

    .venv/bin/python tools/nbgrader_metadata.py            # write it into notebooks/NN_*.ipynb
    .venv/bin/python tools/nbgrader_metadata.py --check    # exit 1 if a chapter's is stale

Everything is derived from what a chapter already marks, so running this again (say, after
someone added an exercise) changes only what must change:

- a code cell holding ``### BEGIN SOLUTION`` / ``### END SOLUTION`` is an *autograded answer*:
  ``nbgrader generate_assignment`` replaces each block by ``raise NotImplementedError()``;
- a cell tagged ``exercise-check`` is an *autograded test* worth ``POINTS`` points, which
  ``nbgrader autograde`` gives when the cell runs without an error;
- the setup cell (the first code cell: imports and the seed, which every check needs) and the
  Exercises section's instructions (the markdown cell with the ``## Exercises`` heading and
  every markdown cell after it) are *read-only*: students cannot edit them, and autograde
  restores them before grading.

Lesson cells stay ordinary, editable cells: students are meant to change them and re-run.
Grade ids name the exercise (``exercise-2``, ``exercise-2-check``) and, for read-only cells,
the cell's own id, so they survive re-execution. Points an instructor set by hand are kept.
The plain exercise versions (``tools/make_exercises.py``) carry none of this metadata.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
from make_exercises import BEGIN, CHECK_TAG, NOTEBOOKS, chapters, dumps

POINTS = 1  # per check cell, unless the chapter already says otherwise
SCHEMA_VERSION = 3  # nbgrader's cell metadata format since nbgrader 0.6
EXERCISES_HEADING = "## Exercises"


def _meta(grade_id: str, *, solution: bool = False, grade: bool = False) -> dict[str, object]:
    meta: dict[str, object] = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": not solution,
        "schema_version": SCHEMA_VERSION,
        "solution": solution,
        "task": False,
    }
    if grade:
        meta["points"] = POINTS
    return meta


def nbgrader_roles(nb: nbformat.NotebookNode, name: str = "notebook") -> list[dict | None]:
    """The nbgrader metadata each cell of ``nb`` should have (``None``: an ordinary cell)."""
    roles: list[dict | None] = [None] * len(nb.cells)
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    if code:
        roles[code[0]] = _meta(f"setup-{nb.cells[code[0]].id}")
    headings = [  # the heading may open its own cell or close the Summary's
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "markdown"
        and any(line.rstrip() == EXERCISES_HEADING for line in c.source.splitlines())
    ]
    for i in range(headings[0] if headings else len(nb.cells), len(nb.cells)):
        if nb.cells[i].cell_type == "markdown":
            roles[i] = _meta(f"instructions-{nb.cells[i].id}")
    exercise, solutions = 1, 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and BEGIN in cell.source:
            solutions += 1
            suffix = "" if solutions == 1 else f"-part-{solutions}"
            roles[i] = _meta(f"exercise-{exercise}{suffix}", solution=True)
        elif CHECK_TAG in cell.metadata.get("tags", []):
            if not solutions:
                raise ValueError(f"{name}, cell {i}: a check cell with no solution cell before it")
            meta = _meta(f"exercise-{exercise}-check", grade=True)
            old = cell.metadata.get("nbgrader", {})
            if old.get("grade") and isinstance(old.get("points"), (int, float)):
                meta["points"] = old["points"]  # an instructor's choice
            roles[i] = meta
            exercise, solutions = exercise + 1, 0
    if solutions:
        raise ValueError(f"{name}: a solution cell with no check cell after it")
    return roles


def with_metadata(nb: nbformat.NotebookNode, name: str = "notebook") -> nbformat.NotebookNode:
    """A copy of ``nb`` whose cells carry exactly the nbgrader metadata of ``nbgrader_roles``."""
    nb = nbformat.from_dict(nb)
    if not any(c.cell_type == "code" and BEGIN in c.source for c in nb.cells):
        for cell in nb.cells:  # a chapter without exercises is not an assignment
            cell.metadata.pop("nbgrader", None)
        return nb
    for cell, role in zip(nb.cells, nbgrader_roles(nb, name)):
        if role is None:
            cell.metadata.pop("nbgrader", None)
        else:
            cell.metadata["nbgrader"] = nbformat.from_dict(role)
    return nb


def stale(notebooks: Path = NOTEBOOKS) -> list[str]:
    """The chapters whose nbgrader metadata is not what this script writes (empty if none)."""
    problems = []
    for path in chapters(notebooks):
        text = path.read_text(encoding="utf-8")
        if dumps(with_metadata(nbformat.reads(text, as_version=4), path.name)) != text:
            problems.append(f"{path}: nbgrader metadata out of date")
    return problems


def update(notebooks: Path = NOTEBOOKS) -> list[str]:
    """Write the metadata into every chapter that needs it; returns what was done."""
    done = []
    for path in chapters(notebooks):
        text = path.read_text(encoding="utf-8")
        new = dumps(with_metadata(nbformat.reads(text, as_version=4), path.name))
        if new != text:
            path.write_text(new, encoding="utf-8")
            done.append(f"wrote nbgrader metadata into {path}")
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale chapters")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="the chapters' folder")
    args = parser.parse_args(argv)
    lines = stale(args.notebooks) if args.check else update(args.notebooks)
    for line in lines:
        print(line)
    if args.check and lines:
        print("to bring them up to date: .venv/bin/python tools/nbgrader_metadata.py")
    return 1 if args.check and lines else 0


if __name__ == "__main__":
    sys.exit(main())

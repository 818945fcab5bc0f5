"""Make the student versions of the chapters: ``notebooks/exercises/NN_topic.ipynb``.

    .venv/bin/python tools/make_exercises.py            # write them
    .venv/bin/python tools/make_exercises.py --check    # exit 1 if any is stale or orphaned

In a chapter, each solution sits between ``### BEGIN SOLUTION`` and ``### END SOLUTION``
lines of a code cell. The student version replaces each such block by one
``raise NotImplementedError(...)`` line at the block's indentation, and tags ``raises-exception``
(so nbval and nbclient accept the error) every cell that will raise when run as handed out:
cells with a stub at the top level, and the cells tagged ``exercise-check``, which call the
student's unfinished code. Those cells have their outputs cleared and no execution count, so
they look unrun and nbval, even in its strict mode, runs them without comparing outputs;
every other cell keeps the chapter's outputs and is compared as usual. Chapters without
solutions get no student version.

The chapters' nbgrader metadata (``tools/nbgrader_metadata.py``) is kept, so these files are
nbgrader submissions as they stand: ``nbgrader autograde`` grades one a student worked in (a
file without it would get 0 for every exercise, silently), and nbgrader's Validate button fails
on the stubs and on wrong answers instead of passing a notebook with no graded cells.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
CHECK_TAG, RAISES_TAG = "exercise-check", "raises-exception"
STUB_MESSAGE = "Exercise: replace this line with your solution"  # short: no sideways scrolling
NOTE = (
    "> **Exercise version: your copy of the chapter.** The solutions are replaced by\n"
    "> `raise NotImplementedError(...)`: write yours in their place and run the check cell\n"
    "> after each exercise. Until then the check cells stop with that error, which is expected."
)  # for the student only: instructors read how these files are made in docs/instructors.md


LINK = re.compile(r"\]\((?![a-z]+:|#|/)([^)\s]+)\)")  # a relative markdown link target
CHAPTER_FILE = re.compile(r"[0-9][0-9][a-z]?_\w+\.ipynb")


def chapters(notebooks: Path = NOTEBOOKS) -> list[Path]:
    """The chapter notebooks, ``notebooks/NN_topic.ipynb``, in order."""
    return sorted(notebooks.glob("[0-9][0-9]*_*.ipynb"))


def dumps(nb: nbformat.NotebookNode) -> str:
    """``nb`` as text, the way every tool here writes it, so files compare byte for byte."""
    return nbformat.writes(nb) + "\n"


def write(nb: nbformat.NotebookNode, path: Path) -> None:
    """Write ``nb`` to ``path`` as ``dumps`` formats it."""
    path.write_text(dumps(nb), encoding="utf-8")


def stub_source(source: str, where: str = "cell") -> tuple[str, bool]:
    """``source`` with each solution block stubbed out, and whether a stub is at the top level."""
    lines, out = source.split("\n"), []
    top_level, inside = False, None
    for number, line in enumerate(lines, 1):
        marker = line.strip()
        if marker == BEGIN:
            if inside is not None:
                raise ValueError(f"{where}, line {number}: {BEGIN} inside another solution")
            inside = line[: len(line) - len(line.lstrip())]
            out.append(f"{inside}raise NotImplementedError({STUB_MESSAGE!r})")
            top_level = top_level or not inside
        elif marker == END:
            if inside is None:
                raise ValueError(f"{where}, line {number}: {END} without {BEGIN}")
            inside = None
        elif inside is None:
            out.append(line)
    if inside is not None:
        raise ValueError(f"{where}: {BEGIN} is never closed by {END}")
    return "\n".join(out), top_level


def relink(markdown: str) -> str:
    """Relative links of a chapter, made to work from ``notebooks/exercises/``.

    Links to chapters go to their exercise versions next door; links into ``exercises/`` lose
    that prefix; every other relative link points one directory up.
    """

    def fix(match: re.Match[str]) -> str:
        target = match.group(1)
        if CHAPTER_FILE.fullmatch(target.split("#")[0]):
            return match.group(0)
        if target.startswith("exercises/"):
            return f"]({target.removeprefix('exercises/') or './'})"
        return f"](../{target})"

    return LINK.sub(fix, markdown)


def _unrun(cell: nbformat.NotebookNode) -> None:
    cell.outputs, cell.execution_count = [], None
    tags = cell.metadata.setdefault("tags", [])
    if RAISES_TAG not in tags:
        tags.append(RAISES_TAG)


def make_exercise(chapter: nbformat.NotebookNode, name: str = "notebook") -> nbformat.NotebookNode:
    """The student version of ``chapter`` (which is left unchanged)."""
    nb = copy.deepcopy(chapter)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            if BEGIN in cell.source:
                raise ValueError(
                    f"{name}, cell {index}: solution markers in a {cell.cell_type} cell"
                )
            cell.source = relink(cell.source)
            continue
        if BEGIN in cell.source or END in cell.source:
            cell.source, top_level = stub_source(cell.source, f"{name}, cell {index}")
            cell.outputs, cell.execution_count = [], None
            if top_level:
                _unrun(cell)
        if CHECK_TAG in cell.metadata.get("tags", []):
            _unrun(cell)
    note = nbformat.v4.new_markdown_cell(NOTE)
    note.id = "exercise-version-note"  # fixed, so regenerating gives the same bytes
    nb.cells.insert(1, note)
    return nb


def has_solutions(nb: nbformat.NotebookNode) -> bool:
    """True if some code cell of ``nb`` holds a solution block."""
    return any(c.cell_type == "code" and BEGIN in c.source for c in nb.cells)


def expected(notebooks: Path = NOTEBOOKS) -> dict[Path, str]:
    """Each exercise file that should exist under ``notebooks``, with the text it should hold."""
    result = {}
    for path in chapters(notebooks):
        chapter = nbformat.read(path, as_version=4)
        if has_solutions(chapter):
            result[notebooks / "exercises" / path.name] = dumps(make_exercise(chapter, path.name))
    return result


def stale(notebooks: Path = NOTEBOOKS) -> list[str]:
    """What differs between ``exercises/`` and what the chapters generate (empty if nothing)."""
    want = expected(notebooks)
    problems = [
        f"{p} is out of date" if p.exists() else f"{p} is missing"
        for p, text in want.items()
        if not p.exists() or p.read_text(encoding="utf-8") != text
    ]
    problems += [
        f"{p} has no chapter with solutions"
        for p in sorted((notebooks / "exercises").glob("*.ipynb"))
        if p not in want
    ]
    return problems


def generate(notebooks: Path = NOTEBOOKS) -> list[str]:
    """Write every exercise version and remove orphans; returns what was done."""
    (notebooks / "exercises").mkdir(exist_ok=True)
    want = expected(notebooks)
    done = []
    for path, text in want.items():
        path.write_text(text, encoding="utf-8")
        done.append(f"wrote {path}")
    for path in sorted((notebooks / "exercises").glob("*.ipynb")):
        if path not in want:
            path.unlink()
            done.append(f"removed {path} (its chapter has no solutions)")
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="the chapters' folder")
    args = parser.parse_args(argv)
    lines = stale(args.notebooks) if args.check else generate(args.notebooks)
    for line in lines:
        print(line)
    if args.check and lines:
        print("to bring them up to date: .venv/bin/python tools/make_exercises.py")
    return 1 if args.check and lines else 0


if __name__ == "__main__":
    sys.exit(main())

"""One path for students, one for instructors: `make lab`, the README, the banners, the hub docs.

Students work in notebooks/exercises/ (what `make lab` opens); instructors in notebooks/, the
answer key (`make lab-key`). On a JupyterHub the notebooks' kernel, `python3`, is the one the
instructions install microtorch for.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path
from types import ModuleType

import nbformat

from .loader import load_tool

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = load_tool("make_exercises").chapters()


def _opens(target: str) -> Path:
    """The notebook `make <target>` opens, from its --notebook-dir and LabApp.default_url."""
    dry_run = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30
    ).stdout
    (line,) = [line for line in dry_run.splitlines() if "jupyter lab" in line]
    args = dict(a.lstrip("-").split("=", 1) for a in shlex.split(line) if "=" in a)
    return ROOT / args["notebook-dir"] / args["LabApp.default_url"].removeprefix("/lab/tree/")


def test_make_lab_opens_the_student_version_and_lab_key_the_chapter():
    assert _opens("lab") == ROOT / "notebooks" / "exercises" / "00_welcome.ipynb"
    assert _opens("lab-key") == ROOT / "notebooks" / "00_welcome.ipynb"
    assert _opens("lab").exists() and _opens("lab-key").exists()


def test_the_readme_and_the_banner_tell_students_the_same(make_exercises: ModuleType):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`make lab`" in readme and "notebooks/exercises/" in readme
    assert "`make lab-key`" in readme
    note = make_exercises.NOTE
    assert "write yours in their place" in note
    assert "not this file" not in note  # the old banner told students not to edit their copy
    assert "yours to edit" in readme


def test_the_hub_recipe_installs_for_the_kernel_the_notebooks_ask_for(
    execute_notebooks: ModuleType,
):
    kernel = execute_notebooks.KERNELSPEC["name"]
    assert kernel == "python3"
    for path in CHAPTERS:
        assert nbformat.read(path, as_version=4).metadata.kernelspec.name == kernel, path.name
    docs = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    hub = docs[docs.index("## JupyterHub") :] if "## JupyterHub" in docs else docs
    assert f"`{kernel}`" in hub and "running on microtorch" in hub
    assert not re.search(r"ipykernel install .*--name (?!python3)", hub)


def test_conda_users_get_the_test_tools_and_are_told_how_to_start():
    env = (ROOT / "environment.yml").read_text(encoding="utf-8")
    (extras,) = re.findall(r"-e \.\[([a-z,]+)\]", env)
    assert "dev" in extras.split(",")  # pytest, hypothesis, nbval, ... (pyproject's dev extra)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    conda = readme[readme.index("Conda users") :]
    assert "conda env create -f environment.yml" in conda and "jupyter lab" in conda


def test_each_version_speaks_to_its_own_reader(make_exercises: ModuleType):
    # A student reading their copy is not told about instructors, nor about "a student
    # version" elsewhere: they are reading it. (Instructors: docs/instructors.md.)
    addressed_elsewhere = re.compile(
        r"instructor|student version|exercise version,|in \[?exercises/|answer key", re.I
    )
    for path, text in make_exercises.expected().items():
        nb = nbformat.reads(text, as_version=4)
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "markdown":
                found = addressed_elsewhere.search(cell.source)
                assert not found, f"exercises/{path.name}, cell {index}: {found.group(0)!r}"
    for path in CHAPTERS:  # the chapters' own text has no aside about the other version either
        nb = nbformat.read(path, as_version=4)
        prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        assert not re.search(r"student version|in the exercise version", prose, re.I), path.name

"""Chapter 10's corpus ships inside the installed package, not only in the repository."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest


def test_the_corpus_is_read_as_package_data():
    text = files("course_data").joinpath("tiny_corpus.txt").read_text(encoding="utf-8")
    assert len(text) == 3218 and text.startswith("the cat sat on the mat")


@pytest.mark.slow
def test_a_built_wheel_contains_the_corpus(tmp_path: Path):
    root = Path(__file__).resolve().parents[1]
    source = tmp_path / "source"  # setuptools writes build/ into the tree it builds
    for part in ("microtorch", "course_data"):
        shutil.copytree(root / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(root / part, source / part)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("microtorch-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.read("course_data/tiny_corpus.txt").decode("utf-8")
    assert shipped == files("course_data").joinpath("tiny_corpus.txt").read_text(encoding="utf-8")

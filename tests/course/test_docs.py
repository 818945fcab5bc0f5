"""docs/: the course files docs/instructors.md points to exist and are well formed."""

from __future__ import annotations

import json
import re

import yaml

from .conftest import ROOT

DOCS = ROOT / "docs"


def test_every_file_the_instructors_guide_links_exists():
    text = (DOCS / "instructors.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((?!https?:|#)([^)\s]+)\)", text)
    assert {"jupyterhub_config.py", "nbgrader_config.py", "z2jh-values.yaml"} <= set(links)
    missing = [link for link in links if not (DOCS / link.split("#")[0]).exists()]
    assert not missing


def test_the_kubernetes_values_parse():
    values = yaml.safe_load((DOCS / "z2jh-values.yaml").read_text(encoding="utf-8"))
    memory = values["singleuser"]["memory"]
    assert set(memory) == {"guarantee", "limit"}
    assert values["cull"]["enabled"] is True


def test_the_roster_names_students_and_the_hub_uses_the_notebooks_kernel():
    students = (DOCS / "students.txt").read_text(encoding="utf-8").split()
    assert students and all(re.fullmatch(r"[a-z0-9_-]+", s) for s in students)
    guide = (DOCS / "instructors.md").read_text(encoding="utf-8")
    assert "--name microtorch" not in guide, "the chapters ask for python3"
    assert "--name python3" in guide
    for chapter in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")):
        kernel = json.loads(chapter.read_text(encoding="utf-8"))["metadata"]["kernelspec"]
        assert kernel["name"] == "python3", chapter.name


def test_every_file_the_nbgrader_recipe_copies_exists():
    # The slow test (test_nbgrader.py) runs the recipe; this one says at once if a `cp` names a
    # file or folder the repository does not have (it once copied a data/ folder that was gone).
    from .test_nbgrader import recipe

    before, after = recipe()
    copied = [
        source
        for line in before + after
        if line.split("#")[0].strip().startswith(("cp ", "mkdir -p ~/mycourse && cp "))
        for source in line.split("#")[0].split("cp ", 1)[1].split()[:-1]
        if not source.startswith("-")
    ]
    assert "docs/nbgrader_config.py" in copied
    for source in copied:
        if "$" not in source:  # "$chapter" is the loop's, over notebooks/[0-9]*.ipynb
            assert (ROOT / source).exists(), f"the recipe copies {source}, which does not exist"

"""requirements-lock.txt drives every install: this environment, torch's extras, conda/Binder."""

from __future__ import annotations

import importlib.metadata as metadata
import re
import sys
import sysconfig
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from .conftest import ROOT

LOCK = ROOT / "requirements-lock.txt"
NOT_LOCKED = {"microtorch", "pip", "torch"}  # the project; the venv's own pip; pinned in .ci/run


def pins(path: Path = LOCK) -> dict[str, str]:
    """name -> the version the lock pins for this Python and platform."""
    result = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate():
                (spec,) = req.specifier
                assert spec.operator == "==", f"not an exact pin: {line}"
                result[canonicalize_name(req.name)] = spec.version
    return result


def test_every_line_is_an_exact_pin_and_names_are_unique_for_this_python():
    locked = pins()
    assert {"numpy", "jupyterlab", "ruff", "mypy", "nbgrader", "jupyterhub", "uv"} <= set(locked)


@pytest.mark.skipif(
    Path(sys.prefix).resolve() != (ROOT / ".venv").resolve(), reason="runs in the project's .venv"
)
def test_this_environment_is_exactly_the_lock():
    locked = pins()
    # The venv's packages, from its own site-packages: a test that imported setuptools puts
    # setuptools/_vendor on sys.path, whose vendored copies are not installed packages.
    site = sysconfig.get_paths()["purelib"]
    installed = {
        canonicalize_name(d.metadata["Name"]): d.version
        for d in metadata.distributions(path=[site])
    }
    wrong = {
        name: (version, locked.get(name, "not in the lock"))
        for name, version in installed.items()
        if name not in NOT_LOCKED and locked.get(name) != version.split("+")[0]
    }
    assert not wrong, f"installed vs locked (make venv, or make lock if pyproject changed): {wrong}"


def test_the_extras_make_venv_installs_are_all_in_the_lock():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (extras,) = re.findall(r"^EXTRAS := (.+)$", makefile, flags=re.M)
    requires = metadata.requires("microtorch") or []
    locked = pins()
    for line in requires:
        req = Requirement(line)
        marker = req.marker
        wanted = marker is None or any(marker.evaluate({"extra": e}) for e in extras.split(","))
        if wanted:
            name = canonicalize_name(req.name)
            assert name in locked and req.specifier.contains(locked[name]), line


def test_torch_deps_in_matches_the_installed_torch(torch_module):
    listed = {
        canonicalize_name(Requirement(line).name)
        for line in (ROOT / "tools" / "torch-deps.in").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    needed = {
        canonicalize_name(Requirement(r).name)
        for r in metadata.requires("torch") or []
        if "extra ==" not in r
    }
    assert listed == needed
    locked = pins()
    for name in needed:
        assert metadata.version(name) == locked[name], f"{name}: pip install torch with -c the lock"


def test_conda_and_binder_install_from_the_lock():
    text = (ROOT / "environment.yml").read_text(encoding="utf-8")
    assert "- -c requirements-lock.txt" in text
    (extras,) = re.findall(r"- -e \.\[([a-z,]+)\]", text)
    assert {"viz", "widgets", "lab"} <= set(extras.split(","))
    (python,) = re.findall(r"- python=(\d+\.\d+)", text)
    workflow = (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    assert f"image: python:{python}-" in workflow, "Binder runs the Python that CI tests"

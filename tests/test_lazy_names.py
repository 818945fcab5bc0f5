"""Names loaded on first use (microtorch/_lazy.py) stay what they are whatever is read first."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("first", ["gradgradcheck", "gradcheck"])
def test_gradcheck_is_the_function_after_either_is_read(first: str) -> None:
    # importing microtorch.autograd.gradcheck for gradgradcheck set autograd's gradcheck to
    # that module (Python's import does): gradcheck(...) then raised "'module' object is not
    # callable". A fresh interpreter, so that nothing was loaded before.
    code = (
        "import microtorch; from microtorch import autograd; "
        f"autograd.{first}; print(callable(autograd.gradcheck), callable(autograd.gradgradcheck))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]

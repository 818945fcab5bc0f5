"""The package source the chapters print is the lesson: each printed function fits on one screen.

Every ``inspect.getsource(...)`` in a chapter's code cells is evaluated with the chapter's own
imports, and the source it prints must be at most ``SCREEN_LINES`` lines of at most 100
characters (the house line length), so a student reads it without scrolling.
"""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

import microtorch

SCREEN_LINES = 40  # one screen of a notebook at the usual font size (the engine's walk: ~37)
CHAPTERS = sorted((Path(__file__).parents[2] / "notebooks").glob("[0-9][0-9]*.ipynb"))


def _printed(path: Path) -> list[tuple[str, dict[str, Any]]]:
    # (expression, namespace) for each inspect.getsource(expression) in the chapter's code.
    cells = json.loads(path.read_text())["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    namespace: dict[str, Any] = {"torch": microtorch, "inspect": inspect}
    found = []
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:  # IPython-only syntax (%magics): no getsource there
            continue
        for node in tree.body:  # imports, and aliases such as ``nn = torch.nn``
            value = getattr(node, "value", None)
            alias = isinstance(value, ast.Attribute) and ast.unparse(value).startswith("torch.")
            if isinstance(node, (ast.Import, ast.ImportFrom)) or alias:
                exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) == "inspect.getsource"
                and node.args
            ):
                found.append((ast.unparse(node.args[0]), namespace))
    return found


CASES = [(path.name, expr, ns) for path in CHAPTERS for expr, ns in _printed(path)]


def test_the_chapters_print_package_source() -> None:
    assert len(CASES) >= 10  # the check below must have something to check


@pytest.mark.parametrize(("chapter", "expression", "namespace"), CASES, ids=[
    f"{c}:{e}" for c, e, _ in CASES
])  # fmt: skip
def test_each_printed_function_fits_on_one_screen(
    chapter: str, expression: str, namespace: dict[str, Any]
) -> None:
    source = inspect.getsource(eval(expression, namespace))
    lines = source.rstrip("\n").splitlines()
    assert len(lines) <= SCREEN_LINES, (
        f"{chapter} prints {expression}: {len(lines)} lines, more than one screen "
        f"({SCREEN_LINES}); split it, or print a smaller piece that shows the idea"
    )
    too_long = [line for line in lines if len(line) > 100]
    assert not too_long, f"{chapter} prints {expression} with lines over 100 characters"

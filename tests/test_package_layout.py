"""The package's layout: the formulas in ops/, the public functions in api/, no import cycle.

A reader finds the core in ``autograd/`` and ``ops/``; a module that imports another at its top
can be read after it. These checks read the source (``ast``), so they see what a reader sees.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "microtorch"
CORE = ("autograd", "ops", "api", "nn", "optim", "utils")  # and the top-level modules

# Imports inside functions, each for a reason no top-level import can serve:
LATE_IMPORTS = {
    # save/load load zipfile, tempfile and json on first use (import microtorch stays fast)
    ("__init__.py", "microtorch"),
    # numpy 1.x has no error-state context variable: the fallback imports what it has
    ("autograd/quiet.py", "numpy._core._ufunc_config"),
    # only anomaly mode reads stacks: traceback (48 KB of bytecode, ~0.5 ms) on its first use
    ("autograd/anomaly_mode.py", "traceback"),
}


def _core_files() -> list[Path]:
    files = [p for p in PACKAGE.glob("*.py")]
    for sub in CORE:
        files += sorted((PACKAGE / sub).rglob("*.py"))
    return sorted(files)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    # Every import, at the top or inside a function (a late import dodges a cycle, it does
    # not remove it), but those LATE_IMPORTS allows.
    rel, modules = str(path.relative_to(PACKAGE)), set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (rel, node.module) in LATE_IMPORTS:
            continue
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("microtorch")
        ):
            for alias in node.names:  # (from microtorch.ops import shape: the module shape)
                sub = f"{node.module}.{alias.name}"
                is_module = _path_of(sub) is not None
                modules.add(sub if is_module else node.module)
        elif isinstance(node, ast.Import):
            modules |= {a.name for a in node.names if a.name.startswith("microtorch")}
    return modules


def _path_of(module: str) -> Path | None:
    base = PACKAGE.parent.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _graph() -> dict[str, set[str]]:
    graph = {_module_name(p): _imports(p) for p in _core_files()}
    # A package's own __init__ importing its modules is how a package is made, not a cycle:
    # importing microtorch.ops.shape runs microtorch/__init__.py first in any case.
    return {
        m: {d for d in deps if d in graph and not m.startswith(d + ".") and d != m}
        for m, deps in graph.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    for start in sorted(graph):
        if state.get(start):
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


def test_no_import_cycle_in_the_core() -> None:
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()) or [])


def test_the_cycle_finder_finds_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_imports_inside_functions(path: Path) -> None:
    rel = str(path.relative_to(PACKAGE))
    late = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (rel, inner.module) not in LATE_IMPORTS:
                    late.append(f"line {inner.lineno}: from {inner.module}")
                elif isinstance(inner, ast.Import):
                    late += [f"line {inner.lineno}: import {a.name}" for a in inner.names]
    assert not late, f"{rel} imports inside functions (move them to the top): {late}"


def test_ops_holds_formulas_and_api_the_functions_around_them() -> None:
    # ops/ is the formulas and their numpy helpers; a function that runs an op (calls
    # ``SomeOp.apply``) is one a user calls, or calls through: it belongs in api/. And ops/
    # never reaches up to api/.
    for path in sorted((PACKAGE / "ops").glob("*.py")):
        tree = ast.parse(path.read_text())
        for function in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            calls = [
                c
                for c in ast.walk(function)
                if isinstance(c, ast.Call)
                and isinstance(c.func, ast.Attribute)
                and c.func.attr == "apply"
            ]
            assert not calls, f"ops/{path.name}: {function.name} runs an op: move it to api/"
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not {m for m in imported if m and m.startswith("microtorch.api")}, path.name

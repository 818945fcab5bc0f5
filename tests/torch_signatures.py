"""PyTorch 2.13's signatures of its functions and Tensor methods (tests/test_keyword_parity.py).

Native functions (``torch.flip``, ``Tensor.sum``) have no ``inspect.signature``; their overloads
are the ones the argument parser prints in its "expected one of:" TypeError, and torch ships the
same list, generated from the same schemas, as the stubs ``torch/_C/_VariableFunctions.pyi``
(``torch.*``) and ``torch/_C/__init__.pyi`` (class ``TensorBase``: the methods). They are read
here with ``ast``, one ``Param`` list per ``def``. Python functions (``torch.functional.*``,
``Tensor.backward``) are read with ``inspect.signature``.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
from pathlib import Path
from typing import Any, NamedTuple


class Param(NamedTuple):
    name: str
    kind: str  # "positional" (also by keyword), "positional-only" (before `/`), "keyword"
    # (after `*`), "varargs" (`*dims`)
    annotation: str  # the stub's text, e.g. "_int | _size | None"; "" if unknown
    has_default: bool
    default: Any  # the default's value, where the stub gives a literal one


class Overload(NamedTuple):
    params: tuple[Param, ...]  # without the Tensor itself for methods

    def text(self) -> str:
        """``(input: Tensor, dims: _size)``: how the report names this overload."""
        shown = []
        for p in self.params:
            star = "*" if p.kind == "varargs" else ""
            shown.append(f"{star}{p.name}: {p.annotation}" + (" = ..." if p.has_default else ""))
        return "(" + ", ".join(shown) + ")"


def _literal(node: ast.expr | None) -> Any:
    try:
        return ast.literal_eval(node) if node is not None else None
    except ValueError:
        return None  # e.g. `torch.strided`


def _from_def(node: ast.FunctionDef, method: bool) -> Overload:
    a = node.args
    positional = a.posonlyargs + a.args
    if method:
        positional = positional[1:]  # self
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    only = len(a.posonlyargs) - (method and bool(a.posonlyargs))  # (before a `/`)
    params = [
        Param(arg.arg, "positional-only" if k < only else "positional", _annotation(arg),
              d is not None, _literal(d))
        for k, (arg, d) in enumerate(zip(positional, defaults))
    ]  # fmt: skip
    if a.vararg is not None:
        params.append(Param(a.vararg.arg, "varargs", _annotation(a.vararg), False, None))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        params.append(Param(arg.arg, "keyword", _annotation(arg), d is not None, _literal(d)))
    return Overload(tuple(params))


def _annotation(arg: ast.arg) -> str:
    return ast.unparse(arg.annotation) if arg.annotation is not None else ""


@functools.cache
def _stub_defs(torch_dir: str) -> tuple[dict[str, list[Overload]], dict[str, list[Overload]]]:
    functions: dict[str, list[Overload]] = {}
    methods: dict[str, list[Overload]] = {}
    stubs = Path(torch_dir) / "_C"
    for node in ast.parse((stubs / "_VariableFunctions.pyi").read_text()).body:
        if isinstance(node, ast.FunctionDef):
            functions.setdefault(node.name, []).append(_from_def(node, method=False))
    for cls in ast.parse((stubs / "__init__.pyi").read_text()).body:
        if isinstance(cls, ast.ClassDef) and cls.name == "TensorBase":
            for node in cls.body:
                if isinstance(node, ast.FunctionDef):
                    methods.setdefault(node.name, []).append(_from_def(node, method=True))
    return functions, methods


def _from_docstring(fn: Any, method: bool) -> Overload | None:
    """``unique(input, sorted=True, ...) -> ...``, the docstring's signature line, for the
    functions whose ``inspect.signature`` is only ``(*args, **kwargs)``."""
    pattern = rf"^\s*{re.escape(fn.__name__)}\((.*)\)( ->.*)?$"
    for line in (fn.__doc__ or "").splitlines():
        found = re.match(pattern, line)
        if found:
            node = ast.parse(f"def f({'self, ' if method else ''}{found[1]}): pass").body[0]
            assert isinstance(node, ast.FunctionDef)
            return _from_def(node, method)
    return None


def _from_signature(fn: Any, method: bool) -> Overload | None:
    parameters = list(inspect.signature(fn).parameters.values())
    if [p.kind for p in parameters] == [
        inspect.Parameter.VAR_POSITIONAL,
        inspect.Parameter.VAR_KEYWORD,
    ]:
        return _from_docstring(fn, method)
    kinds = {
        inspect.Parameter.POSITIONAL_ONLY: "positional-only",
        inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional",
        inspect.Parameter.VAR_POSITIONAL: "varargs",
        inspect.Parameter.KEYWORD_ONLY: "keyword",
    }
    params = []
    for k, p in enumerate(parameters):
        if (method and k == 0) or p.kind not in kinds:
            continue  # self, **kwargs
        annotation = p.annotation
        text = "" if annotation is p.empty else str(getattr(annotation, "__name__", annotation))
        has_default = p.default is not p.empty
        params.append(
            Param(p.name, kinds[p.kind], text, has_default, p.default if has_default else None)
        )
    return Overload(tuple(params))


def overloads(torch: Any, dotted: str) -> list[Overload] | None:
    """The overloads of ``torch.NAME`` or ``torch.Tensor.NAME``; None if torch gives none."""
    functions, methods = _stub_defs(str(Path(torch.__file__).parent))
    parts = dotted.split(".")
    method = len(parts) == 3  # torch.Tensor.NAME
    value = getattr(torch.Tensor if method else torch, parts[-1])
    if inspect.isfunction(value):  # written in Python: its own signature
        own = _from_signature(value, method)
        return [own] if own else None
    found = (methods if method else functions).get(parts[-1])
    return list(found) if found else None

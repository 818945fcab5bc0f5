"""The walk of PyTorch 2.13's namespaces that docs/api_walk.md records (issue 24).

``walk(torch)`` lists, per namespace, the public names a course could reach: ``torch.__all__``,
the public attributes of ``torch.Tensor``, ``torch.nn.modules.__all__`` and ``nn.Parameter``,
``nn.functional``'s public functions, and ``__all__`` of ``nn.init``, ``optim``,
``optim.lr_scheduler``, ``utils.data``, ``autograd`` and ``linalg``, and ``torch.random``'s
functions. Each walked name is either a row of docs/api_coverage.md (implemented or not
covered) or listed once in docs/api_walk.md under the category that keeps it out, or under
"Still to do". ``tests/test_api_walk.py`` checks that.
"""

from __future__ import annotations

import inspect
import re
import types
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[1] / "docs"
COVERAGE = DOCS / "api_coverage.md"
WALK = DOCS / "api_walk.md"
TO_DO = "Still to do"


def _functions(module: types.ModuleType) -> list[str]:
    """A module's public functions and classes of torch's own (not re-exported modules)."""
    names = []
    for name, value in vars(module).items():
        if name.startswith("_") or isinstance(value, types.ModuleType):
            continue
        if callable(value) and (getattr(value, "__module__", None) or "").startswith("torch"):
            names.append(name)
    return names


def walk(torch: Any) -> dict[str, list[str]]:
    """Namespace -> the public names of PyTorch 2.13 that the walk covers: functions, classes and
    constants, not submodules, nor ``nn.functional``'s re-export of ``Tensor``."""
    names = _walk(torch)
    for space, listed in names.items():
        owner = eval(space, {"torch": torch})  # noqa: S307 (a fixed, dotted name)
        names[space] = [
            n
            for n in listed
            if not isinstance(getattr(owner, n, None), types.ModuleType)
            and not (space != "torch" and getattr(owner, n, None) is torch.Tensor)
        ]
    return names


def _walk(torch: Any) -> dict[str, list[str]]:
    return {
        "torch": list(torch.__all__),
        "torch.Tensor": [n for n in dir(torch.Tensor) if not n.startswith("_")],
        "torch.nn": [*torch.nn.modules.__all__, "Parameter", "Buffer", "UninitializedParameter"],
        "torch.nn.functional": _functions(torch.nn.functional),
        "torch.nn.init": list(torch.nn.init.__all__),
        "torch.optim": list(torch.optim.__all__),
        "torch.optim.lr_scheduler": list(torch.optim.lr_scheduler.__all__),
        "torch.utils.data": [n for n in torch.utils.data.__all__ if not n.startswith("_")],
        "torch.autograd": list(torch.autograd.__all__),
        "torch.linalg": [
            n
            for n in dir(torch.linalg)
            if not n.startswith("_") and callable(getattr(torch.linalg, n))
        ],
        "torch.random": [
            n
            for n, v in vars(torch.random).items()
            if inspect.isfunction(v) and not n.startswith("_")
        ],
    }


def walked_names(torch: Any) -> set[str]:
    return {f"{space}.{name}" for space, names in walk(torch).items() for name in names}


def table_names() -> set[str]:
    """Every name docs/api_coverage.md has a row for."""
    return set(re.findall(r"^\| `([^`]+)`", COVERAGE.read_text(), flags=re.M))


def walk_lists() -> dict[str, list[str]]:
    """docs/api_walk.md: category heading -> the names of its ```names block."""
    lists: dict[str, list[str]] = {}
    heading = None
    for block in re.split(r"^(### .+)$", WALK.read_text(), flags=re.M):
        if block.startswith("### "):
            heading = block[4:].strip()
        elif heading is not None:
            found = re.findall(r"```names\n(.*?)```", block, flags=re.S)
            lists[heading] = [n for text in found for n in text.split()]
    return lists

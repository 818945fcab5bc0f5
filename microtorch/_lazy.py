"""Names loaded on first use: how ``import microtorch`` stays fast.

A rarely used area (``torch.linalg``, ``torch.special``, ``x.det()``,
``nn.TransformerEncoderLayer``) is not imported by ``import microtorch``: its module is imported
the first time one of its names is read, and from then on the name is an ordinary attribute.
Nothing else changes: the same objects, docstrings and errors, and ``dir()`` lists the names.

A name's place is written ``"module:attribute"`` (``"microtorch.api.linalg_square:torch_det"``),
or ``"module"`` for a module itself (``"microtorch.linalg"``). Two tools read it:

- ``module_getattr(globals(), ON_FIRST_USE, fallback)``: a package's ``__getattr__`` (PEP 562)
  for the names in its table ``ON_FIRST_USE`` (name -> place); ``module_dir`` lists them.
- ``Method(place)``: a Tensor method whose function lives in such a module (``x.det()``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = [
    "FunctionsOverSubmodules", "Method", "load", "module_dir", "module_getattr", "modules", "names",
]  # fmt: skip


def load(place: str) -> Any:
    """The object at ``place``: ``"package.module:attribute"``, or ``"package.module"``."""
    module, _, attributes = place.partition(":")
    found = importlib.import_module(module)
    for attribute in attributes.split(".") if attributes else ():  # ("tensor:Tensor.erf_")
        found = getattr(found, attribute)
    return found


def names(module: str, listed: str) -> dict[str, str]:
    """``{name: "module:name"}`` for the space-separated ``listed`` names of ``module``."""
    return {name: f"{module}:{name}" for name in listed.split()}


def modules(package: str, listed: str) -> dict[str, str]:
    """``{name: "package.name"}``: the space-separated ``listed`` submodules of ``package``."""
    return {name: f"{package}.{name}" for name in listed.split()}


def module_getattr(
    namespace: dict[str, Any], table: dict[str, str], fallback: Callable[[str], Any]
) -> Callable[[str], Any]:
    """A module ``__getattr__``: a name in ``table`` is loaded and kept in ``namespace`` (so
    this runs once per name); any other name goes to ``fallback`` (which raises)."""

    def __getattr__(name: str) -> Any:  # noqa: N807 - PEP 562's name
        place = table.get(name)
        if place is None:
            return fallback(name)
        value = namespace[name] = load(place)
        return value

    return __getattr__


class FunctionsOverSubmodules(ModuleType):
    """A package whose ``ON_FIRST_USE`` table names a function ``x`` of its own submodule ``x``
    (``autograd.gradcheck``). Importing ``package.x`` sets the package's ``x`` to the module;
    here that keeps the function, as PyTorch's ``torch.autograd.gradcheck`` stays one."""

    def __setattr__(self, name: str, value: Any) -> None:
        place = self.__dict__.get("ON_FIRST_USE", {}).get(name, "")
        if type(value) is ModuleType and place.startswith(value.__name__ + ":"):
            value = load(place)
        super().__setattr__(name, value)


def module_dir(namespace: dict[str, Any], table: dict[str, str]) -> Callable[[], list[str]]:
    """A module ``__dir__``: its names and those it loads on first use (tab completion)."""

    def __dir__() -> list[str]:  # noqa: N807 - PEP 562's name
        return sorted({*namespace, *table})

    return __dir__


class Method:
    """A Tensor method loaded on first use: ``det = Method("microtorch.api.linalg_square:det")``.

    The first read of ``x.det`` (or ``Tensor.det``) imports the module, puts the function, made
    by ``wrap`` if given (``method_keywords``), on the class in this one's place, and
    hands it over; from then on ``det`` is an ordinary method.
    """

    def __init__(self, place: str, wrap: Callable[[Any], Any] | None = None) -> None:
        self.place, self.wrap = place, wrap

    def __set_name__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        function = load(self.place)
        if self.wrap is not None:
            function = self.wrap(function)
        setattr(self.owner, self.name, function)
        bind = getattr(function, "__get__", None)  # (what reading a class attribute does)
        return function if bind is None else bind(obj, self.owner if objtype is None else objtype)

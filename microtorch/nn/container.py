"""Containers: ``Sequential`` (a chain of layers), ``ModuleList`` and ``ModuleDict``."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar

from microtorch._warn import warn
from microtorch.nn.module import Module, _addindent

__all__ = ["Sequential", "ModuleList", "ModuleDict", "Container"]  # (Container: walkc)


def _index(idx: Any, size: int) -> int:
    i = operator.index(idx)
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of range")
    return i % size


def _renumber(container: Module, modules: list[Module]) -> None:
    # Keys stay 0, 1, 2, ... after a deletion or insertion, as in PyTorch.
    for key in list(container._modules):
        delattr(container, key)
    for i, module in enumerate(modules):
        container.add_module(str(i), module)


_S = TypeVar("_S", bound="_ModuleSequence")


class _ModuleSequence(Module):
    """What Sequential and ModuleList share: numbered submodules kept 0, 1, 2, ..."""

    def __delitem__(self, idx: int | slice) -> None:
        modules = list(self._modules.values())
        del modules[idx if isinstance(idx, slice) else _index(idx, len(modules))]
        _renumber(self, modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self: _S, module: Module) -> _S:
        """Add a module at the end."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self: _S, modules: Iterable[Module]) -> _S:
        """Add several modules at the end."""
        for module in modules:
            self.append(module)
        return self

    def _insert(self, index: int, module: Module) -> None:
        modules = list(self._modules.values())
        modules.insert(index, module)
        _renumber(self, modules)


class Sequential(_ModuleSequence):
    """Layers applied one after another: each output is the next layer's input.

    >>> import microtorch as torch
    >>> net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())
    >>> net
    Sequential(
      (0): Linear(in_features=2, out_features=3, bias=True)
      (1): ReLU()
    )
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input: Any) -> Any:  # noqa: A002 - PyTorch's name
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_index(idx, len(self._modules))]

    def __setitem__(self, idx: int, module: Module) -> None:
        key = list(self._modules)[_index(idx, len(self._modules))]
        setattr(self, key, module)

    def insert(self, index: int, module: Module) -> Sequential:
        """Insert a layer before position ``index`` (returns the Sequential, as PyTorch)."""
        self._insert(index, module)
        return self


class ModuleList(_ModuleSequence):
    """A list of modules whose parameters the parent registers (a plain list would hide them)."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self._modules)))]

    def __setitem__(self, idx: int, module: Module) -> None:
        self.add_module(str(_index(idx, len(self._modules))), module)

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        return type(self)(list(self) + list(other))

    def insert(self, index: int, module: Module) -> None:
        """Insert a module before position ``index`` (returns None, as PyTorch)."""
        self._insert(index, module)

    def __repr__(self) -> str:
        # Runs of identical entries print once, as "(0-2): 3 x Linear(...)" (PyTorch's form).
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        runs: list[list[Any]] = []
        for i, r in enumerate(reprs):
            if runs and runs[-1][2] == r:
                runs[-1][1] = i
            else:
                runs.append([i, i, r])
        lines = []
        for start, end, r in runs:
            head = f"({start})" if start == end else f"({start}-{end}): {end - start + 1} x"
            lines.append(_addindent(f"{head}: {r}" if start == end else f"{head} {r}", 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules by name, registered in insertion order."""

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def keys(self) -> Iterable[str]:
        """The names, in insertion order."""
        return self._modules.keys()

    def items(self) -> Iterable[tuple[str, Module]]:
        """``(name, module)`` pairs."""
        return self._modules.items()

    def values(self) -> Iterable[Module]:
        """The modules."""
        return self._modules.values()

    def update(self, modules: Mapping[str, Module] | Iterable[tuple[str, Module]]) -> None:
        """Add (or replace) modules from a mapping or ``(name, module)`` pairs."""
        pairs = modules.items() if isinstance(modules, Mapping) else modules
        for key, module in pairs:
            self[key] = module

    def pop(self, key: str) -> Module:
        """Remove and return the module called ``key``."""
        module = self[key]
        del self[key]
        return module

    def clear(self) -> None:
        """Remove every module."""
        for key in list(self._modules):
            del self[key]


class Container(Module):
    """Deprecated: a Module whose keyword arguments become its submodules, with PyTorch's
    FutureWarning (subclass ``Module`` instead)."""

    def __init__(self, **kwargs: Any) -> None:
        warn(
            "`nn.Container` is deprecated. All of its functionality is now implemented in "
            "`nn.Module`. Subclass that instead.",
            FutureWarning,
        )
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)

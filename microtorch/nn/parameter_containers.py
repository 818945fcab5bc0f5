"""``ParameterList`` and ``ParameterDict``: parameters held in a list or a dict, registered
under their positions ("0", "1", ...) or keys, so ``parameters()`` and ``state_dict()`` find
them. Tensors put in become ``Parameter``s, as in PyTorch."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor

__all__ = ["ParameterList", "ParameterDict"]


def _as_parameter(value: Any) -> Any:
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _describe(value: Any, dtype_name: str) -> str:
    # One line of the repr: "Parameter containing: [torch.float32 of size 2x3]"
    if not isinstance(value, Tensor):
        return f"Object of type: {type(value).__name__}"
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    size = "x".join(str(n) for n in value.shape)
    return f"{kind} containing: [{dtype_name} of size {size}]"


class ParameterList(Module):
    """A list of parameters: ``self.ws = nn.ParameterList([nn.Parameter(...) ...])``."""

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return type(self)([self[i] for i in range(len(self))[idx]])
        if not -len(self) <= idx < len(self):
            raise IndexError(f"index {idx} is out of range")
        return getattr(self, str(idx % len(self)))

    def __setitem__(self, idx: int, param: Any) -> None:
        if not -len(self) <= idx < len(self):
            raise IndexError(f"index {idx} is out of range")
        setattr(self, str(idx % len(self)), _as_parameter(param))

    def __iadd__(self, parameters: Iterable[Any]) -> ParameterList:
        return self.extend(parameters)

    def append(self, value: Any) -> ParameterList:
        """Add ``value`` at the end."""
        self._size += 1
        setattr(self, str(self._size - 1), _as_parameter(value))
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        """Add every value of ``values`` at the end."""
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(
            f"  ({i}): {_describe(p, 'torch.' + p.dtype.name if isinstance(p, Tensor) else '')}"
            for i, p in enumerate(self)
        )


class ParameterDict(Module):
    """A dict of parameters: ``self.ws = nn.ParameterDict({"a": nn.Parameter(...)})``. A plain
    dict's keys are taken in sorted order, as in PyTorch (an OrderedDict's in its order)."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def keys(self) -> Iterable[str]:
        """The keys, in order."""
        return self._keys.keys()

    def values(self) -> Iterable[Any]:
        """The parameters, in the keys' order."""
        return (self[k] for k in self._keys)

    def items(self) -> Iterable[tuple[str, Any]]:
        """(key, parameter) pairs, in order."""
        return ((k, self[k]) for k in self._keys)

    def pop(self, key: str) -> Any:
        """Remove ``key`` and return its parameter."""
        value = self[key]
        del self[key]
        return value

    def get(self, key: str, default: Any = None) -> Any:
        """The parameter at ``key``, or ``default``."""
        return getattr(self, key) if key in self._keys else default

    def update(self, parameters: Any) -> None:
        """Add (or replace) the pairs of a mapping or of an iterable of pairs."""
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = [tuple(pair) for pair in parameters]
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(
            f"  ({k}): {_describe(p, 'torch.' + p.dtype._legacy if isinstance(p, Tensor) else '')}"
            for k, p in self.items()
        )

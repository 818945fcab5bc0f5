"""The named tuples PyTorch's functions return: ``torch.sort(x)`` is
``torch.return_types.sort(values=..., indices=...)``.

Each is a tuple (unpack it: ``values, indices = x.sort()``; index it: ``r[0]``) whose parts
also have names (``r.values``), and prints as PyTorch's does, one part to a line.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any

__all__ = [
    "return_type", "sort", "topk", "max", "min", "median", "kthvalue", "mode", "cummax",
    "cummin", "aminmax", "nanmedian",
]  # fmt: skip


def return_type(name: str, fields: tuple[str, ...]) -> Any:
    """The named tuple ``microtorch.return_types.<name>`` with parts ``fields``."""

    def __repr__(self: Any) -> str:  # noqa: N807
        parts = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"microtorch.return_types.{name}(\n{parts})"

    cls = type(name, (namedtuple(name, fields),), {"__slots__": (), "__repr__": __repr__})
    cls.__module__ = "microtorch.return_types"
    return cls


# Each class is made on its first read (a module ``__getattr__``, PEP 562): making all eleven
# named tuples took a few percent of ``import microtorch``, for results most cells never see.
_FIELDS = {
    **dict.fromkeys(
        ("sort", "topk", "max", "min", "median", "nanmedian", "kthvalue", "mode", "cummax")
        + ("cummin",),
        ("values", "indices"),
    ),
    "aminmax": ("min", "max"),
}

if TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    sort: Any
    topk: Any
    max: Any
    min: Any
    median: Any
    nanmedian: Any
    kthvalue: Any
    mode: Any
    cummax: Any
    cummin: Any
    aminmax: Any
else:

    def __getattr__(name: str) -> Any:  # noqa: N807 - PEP 562's name
        if name not in _FIELDS:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        made = globals()[name] = return_type(name, _FIELDS[name])  # (once: then a global)
        return made

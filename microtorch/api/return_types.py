"""The named tuples PyTorch's functions return: ``torch.sort(x)`` is
``torch.return_types.sort(values=..., indices=...)``.

Each is a tuple (unpack it: ``values, indices = x.sort()``; index it: ``r[0]``) whose parts
also have names (``r.values``), and prints as PyTorch's does, one part to a line.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

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


sort = return_type("sort", ("values", "indices"))
topk = return_type("topk", ("values", "indices"))
max = return_type("max", ("values", "indices"))  # noqa: A001
min = return_type("min", ("values", "indices"))  # noqa: A001
median = return_type("median", ("values", "indices"))
nanmedian = return_type("nanmedian", ("values", "indices"))
kthvalue = return_type("kthvalue", ("values", "indices"))
mode = return_type("mode", ("values", "indices"))
cummax = return_type("cummax", ("values", "indices"))
cummin = return_type("cummin", ("values", "indices"))
aminmax = return_type("aminmax", ("min", "max"))

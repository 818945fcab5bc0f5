"""Version counters: how backward notices that a value it saved was changed in place.

Every in-place change of a tensor's values (``x.add_(1)``, ``x[0] = 5``, an optimizer step)
counts one more version of its memory; views and ``detach()`` share that memory, so they share
the count. A node records the version of each value it saves, and its backward refuses to run
if that version has moved on (PyTorch's "modified by an inplace operation" error).

The count belongs to the numpy array that owns the memory (a view's ``base``), kept in a dict
keyed by that array's id only once it has been changed in place; until then its version is 0.
So tensors carry no counter object of their own and the graph holds plain numbers, which leaves
Python's garbage collector less to scan. (A difference from PyTorch: ``x.data`` shares the
count too, so changing ``x.data`` in place is noticed, where PyTorch silently uses the new
values: use ``x.detach()``, which behaves the same in both.)
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

__all__ = ["bump_version", "version_of", "changed_by", "record_change"]

# id(owning array) -> [count, name of the op that last changed it with recording on, its output].
# Empty while nothing alive was ever changed in place: then every version is 0.
counters: dict[int, list[Any]] = {}

# Every in-place change anywhere adds 1 here. A node that saved values knows the epoch it saved
# them in: while it is unchanged, no value anywhere has been changed in place since, so
# backward can skip looking at each saved value's version.
epoch = [0]


def _owner(a: np.ndarray) -> np.ndarray:
    # The array that owns the memory: a[1:], a.T or a.reshape(...) are views of it.
    base = a.base
    while isinstance(base, np.ndarray):
        a, base = base, base.base
    return a


def _counter(a: np.ndarray) -> list[Any]:
    owner = _owner(a)
    key = id(owner)
    counter = counters.get(key)
    if counter is None:
        counter = counters[key] = [0]
        weakref.finalize(owner, counters.pop, key, None)  # forget it when the memory goes
    return counter


def version_of(a: np.ndarray) -> int:
    """How many in-place changes the memory of array ``a`` has had."""
    if not counters:  # nothing was ever changed in place (or all of it is gone)
        return 0
    counter = counters.get(id(a if a.base is None else _owner(a)))
    return 0 if counter is None else counter[0]


def bump_version(t: Any) -> None:
    """Count one in-place change of ``t``'s values (its views share the count)."""
    _counter(t._data)[0] += 1
    epoch[0] += 1


def record_change(t: Any, name: str, output_nr: int) -> None:
    """Note which op made ``t`` now, after an in-place op recorded in the graph changed it."""
    _counter(t._data)[1:] = [name, output_nr]


def changed_by(a: np.ndarray) -> tuple[str, int] | None:
    """The op and output that ``record_change`` noted for the memory of ``a``, if any."""
    counter = counters.get(id(_owner(a))) if counters else None
    return None if counter is None or len(counter) < 3 else (counter[1], counter[2])

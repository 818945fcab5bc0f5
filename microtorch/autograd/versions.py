"""Version counters: how backward notices that a value it saved was changed in place.

Every in-place change of a tensor's values (``x.add_(1)``, ``x[0] = 5``, an optimizer step)
counts one more version of its memory. Views and ``detach()`` share that memory, so they share
the count, as in PyTorch. A node records the version of each tensor it saves, and refuses to
hand the tensor to backward once that version has moved on (see ``autograd/saved.py``).

The count belongs to the numpy array that owns the memory (a view's ``base``), kept in a dict
only once that memory has been changed in place; until then its version is 0. So tensors carry
no counter object of their own. (A difference from PyTorch: ``x.data`` shares the count too,
so changing ``x.data`` in place is noticed, where PyTorch silently uses the new values: use
``x.detach()``, which behaves the same in both.)
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

__all__ = ["bump_version", "cast_copy", "original_of", "version_of"]

# id(owning array) -> how many in-place changes its memory has had (absent: none yet).
counters: dict[int, int] = {}


def _owner(a: np.ndarray) -> np.ndarray:
    # The array that owns the memory: a[1:], a.T or a.reshape(...) are views of it.
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


# id(a copy made to cast an operand to the op's dtype) -> the tensor it stands for
stands_for: dict[int, Any] = {}


def version_of(a: np.ndarray) -> int:
    """How many in-place changes the memory of array ``a`` has had."""
    if not counters:  # nothing was changed in place yet
        return 0
    owner = a if a.base is None else _owner(a)  # (a view counts its memory's owner's)
    if stands_for and id(owner) in stands_for:  # a cast copy: the original's count
        owner = _owner(stands_for[id(owner)]._data)
    return counters.get(id(owner), 0)


def original_of(a: np.ndarray) -> Any:
    """The tensor that ``a`` (a copy cast to an op's dtype) stands for, if it is one."""
    return stands_for.get(id(_owner(a)))


def cast_copy(copy: np.ndarray, original: Any) -> None:
    """Count the in-place changes of tensor ``original`` as those of ``copy``, its values cast
    to an op's dtype (PyTorch casts inside the op, and checks the original): a backward that
    saved the copy refuses to run once the original was changed, as PyTorch's does."""
    key = id(copy)
    stands_for[key] = original
    weakref.finalize(copy, stands_for.pop, key, None)


def bump_version(t: Any) -> None:
    """Count one in-place change of tensor ``t``'s values (its views share the count)."""
    data = t._data
    owner = data if data.base is None else _owner(data)  # (a view counts its owner's)
    key = id(owner)
    if key not in counters:
        weakref.finalize(owner, counters.pop, key, None)  # forget the count with the memory
    counters[key] = counters.get(key, 0) + 1

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

__all__ = ["bump_version", "version_of"]

# id(owning array) -> how many in-place changes its memory has had (absent: none yet).
counters: dict[int, int] = {}


def _owner(a: np.ndarray) -> np.ndarray:
    # The array that owns the memory: a[1:], a.T or a.reshape(...) are views of it.
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def version_of(a: np.ndarray) -> int:
    """How many in-place changes the memory of array ``a`` has had."""
    return counters.get(id(_owner(a)), 0) if counters else 0


def bump_version(t: Any) -> None:
    """Count one in-place change of tensor ``t``'s values (its views share the count)."""
    owner = _owner(t._data)
    key = id(owner)
    if key not in counters:
        weakref.finalize(owner, counters.pop, key, None)  # forget the count with the memory
    counters[key] = counters.get(key, 0) + 1

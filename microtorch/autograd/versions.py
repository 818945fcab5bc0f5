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
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "bump_version", "version_of", "changed_by", "record_change", "record_versions",
    "INFERENCE_SAVED_MESSAGE",
]  # fmt: skip

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


INFERENCE_SAVED_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)


def record_versions(
    saved: tuple[Any, ...], inputs: Sequence[Any], results: tuple[Any, ...], raw: bool
) -> tuple[Any, ...] | None:
    """The version of each saved value that is an input's or an output's data, for backward.

    One flat tuple of numbers (epoch, index, version, position, ...), where position is the
    output's number, or -1 - k for the node's input k; None if nothing saved is a tensor.
    """
    # What _search would find, without the search, in the usual cases of a built-in op: it
    # saved its input, its two inputs in order (Mul, Mm), or its one output (Tanh).
    if raw and not inputs[0]._inference:
        n = len(saved)
        first = saved[0]
        if n == 1:
            if first is inputs[0]._data:
                return (epoch[0], 0, version_of(first), -1)
            if len(results) == 1 and first is results[0]._data:
                return (epoch[0], 0, version_of(first), 0)
        elif n == 2 == len(inputs) and first is inputs[0]._data:
            second = saved[1]
            if second is inputs[1]._data and not inputs[1]._inference:
                return (epoch[0], 0, version_of(first), -1, 1, version_of(second), -2)
    return _search(saved, inputs, results, raw)


def _search(
    saved: tuple[Any, ...], inputs: Sequence[Any], results: tuple[Any, ...], raw: bool
) -> tuple[Any, ...] | None:
    # For each saved value that is the data of an input or an output, remember its version,
    # so backward can refuse to use values that were changed in place since. One flat tuple
    # of numbers (epoch, index, version, position, ...), where position is the output's
    # number, or -1 - k for the node's input k: numbers only, so the garbage collector need
    # not scan it. (Counters, not enumerate: this runs for every recorded op, and enumerate
    # objects cost more than the search itself.)
    meta: list[Any] = [epoch[0]]
    index = 0
    for value in saved:
        position = -1
        for t in inputs:
            if t._data is value if raw else t is value:
                if t._inference:
                    raise RuntimeError(INFERENCE_SAVED_MESSAGE)
                meta += (index, version_of(t._data), position)
                break
            position -= 1
        else:
            position = 0
            for t in results:
                if t._data is value if raw else t is value:
                    meta += (index, version_of(t._data), position)
                    break
                position += 1  # noqa: SIM113
        index += 1  # noqa: SIM113
    return tuple(meta) if len(meta) > 1 else None

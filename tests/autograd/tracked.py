"""How many objects the garbage collector tracks per op of a chain ``y = step(y)``."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any


def tracked_objects_per_op(y: Any, step: Callable[[Any], Any], n: int) -> tuple[float, Any]:
    """The fewest new GC-tracked objects per op over three runs of ``n`` steps, and the last y.

    The chain's own count is the same in every run; another thread of the test process (pytest-
    xdist's I/O, for one) can add a few objects during one run, and the fewest leaves those out.
    A first run of ``n`` steps is not measured: anything made once (a module loaded on first use,
    a cache filled) belongs to no op."""
    for _ in range(n):
        y = step(y)
    counts = []
    for _ in range(3):
        gc.collect()
        before = len(gc.get_objects())
        for _ in range(n):
            y = step(y)
        gc.collect()
        counts.append((len(gc.get_objects()) - before) / n)
    return min(counts), y

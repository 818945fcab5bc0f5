"""``@quiet_numpy``: no numpy floating-point warning from inside microtorch.

PyTorch computes ``log(0) = -inf``, ``0 * inf = nan`` and ``exp(1000) = inf`` without a word;
numpy computes the same values but prints ``RuntimeWarning: divide by zero encountered in
log``. The few functions every computation passes through (``NumpyFunction``'s forward call, a
backward pass, gradient accumulation, ``tensor()``, printing) are silenced here, so no op needs
its own ``np.errstate``. It holds only while they run: the student's own numpy still warns
(``np.seterr`` at import would silence it for them too).

``hush()`` / ``unhush(token)`` are what ``np.errstate(all="ignore")`` does on entry and exit,
without building its settings anew each time: numpy (2.0 and later) keeps its error state in a
context variable, so switching it is two C calls, a tenth of ``np.errstate``'s cost, and every
op pays it. numpy 1.x has no such variable: there they fall back to ``np.errstate``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

__all__ = ["quiet_numpy", "hush", "unhush"]

F = TypeVar("F", bound=Callable[..., Any])

try:  # numpy >= 2.0: its error state is a context variable (what np.errstate sets)
    from numpy._core._ufunc_config import (  # type: ignore[attr-defined]
        _extobj_contextvar,
        _make_extobj,
    )

    hush: Callable[[], Any] = functools.partial(_extobj_contextvar.set, _make_extobj(all="ignore"))
    unhush: Callable[[Any], Any] = _extobj_contextvar.reset
except ImportError:  # numpy 1.x

    def hush() -> Any:
        """Start ignoring numpy's floating-point errors; returns what ``unhush`` needs."""
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def unhush(token: Any) -> Any:
        """Back to the numpy error handling in force before the matching ``hush()``."""
        return token.__exit__(None, None, None)


def quiet_numpy(fn: F) -> F:
    """``fn`` with numpy's floating-point warnings off while it runs (nests; per thread)."""

    @functools.wraps(fn)
    def quietly(*args: Any, **kwargs: Any) -> Any:
        token = hush()
        try:
            return fn(*args, **kwargs)
        finally:
            unhush(token)

    return quietly  # type: ignore[return-value]

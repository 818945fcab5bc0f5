"""``@quiet_numpy``: no numpy floating-point warning from inside microtorch.

PyTorch computes ``log(0) = -inf``, ``0 * inf = nan`` and ``exp(1000) = inf`` without a word;
numpy computes the same values but prints ``RuntimeWarning: divide by zero encountered in
log``. The few functions every computation passes through (``NumpyFunction``'s forward and
backward calls, gradient accumulation, ``tensor()``, printing) wear this decorator, so no op
needs its own ``np.errstate``. It holds only while they run: the student's own numpy still
warns (``np.seterr`` at import would silence it for them too).
"""

from __future__ import annotations

import numpy as np

__all__ = ["quiet_numpy"]

quiet_numpy = np.errstate(all="ignore")  # used as a decorator: re-entrant and per thread

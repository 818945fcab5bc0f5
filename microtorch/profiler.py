"""``microtorch.profiler``: PyTorch's newer profiler API over the same small profiler as
``microtorch.autograd.profiler`` (CPU times of microtorch's ops; see that module).

    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        model(x)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))
"""

from __future__ import annotations

import enum
from typing import Any

from microtorch import _coverage
from microtorch.autograd import profiler as _autograd_profiler
from microtorch.autograd.profiler import record_function

__all__ = ["ProfilerActivity", "profile", "record_function"]


class ProfilerActivity(enum.Enum):
    """What to profile: microtorch has CPU times only."""

    CPU = 0
    CUDA = 1


class profile(_autograd_profiler.profile):  # noqa: N801 - PyTorch's name
    """Time microtorch's ops while the ``with`` block runs (``activities`` may name the CPU
    only: there is no GPU here)."""

    def __init__(self, *, activities: Any = None, **kwargs: Any) -> None:
        if activities is not None and ProfilerActivity.CUDA in activities:
            raise NotImplementedError(
                "microtorch profiles the CPU only (Fix: activities=[ProfilerActivity.CPU])"
            )
        super().__init__(True)


__getattr__ = _coverage.module_getattr("torch.profiler", __name__)

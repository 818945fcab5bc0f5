"""Teaching warnings: opt-in hints about likely mistakes that PyTorch silently allows.

They never change what a program computes; they only say what is happening. Off by default,
as PyTorch has no such warnings. Today they cover one mistake: ``backward()`` adding into a
``.grad`` that still holds an earlier ``backward()``'s gradient (a training loop without
``optimizer.zero_grad()``).
"""

from __future__ import annotations

from typing import Any

from microtorch._warn import warn
from microtorch.autograd import grad_mode

__all__ = [
    "set_teaching_warnings",
    "is_teaching_warnings_enabled",
    "warn_stale_grads",
]


def is_teaching_warnings_enabled() -> bool:
    """True while teaching warnings are on."""
    return grad_mode.switches.teaching


class set_teaching_warnings:  # noqa: N801 - named like set_detect_anomaly
    """Turn teaching warnings on or off: ``torch.autograd.set_teaching_warnings(True)``.

    Works as a call or as a context manager (``with set_teaching_warnings(True): ...``).
    """

    def __init__(self, mode: bool = True) -> None:
        self.prev = grad_mode.switches.teaching
        grad_mode.switches.teaching = bool(mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        grad_mode.switches.teaching = self.prev


def warn_stale_grads(nodes: Any) -> None:
    """Warn about leaves whose .grad still holds an earlier backward's result."""
    # Teaching warnings (opt-in): leaves whose .grad still holds an earlier backward's result.
    stale = [  # zeros (zero_grad(set_to_none=False)) are a fresh start, not a leftover
        n.variable
        for n in nodes
        if type(n).__name__ == "AccumulateGrad"
        and n.variable._grad is not None
        and n.variable._grad._data.any()
    ]
    if not stale:
        return
    shapes = ", ".join(str(list(t._data.shape)) for t in stale[:3])
    more = ", ..." if len(stale) > 3 else ""
    warn(
        f"backward() is adding to the .grad of {len(stale)} tensor(s) (shapes {shapes}{more}) "
        "that still hold the gradient of an earlier backward(): gradients accumulate, as in "
        "PyTorch. In a training loop, call optimizer.zero_grad() (or model.zero_grad()) before "
        "loss.backward(). If you are accumulating on purpose, ignore this, or turn these hints "
        "off with torch.autograd.set_teaching_warnings(False).",
    )

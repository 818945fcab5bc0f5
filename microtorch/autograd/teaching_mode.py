"""Teaching warnings: opt-in hints about likely mistakes that PyTorch silently allows.

They never change what a program computes; they only say what is happening. Off by default,
as PyTorch has no such warnings. Today they cover one mistake: ``backward()`` adding into a
``.grad`` that still holds an earlier ``backward()``'s gradient (a training loop without
``optimizer.zero_grad()``).
"""

from __future__ import annotations

from microtorch.autograd import grad_mode

__all__ = ["set_teaching_warnings", "is_teaching_warnings_enabled"]


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

"""Anomaly detection: find the forward operation whose backward produced NaN."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.autograd import grad_mode

__all__ = [
    "detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "check_nan",
    "set_anomaly_enabled", "is_anomaly_check_nan_enabled",
]  # fmt: skip

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../microtorch


def is_anomaly_enabled() -> bool:
    """True while anomaly detection is on."""
    return grad_mode.switches.anomaly


def is_anomaly_check_nan_enabled() -> bool:
    """True unless anomaly detection was turned on with ``check_nan=False``."""
    return grad_mode.switches.anomaly_check_nan


def set_anomaly_enabled(enabled: Any, check_nan: Any = True) -> None:
    """``torch.set_anomaly_enabled``: turn anomaly detection on or off, without the warning
    ``set_detect_anomaly`` gives and without restoring anything later."""
    for position, (name, value) in enumerate((("enabled", enabled), ("check_nan", check_nan)), 1):
        if type(value) is not bool:
            raise TypeError(
                f"set_anomaly_enabled(): argument '{name}' (position {position}) must be bool, "
                f"not {type(value).__name__}"
            )
    grad_mode.switches.anomaly, grad_mode.switches.anomaly_check_nan = enabled, check_nan


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """Turn anomaly detection on or off (a call, or a context manager).

    While it is on, every operation remembers where in your code it was created, and a
    backward that produces NaN raises an error naming that operation and the line of your code
    that created it (the whole forward traceback comes as a warning, as in PyTorch).
    ``check_nan=False`` keeps the tracebacks but does not check for NaN.
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        switches = grad_mode.switches
        self.prev = (switches.anomaly, switches.anomaly_check_nan)
        switches.anomaly, switches.anomaly_check_nan = bool(mode), bool(check_nan)
        if mode:
            warn(
                "Anomaly Detection has been enabled. This mode will increase the runtime and "
                "should only be enabled for debugging.",
            )

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        grad_mode.switches.anomaly, grad_mode.switches.anomaly_check_nan = self.prev


class detect_anomaly(set_detect_anomaly):  # noqa: N801
    """``with torch.autograd.detect_anomaly():`` turns anomaly detection on for the block."""

    def __init__(self, check_nan: bool = True) -> None:
        super().__init__(True, check_nan)


def forward_stack() -> Any:
    """The stack of the code that called ``Function.apply``, outwards: what anomaly mode keeps
    of each operation's forward (a ``traceback.StackSummary``)."""
    from traceback import extract_stack  # (on first use: only anomaly mode reads stacks)

    return extract_stack()[:-3]  # (less this function, Function.new_node and apply)


def check_nan(node: Any, grad_inputs: tuple[Any, ...]) -> None:
    """Raise PyTorch's anomaly error if this node's backward produced NaN."""
    # PyTorch's error and warning, plus the line of the user's code that made the operation.

    for i, g in enumerate(grad_inputs):
        if g is not None and np.issubdtype(g.dtype, np.floating) and np.isnan(g).any():
            from traceback import format_list  # (on first use, as in forward_stack)

            stack = _user_stack(node._trace)
            where = (
                "".join(format_list(stack))
                if stack
                else "(the forward ran before anomaly detection was enabled)\n"
            )
            warn(
                f"Error detected in {node.name()}. Traceback of forward call that caused the "
                f"error:\n{where}",
            )
            raise RuntimeError(
                f"Function '{node.name()}' returned nan values in its {i}th output."
                + _created_at(stack[-1] if stack else None)
            )


def _user_stack(stack: Any) -> list[Any]:
    # The forward's stack up to the innermost frame outside microtorch (the student's line):
    # like PyTorch's, whose operations run in C++, it ends in the user's code.
    frames = list(stack or ())
    while frames and os.path.abspath(frames[-1].filename).startswith(_PACKAGE + os.sep):
        frames.pop()
    return frames


def _created_at(user: Any) -> str:
    if user is None:
        return (
            " (Fix: turn anomaly detection on before the forward pass, so the error can name "
            "the line that created this operation.)"
        )
    code = f": {user.line.strip()}" if user.line else ""
    return (
        f" It was created at {user.filename}:{user.lineno}, in {user.name}{code} (Fix: a "
        "NaN gradient usually comes from log, sqrt, division or pow of 0, of a negative "
        "number, or of inf; check the values going into that line, e.g. clamp them.)"
    )

"""Anomaly detection: find the forward operation whose backward produced NaN."""

from __future__ import annotations

import warnings

from microtorch.autograd import grad_mode

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled"]


def is_anomaly_enabled() -> bool:
    """True while anomaly detection is on."""
    return grad_mode.switches.anomaly


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
            warnings.warn(
                "Anomaly Detection has been enabled. This mode will increase the runtime and "
                "should only be enabled for debugging.",
                UserWarning,
                stacklevel=2 if type(self) is set_detect_anomaly else 3,
            )

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        grad_mode.switches.anomaly, grad_mode.switches.anomaly_check_nan = self.prev


class detect_anomaly(set_detect_anomaly):  # noqa: N801
    """``with torch.autograd.detect_anomaly():`` turns anomaly detection on for the block."""

    def __init__(self, check_nan: bool = True) -> None:
        super().__init__(True, check_nan)

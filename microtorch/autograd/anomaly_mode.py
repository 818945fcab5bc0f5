"""Anomaly detection: find the forward operation whose backward produced NaN."""

from __future__ import annotations

from microtorch.autograd import grad_mode

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled"]


def is_anomaly_enabled() -> bool:
    """True while anomaly detection is on."""
    return grad_mode.state.anomaly


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """Turn anomaly detection on or off (a call, or a context manager).

    While it is on, every operation remembers where in your code it was created, and a
    backward that produces NaN raises an error naming that operation and printing that place.
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = grad_mode.state.anomaly
        grad_mode.state.anomaly = bool(mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        grad_mode.state.anomaly = self.prev


class detect_anomaly(set_detect_anomaly):  # noqa: N801
    """``with torch.autograd.detect_anomaly():`` turns anomaly detection on for the block."""

    def __init__(self, check_nan: bool = True) -> None:
        super().__init__(True, check_nan)

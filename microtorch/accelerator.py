"""``microtorch.accelerator``: there is no GPU or other accelerator here, as PyTorch reports
on a CPU-only machine (``device = torch.accelerator.current_accelerator() or "cpu"``)."""

from __future__ import annotations

from microtorch.device import device

__all__ = ["is_available", "current_accelerator", "device_count"]


def is_available() -> bool:
    """False: microtorch computes on the CPU only."""
    return False


def current_accelerator(check_available: bool = False) -> device | None:
    """None: no accelerator."""
    return None


def device_count() -> int:
    """0: no accelerators."""
    return 0

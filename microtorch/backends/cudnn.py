"""``torch.backends.cudnn`` on a machine without CUDA: settable flags that change nothing."""

from __future__ import annotations

__all__ = ["is_available", "version", "enabled", "deterministic", "benchmark", "allow_tf32"]

enabled = True  # (PyTorch's defaults)
deterministic = False
benchmark = False
allow_tf32 = True


def is_available() -> bool:
    """False: there is no cuDNN without a GPU."""
    return False


def version() -> None:
    """None: no cuDNN library is loaded."""
    return None

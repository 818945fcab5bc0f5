"""``torch.backends.mps``: Apple's GPU backend, which microtorch does not have."""

from __future__ import annotations

__all__ = ["is_available", "is_built"]


def is_available() -> bool:
    """False: microtorch computes on the CPU only."""
    return False


def is_built() -> bool:
    """False: microtorch has no MPS backend."""
    return False

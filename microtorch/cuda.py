"""``microtorch.cuda``: there is no GPU here; these answer as PyTorch does on a CPU-only machine.

Beginner code often starts with ``device = "cuda" if torch.cuda.is_available() else "cpu"``;
with microtorch that picks ``"cpu"``, as PyTorch does on a machine without a GPU.
"""

from __future__ import annotations

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all"]


def is_available() -> bool:
    """False: microtorch computes on the CPU only."""
    return False


def device_count() -> int:
    """0: no GPUs."""
    return 0


def manual_seed(seed: int) -> None:
    """Does nothing (there is no GPU generator to seed), as in PyTorch without CUDA."""


def manual_seed_all(seed: int) -> None:
    """Does nothing (there is no GPU generator to seed), as in PyTorch without CUDA."""

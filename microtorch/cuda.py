"""``microtorch.cuda``: there is no GPU here; these answer as PyTorch does on a CPU-only machine.

Beginner code often starts with ``device = "cuda" if torch.cuda.is_available() else "cpu"``;
with microtorch that picks ``"cpu"``, as PyTorch does on a machine without a GPU.
"""

from __future__ import annotations

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all", "Event", "Stream"]


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


class Event:
    """A CUDA timing event: PyTorch's CPU-only build refuses to make one, and so does this."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError(
            "Tried to instantiate dummy base class Event\n(Fix: there is no GPU here; time the "
            "code with time.perf_counter)"
        )


class Stream:
    """A CUDA stream: refused, as in PyTorch's CPU-only build."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError(
            "torch.cuda.Stream requires CUDA support\n(Fix: there is no GPU here; run the code "
            "without streams)"
        )

"""``microtorch.random``: the global generator's seed and state, as ``torch.random``.

``torch.random.manual_seed(0)`` is ``torch.manual_seed(0)``. ``get_rng_state()`` returns the
state as a uint8 tensor (here the 37 bytes of numpy's PCG64 generator, not PyTorch's 5056
of its Mersenne Twister) which ``set_rng_state`` takes back, so a saved state replays the
same draws.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from microtorch.autograd import node as _node
from microtorch.creation import Generator, default_generator, manual_seed, seed

__all__ = [
    "Generator", "default_generator", "manual_seed", "seed", "initial_seed", "get_rng_state",
    "set_rng_state", "fork_rng",
]  # fmt: skip


def initial_seed() -> int:
    """The seed the global generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    """The global generator's state, as a uint8 tensor."""
    state = default_generator.get_state()
    words = (state["state"]["state"], state["state"]["inc"])
    data = b"".join(w.to_bytes(16, "little") for w in words)
    data += bytes([state["has_uint32"]]) + state["uinteger"].to_bytes(4, "little")
    return _node.plain_tensor(np.frombuffer(data, np.uint8).copy())


def set_rng_state(new_state: Any) -> None:
    """Restore a state ``get_rng_state()`` returned."""
    if not isinstance(new_state, _node.Tensor):
        raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
    if new_state._data.dtype != np.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    data = new_state._data.tobytes()
    if len(data) != 37:
        raise RuntimeError(
            "this is not a state microtorch's get_rng_state() returned (Fix: a state saved by "
            "PyTorch does not fit microtorch's generator)"
        )
    words = {
        "state": int.from_bytes(data[:16], "little"),
        "inc": int.from_bytes(data[16:32], "little"),
    }
    default_generator.set_state(
        {"bit_generator": "PCG64", "state": words, "has_uint32": data[32],
         "uinteger": int.from_bytes(data[33:], "little")}
    )  # fmt: skip


@contextmanager
def fork_rng(
    devices: Any = None,
    enabled: bool = True,
    _caller: str = "fork_rng",
    _devices_kw: str = "devices",
    device_type: Any = None,
) -> Iterator[None]:
    """``with torch.random.fork_rng():`` draws inside do not change the global generator:
    its state is saved on entry and restored on exit (microtorch has the CPU's only, so
    ``devices`` and ``device_type`` change nothing)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)

"""What PyTorch lets a program set for its whole process: threads and deterministic algorithms.

microtorch keeps each setting and answers as PyTorch does, so code that sets or asks for them
runs unchanged. Neither changes a result: numpy chooses its own threads, and every microtorch
op is deterministic already.
"""

from __future__ import annotations

import builtins
import os
from typing import Any

__all__ = [
    "get_num_threads", "set_num_threads", "use_deterministic_algorithms",
    "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
]  # fmt: skip

_settings: dict[str, Any] = {
    "threads": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1,
    "deterministic": False,
    "warn_only": False,
}


def get_num_threads() -> int:
    """The number of threads PyTorch would use for one op (the CPUs, until set)."""
    return _settings["threads"]


def set_num_threads(int: Any) -> None:  # noqa: A002 - PyTorch's name
    """Remember ``int`` as the number of threads (numpy picks its own: no result changes)."""
    if type(int) is not builtins.int:  # (a bool is refused too, as PyTorch)
        raise RuntimeError(f"set_num_threads expects an int, but got {type(int).__name__}")
    if int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _settings["threads"] = int


def use_deterministic_algorithms(mode: Any, *, warn_only: Any = False) -> None:
    """Ask for deterministic algorithms (microtorch's are, always: nothing else changes)."""
    for position, (name, value) in enumerate((("mode", mode), ("warn_only", warn_only)), 1):
        if type(value) is not bool:
            where = f" (position {position})" if name == "mode" else ""
            raise TypeError(
                f"_set_deterministic_algorithms(): argument '{name}'{where} must be bool, not "
                f"{type(value).__name__}"
            )
    _settings["deterministic"], _settings["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    """True after ``use_deterministic_algorithms(True)``."""
    return _settings["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """True after ``use_deterministic_algorithms(True, warn_only=True)``."""
    return _settings["warn_only"]

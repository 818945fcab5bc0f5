"""What PyTorch lets a program set for its whole process: threads and deterministic algorithms.

microtorch keeps each setting and answers as PyTorch does, so code that sets or asks for them
runs unchanged. Neither changes a result: numpy chooses its own threads, and every microtorch
op is deterministic already.
"""

from __future__ import annotations

import builtins
import os
from typing import Any

from microtorch._warn import warn

__all__ = [
    "get_num_threads", "set_num_threads", "use_deterministic_algorithms",
    "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
    "get_num_interop_threads", "set_num_interop_threads", "get_float32_matmul_precision",
    "set_float32_matmul_precision", "set_flush_denormal", "get_deterministic_debug_mode",
    "set_deterministic_debug_mode", "is_warn_always_enabled", "set_warn_always",
]  # fmt: skip

_settings: dict[str, Any] = {
    "threads": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1,
    "deterministic": False,
    "warn_only": False,
    "interop_threads": None,  # (None until set: PyTorch's default is the CPUs)
    "matmul_precision": "highest",
    "warn_always": False,
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


def get_num_interop_threads() -> int:
    """The threads PyTorch would use between ops (the CPUs, until set)."""
    threads = _settings["interop_threads"]
    return _settings["threads"] if threads is None else threads


def set_num_interop_threads(int: Any) -> None:  # noqa: A002 - PyTorch's name
    """Remember ``int`` (once per process, as PyTorch; no result changes)."""
    if type(int) is not builtins.int:
        raise RuntimeError(f"set_num_interop_threads expects an int, but got {type(int).__name__}")
    if int <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    if _settings["interop_threads"] is not None:
        raise RuntimeError(
            "Error: cannot set number of interop threads after parallel work has started or "
            "set_num_interop_threads called"
        )
    _settings["interop_threads"] = int


def get_float32_matmul_precision() -> str:
    """'highest' (the default), 'high' or 'medium'; microtorch's float32 products are always
    computed in float32 ('highest')."""
    return _settings["matmul_precision"]


def set_float32_matmul_precision(precision: Any) -> None:
    """Remember the precision float32 matrix products may use (microtorch's use 'highest')."""
    if not isinstance(precision, str):
        raise RuntimeError(
            f"set_float32_matmul_precision expects a str, but got {type(precision).__name__}"
        )
    if precision not in ("highest", "high", "medium"):
        warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
            "setFloat32MatmulPrecision call has no effect.",
        )
        return
    _settings["matmul_precision"] = precision


def set_flush_denormal(mode: Any) -> bool:
    """PyTorch flushes denormal floats to zero where the CPU can; numpy cannot, so this
    returns False ("not supported", as PyTorch on such a CPU) and nothing changes."""
    if type(mode) is not bool:
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    return False


_DEBUG_MODES = ("default", "warn", "error")


def get_deterministic_debug_mode() -> int:
    """0 (default), 1 (warn) or 2 (error), from ``use_deterministic_algorithms``."""
    if not _settings["deterministic"]:
        return 0
    return 1 if _settings["warn_only"] else 2


def set_deterministic_debug_mode(debug_mode: Any) -> None:
    """``use_deterministic_algorithms`` by another name: 0/'default' off, 1/'warn' warn only,
    2/'error' on."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(
                "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but "
                f"got {debug_mode}"
            )
        debug_mode = _DEBUG_MODES.index(debug_mode)
    elif isinstance(debug_mode, builtins.int):
        if debug_mode not in (0, 1, 2):
            raise RuntimeError(
                f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}"
            )
    else:
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def is_warn_always_enabled() -> bool:
    """True after ``set_warn_always(True)``."""
    return _settings["warn_always"]


def set_warn_always(b: Any, /) -> None:
    """Remember whether warnings PyTorch gives once should be given every time."""
    if type(b) is not bool:
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _settings["warn_always"] = b

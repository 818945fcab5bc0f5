"""Grad mode: whether operations record a graph. ``no_grad`` and friends, as in PyTorch."""

from __future__ import annotations

import functools
from _thread import _local as thread_local  # (threading.local, without threading)
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "set_multithreading_enabled",
]

F = TypeVar("F", bound=Callable[..., Any])


class _State(thread_local):
    # Per thread, as in PyTorch: a no_grad block in one thread does not affect another.
    grad_enabled = True
    inference = False


state = _State()


class _Switches:
    # For the whole process, as PyTorch's anomaly mode is. (Not thread-local: reading a
    # threading.local costs ~5x a plain attribute, and Function.apply reads these per op.)
    __slots__ = ("anomaly", "anomaly_check_nan", "teaching", "create_graph")

    def __init__(self) -> None:
        self.anomaly = False  # set by autograd.anomaly_mode; read by Function.apply, the engine
        self.anomaly_check_nan = True  # set_detect_anomaly(True, check_nan=False): traces only
        self.teaching = False  # autograd.set_teaching_warnings: hints about likely mistakes
        self.create_graph = False  # a backward pass with create_graph=True is running


switches = _Switches()


def is_grad_enabled() -> bool:
    """True when new operations record a graph (the default)."""
    return state.grad_enabled


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()``."""
    return state.inference


class _GradModeContext:
    """Base for the context managers below; each also works as a decorator."""

    def __call__(self, func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.__class__(*self._args()):
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def _args(self) -> tuple[Any, ...]:
        return ()

    def __enter__(self) -> None:
        self._prev = (state.grad_enabled, state.inference)
        self._set()

    def __exit__(self, *exc: object) -> None:
        state.grad_enabled, state.inference = self._prev

    def _set(self) -> None:
        raise NotImplementedError


class no_grad(_GradModeContext):  # noqa: N801 - PyTorch's name
    """Operations inside do not record a graph: results have ``requires_grad=False``.

    Use it as ``with torch.no_grad():``, ``@torch.no_grad()`` or ``@torch.no_grad``.
    """

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Any:
        if orig_func is not None:  # used as a bare decorator, @torch.no_grad
            return cls()(orig_func)
        return super().__new__(cls)

    def _set(self) -> None:
        state.grad_enabled = False


class enable_grad(_GradModeContext):  # noqa: N801
    """Turn graph recording back on inside a ``no_grad`` block."""

    def _set(self) -> None:
        state.grad_enabled = True


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """Switch graph recording on or off: a function call, a context manager or a decorator."""

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self._prev = (state.grad_enabled, state.inference)
        state.grad_enabled = self.mode  # like PyTorch, calling it as a function takes effect

    def _args(self) -> tuple[Any, ...]:
        return (self.mode,)

    def __enter__(self) -> None:
        pass  # already set in __init__; __exit__ restores what was before

    def _set(self) -> None:
        state.grad_enabled = self.mode


class inference_mode(_GradModeContext):  # noqa: N801
    """Like ``no_grad``, and tensors created inside are inference tensors.

    Inference tensors can never join a graph later; PyTorch uses this to skip bookkeeping.
    """

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def _args(self) -> tuple[Any, ...]:
        return (self.mode,)

    def _set(self) -> None:
        if self.mode:
            state.grad_enabled = False
            state.inference = True


class _Threading(thread_local):
    multithreading = True  # (per thread, as PyTorch's)


_threading = _Threading()


class set_multithreading_enabled(_GradModeContext):  # noqa: N801
    """Whether backward may run on worker threads (a call, a context manager or a decorator).

    microtorch's backward always runs on the calling thread: the setting is kept (and restored
    on exit) so that code setting it runs unchanged; no result changes.
    """

    def __init__(self, mode: bool) -> None:
        self.mode = mode
        self.prev = _threading.multithreading
        _threading.multithreading = bool(mode)  # (like PyTorch: calling it takes effect)

    def _args(self) -> tuple[Any, ...]:
        return (self.mode,)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _threading.multithreading = self.prev

    def clone(self) -> set_multithreading_enabled:
        """A copy of this context manager."""
        return self.__class__(self.mode)

"""Callbacks that fail say so inside the widget, in an ``Output`` area, instead of vanishing."""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["report_errors"]

F = TypeVar("F", bound=Callable[..., Any])


def report_errors(output: Any) -> Callable[[F], F]:
    """Decorate a callback so an exception's traceback is appended to ``output`` (an Output)."""

    def decorate(callback: F) -> F:
        @functools.wraps(callback)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return callback(*args, **kwargs)
            except Exception as error:  # shown to the student; a widget callback has no caller
                text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
                output.append_stderr(text)
                return None

        return guarded  # type: ignore[return-value]

    return decorate

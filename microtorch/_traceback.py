"""In IPython and JupyterLab, an error shows the student's line and the message, not our frames.

PyTorch's errors come from C++, so a notebook shows the line that called PyTorch and the
message. microtorch's come from Python, and IPython would list every microtorch frame on the
way (``creation.py``, ``quiet.py``, ``tensor.py`` ... for one ``torch.tensor([1, 2],
requires_grad=True)``). IPython's own ``__tracebackhide__`` cannot hide them: it reads the
variable from each frame's *locals* only (``IPython/core/ultratb.py``), so a module-level one
counts for nothing, and it always shows the innermost frame, which is where microtorch raises.

So ``hide_frames_in_ipython()``, called once by ``microtorch/__init__.py``, gives the running
IPython shell (if any) a handler, through IPython's public ``set_custom_exc``, that leaves out
every frame of a module named ``microtorch`` or ``microtorch.*`` and shows the rest exactly as
IPython would. No core module needs a line of its own: a new module is covered by its name.
Frames of the student's own code that microtorch calls (a ``forward``, a hook) stay.

This module never imports IPython: it only talks to a shell that is already running. Outside
IPython (plain ``python``, pytest) nothing changes. ``%xmode --show`` shows every frame again
(IPython's switch for hidden frames), ``%xmode --hide`` hides them; ``%debug`` and
``sys.last_traceback`` keep every frame. ``MICROTORCH_FULL_TRACEBACKS=1`` in the environment of
the kernel (say, to debug a chapter that fails under nbval) leaves IPython as it is.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any

__all__ = ["hide_frames_in_ipython", "is_library_frame", "without_library_frames"]

PACKAGE = __name__.partition(".")[0]  # "microtorch"


def is_library_frame(frame: FrameType) -> bool:
    """True for a frame running code of microtorch itself (any of its modules)."""
    name = frame.f_globals.get("__name__")
    return isinstance(name, str) and name.partition(".")[0] == PACKAGE


def without_library_frames(tb: TracebackType | None) -> TracebackType | None:
    """A new traceback with ``tb``'s frames minus microtorch's (``tb`` itself is unchanged)."""
    kept = []
    while tb is not None:
        if not is_library_frame(tb.tb_frame):
            kept.append(tb)
        tb = tb.tb_next
    trimmed = None
    for entry in reversed(kept):
        trimmed = TracebackType(trimmed, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return trimmed


@contextmanager
def _chain_trimmed(error: BaseException) -> Iterator[None]:
    # IPython formats a __cause__ / __context__ from its own __traceback__: trim those too,
    # only while it formats, so the exception objects keep their full tracebacks.
    saved, seen = [], set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        if link is not error:
            saved.append((link, link.__traceback__))
            link.__traceback__ = without_library_frames(link.__traceback__)
        link = link.__cause__ or (None if link.__suppress_context__ else link.__context__)
    try:
        yield
    finally:
        for link, tb in saved:
            link.__traceback__ = tb


def _show_without_library_frames(
    shell: Any, etype: type[BaseException], value: BaseException, tb: Any, tb_offset: Any = None
) -> None:
    if not getattr(shell.InteractiveTB, "skip_hidden", True):  # %xmode --show
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return
    with _chain_trimmed(value):
        shell.showtraceback((etype, value, without_library_frames(tb)), tb_offset=tb_offset)
    sys.last_traceback = tb  # %debug and post-mortem tools still get every frame


def hide_frames_in_ipython() -> bool:
    """Make the running IPython shell leave microtorch's frames out of tracebacks.

    Returns True if it did (or had already). Does nothing outside IPython, and nothing if
    another handler was set with ``set_custom_exc`` first (that one stays in charge).
    """
    if os.environ.get("MICROTORCH_FULL_TRACEBACKS") == "1":
        return False
    ipython = sys.modules.get("IPython")  # only a shell that is already running, never import
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    if getattr(shell, "_microtorch_hides_frames", False):
        return True
    if tuple(getattr(shell, "custom_exceptions", ())):
        return False
    shell.set_custom_exc((Exception,), _show_without_library_frames)
    shell._microtorch_hides_frames = True
    return True

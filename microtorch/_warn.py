"""One way for microtorch to warn: at the student's line, where PyTorch's warnings appear.

``warnings.warn(text, stacklevel=n)`` names the line n frames up, and a fixed n is right for one
call path only (a method, a function, a module's ``forward``, ``backward()``). ``warn`` counts
the frames itself: it names the first line outside microtorch, the one the student wrote.
"""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType

__all__ = ["warn"]

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(text: str, category: type[Warning] = UserWarning) -> None:
    """Show ``text`` as a ``category`` warning of the first line outside microtorch."""
    frame: FrameType | None = sys._getframe(1)
    level = 2  # warn's caller
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(text, category, stacklevel=level)

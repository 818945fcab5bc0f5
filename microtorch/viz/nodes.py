"""Read an autograd node of either library: microtorch's or PyTorch's (duck-typed, never imported).

Both expose ``name()`` and ``next_functions``; the rest differs, so every access that one library
lacks is a ``getattr`` with a default. PyTorch's ``_input_metadata`` is private API: it is only
read to show an intermediate's shape and is allowed to be missing.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "is_accumulate",
    "next_nodes",
    "node_name",
    "op_name",
    "output_meta",
    "saved_tensors",
    "scope",
]

_BACKWARD_SUFFIX = re.compile(r"Backward\d*$")


def node_name(node: Any) -> str:
    """PyTorch's name for the node, e.g. ``MulBackward0``; ``torch::autograd::`` is dropped."""
    return str(node.name()).rsplit("::", 1)[-1]


def op_name(node: Any) -> str:
    """The forward operation's name: ``MulBackward0`` -> ``Mul``."""
    return _BACKWARD_SUFFIX.sub("", node_name(node)) or node_name(node)


def is_accumulate(node: Any) -> bool:
    """True for the ``AccumulateGrad`` node that writes a leaf's ``.grad``."""
    return node_name(node) == "AccumulateGrad"


def next_nodes(node: Any) -> list[Any]:
    """The nodes feeding this one, in input order; inputs that need no gradient are skipped."""
    return [fn for fn, _ in node.next_functions if fn is not None]


def scope(node: Any) -> str | None:
    """The ``nn.Module`` path (e.g. ``"fc1"``) whose forward created the node, if recorded."""
    value = getattr(node, "_scope", None)
    return value if isinstance(value, str) and value else None


def output_meta(node: Any) -> tuple[tuple[int, ...], Any] | None:
    """Shape and dtype of the node's output from PyTorch's metadata, or None if not recorded."""
    metadata = getattr(node, "_input_metadata", None)  # PyTorch: one entry per forward output
    if not metadata:
        return None
    first = metadata[0]
    return tuple(int(d) for d in first.shape), first.dtype


def saved_tensors(node: Any) -> list[tuple[str, Any]] | None:
    """``(name, tensor)`` pairs saved for backward, ``[]`` if none, None if already freed."""
    try:
        if hasattr(node, "saved_tensors"):  # microtorch: ctx.saved_tensors
            saved = node.saved_tensors  # (None where a gradient nobody needs would use it)
            return [(f"saved[{i}]", t) for i, t in enumerate(saved) if t is not None]
        found = []
        for attr in sorted(a for a in dir(node) if a.startswith("_saved_")):
            value = getattr(node, attr)  # PyTorch: _saved_self, _saved_other, _saved_result...
            if hasattr(value, "grad_fn") and hasattr(value, "shape"):  # tensors, not ints
                found.append((attr.removeprefix("_saved_"), value))
        return found
    except RuntimeError:  # both libraries raise this once backward has freed the buffers
        return None

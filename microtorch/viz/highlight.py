"""Highlighting as data: which nodes and edges are current, done or pending, and extra labels.

A step-through widget keeps one ``Graph`` and makes a new ``Highlight`` per step; ``to_dot``
then changes only attributes, never the order of statements, so each step re-styles one layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["Highlight"]


@dataclass(frozen=True)
class Highlight:
    """Node and edge ids by state, plus ``labels`` (id -> text, e.g. a gradient on an edge).

    >>> Highlight(current={"n1"}, done={"n0", "e0"}).state("e0")
    'done'
    """

    current: AbstractSet[str] = frozenset()
    done: AbstractSet[str] = frozenset()
    pending: AbstractSet[str] = frozenset()
    labels: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        # frozen copies, so a caller's later edits cannot change a highlight already drawn
        for name in ("current", "done", "pending"):
            object.__setattr__(self, name, frozenset(getattr(self, name)))
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))

    def state(self, item_id: str) -> str | None:
        """``"current"``, ``"done"``, ``"pending"`` or None; current wins over done over pending."""
        for name in ("current", "done", "pending"):
            if item_id in getattr(self, name):
                return name
        return None

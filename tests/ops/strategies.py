"""Hypothesis strategies: broadcastable shape pairs like (3, 1)/(1, 4), (2, 3)/(3,), ()/(2, 2)."""

from __future__ import annotations

from hypothesis import strategies as st

Shape = tuple[int, ...]


@st.composite
def broadcastable_shape(draw: st.DrawFn, target: Shape) -> Shape:
    """A shape that broadcasts to ``target``: some leading dims dropped, some sizes set to 1."""
    keep = draw(st.integers(0, len(target)))
    tail = target[len(target) - keep :]
    return tuple(draw(st.sampled_from([n, 1])) for n in tail)


@st.composite
def broadcastable_pairs(
    draw: st.DrawFn, max_dims: int = 3, max_side: int = 4
) -> tuple[Shape, Shape]:
    """Two shapes that broadcast together (to a shape of at most ``max_dims`` dims)."""
    target = draw(st.lists(st.integers(1, max_side), max_size=max_dims).map(tuple))
    return draw(broadcastable_shape(target)), draw(broadcastable_shape(target))


@st.composite
def broadcast_to_pairs(
    draw: st.DrawFn, max_dims: int = 4, max_side: int = 4
) -> tuple[Shape, Shape]:
    """``(shape, target)`` where ``shape`` broadcasts to ``target``: what ``unbroadcast`` undoes."""
    target = draw(st.lists(st.integers(1, max_side), max_size=max_dims).map(tuple))
    return draw(broadcastable_shape(target)), target

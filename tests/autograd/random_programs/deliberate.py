"""The documented differences (README, "Where microtorch differs"), each matched precisely."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .compare import STATEMENT_KINDS, Mismatch, Side, is_tensor


@dataclass(frozen=True)
class Deliberate:
    """A documented difference (README): ``matches(program, index, mismatches)``."""

    name: str
    description: str
    matches: Callable[[Sequence[str], int, list[Mismatch], Side], bool]


def _data_names(program: Sequence[str], upto: int) -> set[str]:
    """Names bound to some ``x.data``, and the ``x``s: memory whose count microtorch shares."""
    names: set[str] = set()
    for line in program[:upto]:
        match = re.fullmatch(r"(t\d+) = (t\d+)\.data", line)
        if match:
            names.update(match.groups())
    return names


def _shares_memory_with(side: Side, name: str, others: set[str]) -> bool:
    values = side.tensors()
    if name not in values or not is_tensor(values[name]):
        return False
    ptr = values[name].untyped_storage().data_ptr()
    return any(
        is_tensor(values.get(o)) and values[o].untyped_storage().data_ptr() == ptr for o in others
    )


def _data_shares_version(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> bool:
    # x.data shares x's version count in microtorch: versions of memory reached through a
    # `.data` differ, and a backward that saved it raises where PyTorch silently goes on.
    data = _data_names(program, i + 1)
    if not data:
        return False
    raised = _raised_alone(mm)
    if raised is not None:
        return (
            raised.kind == "error-extra"
            and "modified by an inplace operation" in raised.microtorch
            and _changed_through_data(program, i, data, t)
        )
    # ... and a view of that memory gets AsStridedBackward0, as after any in-place change
    return all(
        (m.kind == "_version" or m.kind in ("grad_fn", "is_leaf") and _renewed(m.microtorch))
        and _shares_memory_with(t, m.name, data)
        for m in mm
    )


def _renewed(value: str) -> bool:
    # A view of memory changed in place renews its grad_fn, or, if it came from unbind or
    # split, refuses to give one (PyTorch's error): the consequences of a counted change.
    return "AsStridedBackward0" in value or "its base or another view of its base" in value


def _changed_through_data(program: Sequence[str], i: int, data: set[str], t: Side) -> bool:
    """Whether a statement before ``i`` changed, in place, memory reached through a ``.data``."""
    for line in program[:i]:
        match = INPLACE.match(line)
        if match and _shares_memory_with(t, match.group(1), data):
            return True
    return False


def _raised_alone(mm: list[Mismatch]) -> Mismatch | None:
    """The statement's own mismatch when microtorch raised (and PyTorch did not, or raised
    something else); the state differences that follow from it are then expected."""
    own = [
        m
        for m in mm
        if m.kind in STATEMENT_KINDS or m.kind in ("warning", "warning-location", "numpy-warning")
    ]
    if len(own) == 1 and own[0].kind in ("error-extra", "error-type", "error-text"):
        return own[0]
    return None


def _create_graph_names(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> bool:
    # the gradient's top node, where microtorch's formula is written with other ops than
    # PyTorch's (np.where for its masked_fill, a reshape for its unsqueeze; the list is
    # NAME_DIFFERENCES in tests/autograd/test_create_graph.py): values are still compared
    return "create_graph=True" in program[i] and bool(mm) and all(m.kind == "grad_fn" for m in mm)


def _overlap_order(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> bool:
    raised = _raised_alone(mm)
    return (
        raised is not None
        and raised.kind == "error-extra"
        and "the result would depend on the order in which the elements are written"
        in raised.microtorch
    )


def _signed_zero(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> bool:
    # Values that agree but for the sign of zeros or infinities: where -0.0 and 0.0 tie (in
    # max, amax, a sum of zeros...) each library may return either, and a division by that
    # zero gives -inf in one, inf in the other. (PyTorch's own max and amax differ here.)
    return bool(mm) and all(
        m.kind in ("value", "grad") and _same_but_signs(m.torch, m.microtorch) for m in mm
    )


def _same_but_signs(theirs: str, ours: str) -> bool:
    # (zeros of either sign compare equal: only infinities of opposite signs differ)
    a, b = _parsed(theirs), _parsed(ours)
    if a is None or b is None or a.shape != b.shape:
        return False
    differ = (a != b) & ~(np.isnan(a) & np.isnan(b))
    if not differ.any():
        return False
    magnitude = np.abs(a[differ])
    return bool(np.all((magnitude == np.abs(b[differ])) & np.isinf(magnitude)))


def _parsed(shown: str) -> np.ndarray | None:
    # "[[0.0, -inf], [nan, 1.5]] (float32)" -> an array (None if it is not such a value)
    match = re.fullmatch(r"(.*) \((float16|float32|float64)\)", shown)
    if match is None:
        return None
    text = re.sub(r"\binf\b", "Infinity", re.sub(r"\bnan\b", "NaN", match.group(1)))
    try:
        return np.asarray(json.loads(text), dtype=np.float64)  # (json reads NaN, Infinity)
    except (ValueError, TypeError):
        return None


def _zero_dim_select(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> bool:
    # x[k] (k not 0) of a 0-d x: PyTorch's IndexError says "index k is out of bounds for
    # dimension 0 with size 0" for most results, "select() cannot be applied to a 0-dim
    # tensor." for some (mse_loss's, binary_cross_entropy's): microtorch always the first.
    raised = _raised_alone(mm)
    return (
        raised is not None
        and raised.kind == "error-text"
        and raised.torch == "select() cannot be applied to a 0-dim tensor."
        and re.match(
            r"IndexError: index -?\d+ is out of bounds for dimension 0 with size 0$",
            "IndexError: " + raised.microtorch,
        )
        is not None
    )


INPLACE = re.compile(r"(?:with torch\.no_grad\(\): )?(t\d+)(?:\.\w+_\(|\[.*\] = | \S+= )")


DELIBERATE: tuple[Deliberate, ...] = (
    Deliberate(
        "data-shares-version",
        "an in-place change through x.data counts as a change of x (README)",
        _data_shares_version,
    ),
    Deliberate(
        "create-graph-names",
        "create_graph=True: a gradient's top node where microtorch's formula is written with "
        "other ops than PyTorch's (README; NAME_DIFFERENCES in tests/autograd/"
        "test_create_graph.py)",
        _create_graph_names,
    ),
    Deliberate(
        "zero-dim-select",
        "x[k] of a 0-d x: PyTorch's IndexError text depends on the op that made x (README)",
        _zero_dim_select,
    ),
    Deliberate(
        "signed-zero",
        "the sign of a zero where -0.0 and 0.0 tie, and so of an infinity divided out of it "
        "(README)",
        _signed_zero,
    ),
    Deliberate(
        "overlap-order",
        "an in-place op whose operand shares memory with it, one of them not dense, is refused "
        "(README): PyTorch's result depends on the order it writes the elements",
        _overlap_order,
    ),
)


def deliberate(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> str | None:
    """The name of the deliberate difference that explains ``mm`` at statement ``i``, if any."""
    for d in DELIBERATE:
        if d.matches(program, i, mm, t):
            return d.name
    return None

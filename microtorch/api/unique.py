"""``torch.unique``: the distinct values of a tensor, sorted, with where each element went
(``return_inverse``) and how often each value occurs (``return_counts``).

The public function around ``microtorch/ops/unique.py``.
"""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.api.reduction import normalize_dims
from microtorch.autograd import node as _node
from microtorch.ops.unique import Unique2, UniqueConsecutive, consecutive_parts, unique_parts

__all__ = ["unique", "unique_consecutive"]


def unique(
    input: Any,  # noqa: A002 - PyTorch's name
    sorted: bool = True,  # noqa: A002
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The distinct values (or, with ``dim``, distinct slices along ``dim``), always sorted
    (PyTorch's CPU result is sorted too, whatever ``sorted`` says)."""
    expect_tensor(input, "_unique2")
    if dim is not None and input._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = None if dim is None else normalize_dims(dim, input._data.ndim)[0]
    values = Unique2.apply(input, d)
    if not (return_inverse or return_counts):
        return values
    _, inverse, counts = unique_parts(input._data, d)
    extra = [_node.plain_tensor(x, input._device) for x, wanted in
             ((inverse, return_inverse), (counts, return_counts)) if wanted]  # fmt: skip
    return (values, *extra)


def unique_consecutive(
    input: Any,  # noqa: A002 - PyTorch's name
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The first value of each run of equal values (or, with ``dim``, of equal slices), with
    which run each element is in (``return_inverse``) and each run's length."""
    expect_tensor(input, "unique_consecutive")
    if dim is not None and input._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = None if dim is None else normalize_dims(dim, input._data.ndim)[0]
    values = UniqueConsecutive.apply(input, d)
    if not (return_inverse or return_counts):
        return values
    _, inverse, counts = consecutive_parts(input._data, d)
    extra = [_node.plain_tensor(x, input._device) for x, wanted in
             ((inverse, return_inverse), (counts, return_counts)) if wanted]  # fmt: skip
    return (values, *extra)

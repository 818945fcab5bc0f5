"""``nn.utils``: gradient clipping, as used in training loops (``clip_grad_norm_``), and all
parameters as one vector and back (``parameters_to_vector``, ``vector_to_parameters``)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from microtorch import _coverage
from microtorch.api.inplace import overlaps_itself
from microtorch.api.join import cat
from microtorch.autograd.quiet import quiet_numpy
from microtorch.autograd.versions import bump_version
from microtorch.autograd.views import OVERLAP_MESSAGE
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters",
]  # fmt: skip


def _grads(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    grads = [p._grad for p in params if p._grad is not None]
    if any(overlaps_itself(g._data) for g in grads):  # (before any is changed, as PyTorch)
        raise RuntimeError(OVERLAP_MESSAGE)  # an expanded .grad: one place for many elements
    return grads


@quiet_numpy  # an inf norm scales by 0 (nan where inf * 0), silently as in PyTorch
def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float | str = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Scale all gradients together so their joint norm is at most ``max_norm``.

    Returns the norm before clipping. The scale is ``max_norm / (norm + 1e-6)``, capped at 1.
    """
    grads = _grads(parameters)
    p = float(norm_type)
    if not grads:
        return plain_tensor(np.zeros((), np.float32))
    if math.isinf(p):
        norms = [np.abs(g._data).max(initial=0) for g in grads]
        total = np.max(norms)
    else:
        norms = [np.sum(np.abs(g._data) ** p) ** (1 / p) for g in grads]
        total = np.sum(np.asarray(norms) ** p) ** (1 / p)
    total = np.asarray(total, grads[0]._data.dtype)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(
            f"The total norm of order {p} for gradients from `parameters` is non-finite, so it "
            "cannot be clipped. To disable this error and scale the gradients by the non-finite "
            "norm anyway, set `error_if_nonfinite=False`"
        )
    scale = np.minimum(max_norm / (total + 1e-6), 1.0).astype(total.dtype)
    for g in grads:
        g._data *= scale  # in place, as PyTorch's g.mul_(clip_coef_clamped)
        bump_version(g)
    return plain_tensor(total)


def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float) -> None:
    """Clamp every gradient element into ``[-clip_value, clip_value]``, in place."""
    for g in _grads(parameters):
        np.clip(g._data, -clip_value, clip_value, out=g._data)
        bump_version(g)


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """Every parameter flattened and joined into one vector (``CatBackward0``)."""
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """The inverse: consecutive slices of ``vec`` become the parameters' values (through
    ``.data``, outside the graph)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    start = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[start : start + n].view_as(p).data
        start += n


# PyTorch names microtorch does not cover raise an error that says what to use instead.
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _coverage.module_getattr("torch.nn.utils", __name__)

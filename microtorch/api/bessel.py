"""i0, i0e, i1 and i1e (the modified Bessel functions of order 0 and 1, and their scaled
forms), bessel_j0 and bessel_j1, around the formulas in ``microtorch/ops/bessel.py``.
Integer and bool tensors give results in the default float dtype."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import wrap
from microtorch.api.unary import _float
from microtorch.ops._precise import correctly_rounded
from microtorch.ops.bessel import I0, I1, I0e, I1e, bessel_j64

__all__ = ["bessel_j0", "bessel_j1", "i0", "i0e", "i1", "i1e"]


@torch_keywords("input", out=True)
def i0(a: Any) -> Any:
    """I0(a) = sum over k of (a/2)**(2k) / (k!)**2."""
    return I0.apply(_float(a, "i0"))


@torch_keywords("input", out=True)
def i0e(a: Any) -> Any:
    """exp(-|a|) I0(a)."""
    return I0e.apply(_float(a, "special_i0e"))


@torch_keywords("input", out=True)
def i1(a: Any) -> Any:
    """I1(a) = sum over k of (a/2)**(2k+1) / (k! (k+1)!)."""
    return I1.apply(_float(a, "special_i1"))


@torch_keywords("input", out=True)
def i1e(a: Any) -> Any:
    """exp(-|a|) I1(a)."""
    return I1e.apply(_float(a, "special_i1e"))


def _no_graph(a: Any, n: int, op: str) -> Any:
    # PyTorch records no gradient for the Bessel functions J0 and J1: a result outside the graph
    a = _float(a, op)
    with np.errstate(all="ignore"):
        values = correctly_rounded(lambda v: bessel_j64(v, n), a._data)
    return wrap(np.asarray(values, dtype=a._dtype.numpy), a._device)


@torch_keywords("input", out=True)
def bessel_j0(a: Any) -> Any:
    """J0(a), the Bessel function of the first kind of order 0 (no gradient, as in PyTorch)."""
    return _no_graph(a, 0, "special_bessel_j0")


@torch_keywords("input", out=True)
def bessel_j1(a: Any) -> Any:
    """J1(a), the Bessel function of the first kind of order 1 (no gradient, as in PyTorch)."""
    return _no_graph(a, 1, "special_bessel_j1")

"""lgamma, digamma, polygamma, mvlgamma and Hurwitz's zeta: argument checks and dtypes around
the formulas in ``microtorch/ops/gamma_functions.py`` and ``microtorch/ops/polygamma.py``.

Integer and bool tensors give results in the default float dtype, as in PyTorch.
"""

from __future__ import annotations

import operator
from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import as_operand
from microtorch.api.unary import _float
from microtorch.dtypes import get_default_dtype, result_type
from microtorch.ops.gamma_functions import Digamma, Lgamma
from microtorch.ops.polygamma import Mvlgamma, Polygamma, Zeta, ZetaNumberQ, ZetaNumberS

__all__ = ["digamma", "get_default_dtype", "lgamma", "mvlgamma", "no_bool", "polygamma", "zeta"]


@torch_keywords("input", out=True)
def lgamma(a: Any) -> Any:
    """log|Gamma(a)|: inf at 0, -1, -2 ..."""
    return Lgamma.apply(_float(a, "lgamma"))


@torch_keywords("input", out=True)
def digamma(a: Any) -> Any:
    """psi(a) = d/da log Gamma(a): -inf at 0, nan at the negative integers."""
    return Digamma.apply(_float(a, "digamma"))


def _int(n: Any, op: str, name: str, position: int) -> int:
    # PyTorch's int arguments: ints (and bools, which are ints), never floats
    try:
        return operator.index(n)
    except TypeError:
        raise TypeError(
            f"{op}(): argument '{name}' (position {position}) must be int, not {type(n).__name__}"
        ) from None


@parsed(
    "polygamma",
    "int n, Tensor input, *, Tensor out=None",
)
@torch_keywords("n", "input", out=True)
def polygamma(n: Any, a: Any) -> Any:
    """The n-th derivative of digamma (n = 0: digamma itself), for an int n >= 0."""
    n = _int(n, "polygamma", "n", 1)
    expect_tensor(a, "polygamma", "input", 2)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return Polygamma.apply(_float(a, "polygamma"), n)


@parsed(
    "mvlgamma",
    "Tensor input, int p, *, Tensor out=None",
)
@torch_keywords("input", "p", out=True)
def mvlgamma(a: Any, p: Any) -> Any:
    """log of the multivariate gamma function of dimension p:
    p(p-1)/4 log(pi) + sum over i < p of lgamma(a - i/2)."""
    expect_tensor(a, "mvlgamma")
    no_bool(a)
    p = _int(p, "mvlgamma", "p", 2)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return Mvlgamma.apply(_float(a, "mvlgamma"), p)


def no_bool(a: Any) -> None:
    """mvlgamma's check of its input's dtype."""
    if a._dtype.name == "bool":
        raise RuntimeError("The input tensor may not be a boolean tensor.")


def zeta(a: Any, other: Any) -> Any:
    """Hurwitz's zeta function, sum over k >= 0 of (other + k)**-a (a derivative for other
    only, as in PyTorch)."""
    a_tensor, q_tensor = hasattr(a, "_dtype"), hasattr(other, "_dtype")
    op: type[Zeta | ZetaNumberQ | ZetaNumberS]
    if not (a_tensor or q_tensor):
        expect_tensor(a, "special_zeta")
    if a_tensor and q_tensor:
        target, op = result_type(a, other), Zeta
    elif a_tensor:
        target, op = result_type(a, other), ZetaNumberQ
    else:
        target, op = result_type(other, a), ZetaNumberS
    if not target.is_floating_point:
        target = get_default_dtype()
    if op is Zeta:
        return Zeta.apply(as_operand(a, target), as_operand(other, target))
    if op is ZetaNumberQ:
        return ZetaNumberQ.apply(as_operand(a, target), float(other))
    return ZetaNumberS.apply(as_operand(other, target), float(a))


zeta = torch_keywords("input", "other", out=True)(zeta)

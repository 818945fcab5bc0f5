"""ndtri, log_ndtr and erfcx around the formulas in ``microtorch/ops/normal_tails.py``.
Integer and bool tensors give results in the default float dtype."""

from __future__ import annotations

from typing import Any

from microtorch.api.keywords import torch_keywords
from microtorch.api.unary import _float
from microtorch.ops.normal_tails import Erfcx, LogNdtr, Ndtri

__all__ = ["erfcx", "log_ndtr", "ndtri"]


@torch_keywords("input", out=True)
def ndtri(a: Any) -> Any:
    """The x with ndtr(x) = a: the standard normal's quantile function."""
    return Ndtri.apply(_float(a, "special_ndtri"))


@torch_keywords("input", out=True)
def log_ndtr(a: Any) -> Any:
    """log of the standard normal CDF, accurate far into the lower tail."""
    return LogNdtr.apply(_float(a, "special_log_ndtr"))


@torch_keywords("input", out=True)
def erfcx(a: Any) -> Any:
    """The scaled complementary error function exp(a**2) * erfc(a)."""
    return Erfcx.apply(_float(a, "special_erfcx"))

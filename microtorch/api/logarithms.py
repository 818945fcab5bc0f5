"""Logarithms in base 10 and 2 (the natural log is ``unary.log``).

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/logarithms.py``.
"""

from __future__ import annotations

from typing import Any

from microtorch.api.unary import _float
from microtorch.ops.logarithms import Log2, Log10

__all__ = ["log10", "log2"]


def log10(input: Any) -> Any:  # noqa: A002 - PyTorch's name
    """Logarithm in base 10 (log10(0) = -inf, of a negative number nan)."""
    return Log10.apply(_float(input, "log10"))


def log2(input: Any) -> Any:  # noqa: A002
    """Logarithm in base 2."""
    return Log2.apply(_float(input, "log2"))

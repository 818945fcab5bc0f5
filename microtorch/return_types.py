"""``torch.return_types``: the named tuples ``sort``, ``topk``, ``max``, ``min``, ``median``,
``kthvalue``, ``mode``, ``cummax``, ``cummin``, ``aminmax`` and ``frexp``
return (defined in ``microtorch/api/return_types.py``), so that ``isinstance(r,
torch.return_types.sort)`` works as in PyTorch."""

from __future__ import annotations

from microtorch.api.float_bits import frexp_result as frexp
from microtorch.api.return_types import (  # noqa: A004
    aminmax,
    cummax,
    cummin,
    kthvalue,
    max,
    median,
    min,
    mode,
    sort,
    topk,
)

__all__ = ["sort", "topk", "max", "min", "median", "kthvalue", "mode", "cummax", "cummin"]
__all__ += ["aminmax", "frexp"]

"""hardshrink (torch.hardshrink, x.hardshrink) around ``microtorch/ops/shrink.py``."""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.ops.shrink import Hardshrink

__all__ = ["hardshrink"]


@torch_keywords("input", "lambd", out=True)
def hardshrink(a: Any, lambd: Any = 0.5) -> Any:
    """a where |a| > lambd, else 0."""
    expect_tensor(a, "hardshrink")
    if not a._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"hardshrink_cpu\" not implemented for '{a._dtype._legacy[:-6]}'"
        )
    return Hardshrink.apply(a, float(lambd))

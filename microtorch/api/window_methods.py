"""The Tensor methods of index_add, index_copy, index_fill (and their in-place twins), unfold,
quantile, nanquantile, and exp2, logit, sinc, xlogy (and twins): a base class of ``Tensor``
beside ``TensorMethods``.

``x.index_add_(0, idx, src)`` runs ``index_add`` and writes the result into ``x`` through
``apply_inplace`` (version counter, leaf checks, graph rebasing), so its ``grad_fn`` is
``IndexAddBackward0`` as in PyTorch.
"""

from __future__ import annotations

from typing import Any

from microtorch.api import index_along, quantile, special_functions
from microtorch.api.inplace import apply_inplace

__all__ = ["WindowMethods"]


class WindowMethods:
    """index_add/index_copy/index_fill (with ``_`` twins), unfold, quantile, nanquantile,
    and exp2, logit, sinc, xlogy (with ``_`` twins)."""

    __slots__ = ()

    index_add, index_copy, index_fill = (
        index_along.index_add, index_along.index_copy, index_along.index_fill,
    )  # fmt: skip
    quantile, nanquantile = quantile.quantile, quantile.nanquantile
    exp2, logit, sinc, xlogy = (
        special_functions.exp2, special_functions.logit, special_functions.sinc,
        special_functions.xlogy,
    )  # fmt: skip
    exp2_, logit_, sinc_, xlogy_ = (
        special_functions.exp2_, special_functions.logit_, special_functions.sinc_,
        special_functions.xlogy_,
    )  # fmt: skip

    def index_add_(self, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Any:
        """``index_add``, written into this tensor; returns it."""
        return apply_inplace(self, "index_add_", index_along.index_add, dim, index, source,
                             alpha=alpha)  # fmt: skip

    def index_copy_(self, dim: int, index: Any, source: Any) -> Any:
        """``index_copy``, written into this tensor; returns it."""
        return apply_inplace(self, "index_copy_", index_along.index_copy, dim, index, source)

    def index_fill_(self, dim: int, index: Any, value: Any) -> Any:
        """``index_fill``, written into this tensor; returns it."""
        return apply_inplace(self, "index_fill_", index_along.index_fill, dim, index, value)

    def unfold(self, dimension: int, size: int, step: int) -> Any:
        """The view of this tensor's windows of ``size`` along ``dimension``, one every
        ``step``, in a new last dimension."""
        return index_along.unfold(self, dimension, size, step)

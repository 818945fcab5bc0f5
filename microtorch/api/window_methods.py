"""The Tensor methods of index_add, index_copy, index_fill (and their in-place twins), unfold,
quantile, nanquantile, and exp2, logit, sinc, xlogy (and twins): a base class of ``Tensor``
beside ``TensorMethods``.

``x.index_add_(0, idx, src)`` runs ``index_add`` and writes the result into ``x`` through
``apply_inplace`` (version counter, leaf checks, graph rebasing), so its ``grad_fn`` is
``IndexAddBackward0`` as in PyTorch. All are rarely used: their modules are imported on first use
(``Method``, microtorch/_lazy.py).
"""

from __future__ import annotations

from typing import Any

from microtorch._lazy import Method
from microtorch.api.arguments import method_of, parsed
from microtorch.api.inplace import apply_inplace

__all__ = ["WindowMethods"]


def _parsed_method(op: str, *lasts: str) -> Any:
    """``fn`` as the method ``op`` with PyTorch's signatures (self, int dim, Tensor index and
    one of ``lasts``): its errors say ``op()``, not the out-of-place function's name."""

    def decorate(fn: Any) -> Any:
        signatures = [f"Tensor input, int dim, Tensor index, {last}" for last in lasts]
        return method_of(parsed(op, *signatures)(fn))

    return decorate


class WindowMethods:
    """index_add/index_copy/index_fill (with ``_`` twins), unfold, quantile, nanquantile,
    and exp2, logit, sinc, xlogy (with ``_`` twins)."""

    __slots__ = ()

    index_add, index_copy, index_fill = (
        Method("microtorch.api.index_along:" + name, method_of)
        for name in ("index_add", "index_copy", "index_fill")
    )
    unfold = Method("microtorch.api.index_along:unfold")
    quantile, nanquantile = (
        Method("microtorch.api.quantile:" + name, method_of) for name in ("quantile", "nanquantile")
    )
    exp2, logit, sinc, xlogy, exp2_, logit_, sinc_, xlogy_ = (
        Method("microtorch.api.special_functions:" + name)
        for name in ("exp2", "logit", "sinc", "xlogy", "exp2_", "logit_", "sinc_", "xlogy_")
    )

    @_parsed_method("index_add_", "Tensor source, *, Number alpha=1")
    def index_add_(self, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Any:
        """``index_add``, written into this tensor; returns it."""
        return apply_inplace(self, "index_add_", WindowMethods.index_add, dim, index, source,
                             alpha=alpha)  # fmt: skip

    @_parsed_method("index_copy_", "Tensor source")
    def index_copy_(self, dim: int, index: Any, source: Any) -> Any:
        """``index_copy``, written into this tensor; returns it."""
        return apply_inplace(self, "index_copy_", WindowMethods.index_copy, dim, index, source)

    @_parsed_method("index_fill_", "Tensor value", "Number value")
    def index_fill_(self, dim: int, index: Any, value: Any) -> Any:
        """``index_fill``, written into this tensor; returns it."""
        return apply_inplace(self, "index_fill_", WindowMethods.index_fill, dim, index, value)

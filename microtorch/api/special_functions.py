"""exp2, logit, sinc, entr, xlogy and xlog1py: the public functions around the formulas in
``microtorch/ops/special_functions.py``, for ``torch.xlogy`` and ``torch.special.xlogy``
alike (PyTorch's errors name them ``xlogy()`` and ``special_xlogy()``: each ``..._named``
makes the function under one name). Integer tensors give float32 results.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from microtorch.api._checks import type_name
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import _binary
from microtorch.api.twins import twin
from microtorch.api.unary import _float
from microtorch.autograd import node as _node
from microtorch.dtypes import get_default_dtype, result_type
from microtorch.ops.special_functions import (
    Entr,
    Exp2,
    Logit,
    Sinc,
    Xlog1py,
    Xlog1pyNumberOther,
    Xlog1pyNumberSelf,
    Xlogy,
    XlogyNumberOther,
    XlogyNumberSelf,
)

__all__ = [
    "exp2_named", "logit_named", "sinc_named", "entr_named", "xlogy_named", "xlog1py_named",
    "exp2", "logit", "sinc", "xlogy", "exp2_", "logit_", "sinc_", "xlogy_",
]  # fmt: skip

F = Callable[..., Any]


def exp2_named(op: str) -> F:
    @torch_keywords("input", out=True)
    def exp2(a: Any) -> Any:
        """2 ** a."""
        return Exp2.apply(_float(a, op))

    return exp2


def logit_named(op: str) -> F:
    @torch_keywords("input", "eps", out=True)
    def logit(a: Any, eps: float | None = None) -> Any:
        """log(a / (1 - a)), the inverse of sigmoid; with ``eps``, a is first clamped to
        [eps, 1 - eps]."""
        return Logit.apply(_float(a, op), None if eps is None else float(eps))

    return logit


def sinc_named(op: str) -> F:
    @torch_keywords("input", out=True)
    def sinc(a: Any) -> Any:
        """sin(pi a) / (pi a), 1 at 0: the normalised sinc."""
        return Sinc.apply(_float(a, op))

    return sinc


def entr_named(op: str) -> F:
    @torch_keywords("input", out=True)
    def entr(a: Any) -> Any:
        """-a log(a) elementwise: 0 at 0, -inf below 0 (the entropy of one probability)."""
        return Entr.apply(_float(a, op))

    return entr


def _two(op: str, a: Any, b: Any, classes: tuple[Any, Any, Any]) -> Any:
    # a tensor and a tensor, a number and a tensor, or a tensor and a number; floats out
    both, number_self, number_other = classes
    if not isinstance(a, _node.Tensor) and not isinstance(b, _node.Tensor):
        raise TypeError(
            f"{op}() received an invalid combination of arguments - got ({type_name(a)}, "
            f"{type_name(b)}), but expected one of:\n * (Tensor input, Tensor other, *, Tensor "
            "out = None)\n * (Number self, Tensor other, *, Tensor out = None)\n * (Tensor "
            "input, Number other, *, Tensor out = None)\n"
        )
    target = result_type(a, b)
    target = target if target.is_floating_point else get_default_dtype()
    if not isinstance(a, _node.Tensor):
        return _binary(number_self, float(a), b, target)
    if not isinstance(b, _node.Tensor):
        return _binary(number_other, a, float(b), target)
    return _binary(both, a, b, target)


def xlogy_named(op: str) -> F:
    @torch_keywords(("input", "self"), "other", out=True)
    def xlogy(a: Any, b: Any) -> Any:
        """a * log(b), 0 where a is 0 (so 0 * log(0) = 0, as in entropies)."""
        return _two(op, a, b, (Xlogy, XlogyNumberSelf, XlogyNumberOther))

    return xlogy


def xlog1py_named(op: str) -> F:
    @torch_keywords("input", "other", out=True)
    def xlog1py(a: Any, b: Any) -> Any:
        """a * log(1 + b), 0 where a is 0."""
        return _two(op, a, b, (Xlog1py, Xlog1pyNumberSelf, Xlog1pyNumberOther))

    return xlog1py


exp2, logit, sinc, xlogy = (
    exp2_named("exp2"),
    logit_named("logit"),
    sinc_named("sinc"),
    (xlogy_named("xlogy")),
)
exp2_, logit_, sinc_, xlogy_ = (
    twin("exp2_", exp2), twin("logit_", logit), twin("sinc_", sinc), twin("xlogy_", xlogy),
)  # fmt: skip

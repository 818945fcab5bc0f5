"""``microtorch.special``: the functions of ``torch.special`` that microtorch has.

The ones other ops already give under another name (``expit`` is ``sigmoid``, ``gammaln``
would be ``lgamma``...) are those ops; ``exp2``, ``logit``, ``sinc``, ``entr``, ``xlogy`` and
``xlog1py`` have their own formulas in ``microtorch/ops/special_functions.py``. Every other name
of ``torch.special`` (Bessel functions, polynomials, gamma functions) raises an error saying
what to use instead (see ``docs/api_coverage.md``).
"""

from __future__ import annotations

import math
from typing import Any

from microtorch import _coverage
from microtorch.api import rearrange, reduction, unary
from microtorch.api import special as _special
from microtorch.api._checks import expect_tensor, type_name
from microtorch.api.index_along import scalar_type
from microtorch.api.keywords import torch_keywords
from microtorch.api.operands import _binary
from microtorch.api.rounding import RoundDecimals
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
    "entr", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "log1p", "log_softmax",
    "logit", "logsumexp", "ndtr", "round", "sinc", "softmax", "xlog1py", "xlogy",
]  # fmt: skip

__getattr__ = _coverage.module_getattr("torch.special", __name__)


@torch_keywords("input", out=True)
def exp2(a: Any) -> Any:
    """2 ** a."""
    return Exp2.apply(_float(a, "special_exp2"))


@torch_keywords("input", "eps", out=True)
def logit(a: Any, eps: float | None = None) -> Any:
    """log(a / (1 - a)), the inverse of expit; with ``eps``, a is clamped to [eps, 1 - eps]."""
    return Logit.apply(_float(a, "special_logit"), None if eps is None else float(eps))


@torch_keywords("input", out=True)
def sinc(a: Any) -> Any:
    """sin(pi a) / (pi a), 1 at 0: the normalised sinc."""
    return Sinc.apply(_float(a, "special_sinc"))


@torch_keywords("input", out=True)
def entr(a: Any) -> Any:
    """-a log(a) elementwise: 0 at 0, -inf below 0 (the entropy of one probability)."""
    return Entr.apply(_float(a, "special_entr"))


@torch_keywords("input", out=True)
def ndtr(a: Any) -> Any:
    """The standard normal distribution's CDF, (1 + erf(a / sqrt(2))) / 2."""
    return (erf(_float(a, "special_ndtr") * math.sqrt(0.5)) + 1) * 0.5


@torch_keywords("input", "decimals", out=True)
def round(a: Any, decimals: int = 0) -> Any:  # noqa: A001 - PyTorch's name
    """Round to ``decimals`` places, halves to even (PyTorch's decimals overload)."""
    expect_tensor(a, "special_round")
    if not a._dtype.is_floating_point:  # (torch.round passes integers through; this does not)
        raise NotImplementedError(f"\"round_vml_cpu\" not implemented for '{scalar_type(a)}'")
    return RoundDecimals.apply(a, int(decimals))


def _alias(name: str, function: Any) -> Any:
    # ``function`` under its torch.special name (which PyTorch's errors give: special_erf())
    def alias(input: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A002 - PyTorch's name
        expect_tensor(input, f"special_{name}")
        return function(input, *args, **kwargs)

    alias.__name__ = alias.__qualname__ = name
    alias.__doc__ = function.__doc__
    return torch_keywords("input")(alias)


expit, erf, erfc, erfinv = (
    _alias("expit", unary.sigmoid), _alias("erf", _special.erf), _alias("erfc", _special.erfc),
    _alias("erfinv", _special.erfinv),
)  # fmt: skip
expm1, log1p = _alias("expm1", rearrange.expm1), _alias("log1p", unary.log1p)
logsumexp = _alias("logsumexp", reduction.logsumexp)
softmax, log_softmax = (
    _alias("softmax", reduction.softmax),
    _alias("log_softmax", reduction.log_softmax),
)


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


@torch_keywords("input", "other", out=True)
def xlogy(a: Any, b: Any) -> Any:
    """a * log(b), 0 where a is 0 (so 0 * log(0) = 0, as in entropies)."""
    return _two("special_xlogy", a, b, (Xlogy, XlogyNumberSelf, XlogyNumberOther))


@torch_keywords("input", "other", out=True)
def xlog1py(a: Any, b: Any) -> Any:
    """a * log(1 + b), 0 where a is 0."""
    return _two("special_xlog1py", a, b, (Xlog1py, Xlog1pyNumberSelf, Xlog1pyNumberOther))

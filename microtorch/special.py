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
from microtorch.api import bessel as _bessel
from microtorch.api import gamma as _gamma
from microtorch.api import normal_tails as _tails
from microtorch.api import rearrange, reduction, unary
from microtorch.api import special as _special
from microtorch.api._checks import expect_tensor
from microtorch.api.index_along import scalar_type
from microtorch.api.keywords import torch_keywords
from microtorch.api.rounding import RoundDecimals
from microtorch.api.special_functions import (
    entr_named,
    exp2_named,
    logit_named,
    sinc_named,
    xlog1py_named,
    xlogy_named,
)
from microtorch.api.unary import _float

__all__ = [
    "bessel_j0", "bessel_j1",
    "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "i0", "i0e", "i1", "i1e",
    "log_ndtr", "ndtri", "expit", "expm1", "gammaln", "log1p",
    "log_softmax", "logit", "logsumexp", "multigammaln", "ndtr", "polygamma", "psi", "round",
    "sinc", "softmax", "xlog1py", "xlogy", "zeta",
]  # fmt: skip

__getattr__ = _coverage.module_getattr("torch.special", __name__)


exp2, logit, sinc, entr = (
    exp2_named("special_exp2"), logit_named("special_logit"), sinc_named("special_sinc"),
    entr_named("special_entr"),
)  # fmt: skip
xlogy, xlog1py = xlogy_named("special_xlogy"), xlog1py_named("special_xlog1py")


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

# --- walkb
digamma, psi, gammaln = (
    _alias("digamma", _gamma.digamma), _alias("psi", _gamma.digamma),
    _alias("gammaln", _gamma.lgamma),
)  # fmt: skip
multigammaln = _alias("multigammaln", _gamma.mvlgamma)


@torch_keywords("n", "input", out=True)
def polygamma(n: int, input: Any) -> Any:  # noqa: A002 - PyTorch's name
    """The n-th derivative of digamma (torch.polygamma)."""
    return _gamma.polygamma(n, input)


zeta = _gamma.zeta
i0, i0e, i1, i1e = (
    _alias("i0", _bessel.i0), _bessel.i0e, _bessel.i1, _bessel.i1e,
)  # fmt: skip
ndtri, log_ndtr, erfcx = _tails.ndtri, _tails.log_ndtr, _tails.erfcx
bessel_j0, bessel_j1 = _bessel.bessel_j0, _bessel.bessel_j1

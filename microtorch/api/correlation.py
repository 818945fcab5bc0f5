"""cov and corrcoef, composed of other ops in PyTorch's order (so the graph has PyTorch's nodes
and gradients, for the input and for ``aweights``).

The rows of a 2-d input are variables and its columns observations (a 1-d input is one
variable). With weights w (fweights times aweights, or one of them):
``avg = sum(x * w, 1) / sum(w)``, ``cov = (x - avg) @ ((x - avg) * w).T / (sum(w) - c)``, where
the correction c is scaled by ``sum(w * aweights) / sum(w)`` when there are aweights;
``corrcoef = cov / std[:, None] / std[None, :]`` (clipped to [-1, 1]), ``std = sqrt(diag(cov))``.
"""

from __future__ import annotations

from typing import Any

from microtorch._warn import warn
from microtorch.api import elementwise as ew
from microtorch.api import reduction, unary
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.diagonal import diagonal
from microtorch.api.index_along import scalar_type
from microtorch.api.linalg import mm
from microtorch.api.scalars import scalar_tensor
from microtorch.api.shape import squeeze
from microtorch.dtypes import int64

__all__ = ["corrcoef", "cov"]


def _check_weights(w: Any, kind: str, n: int, integral: bool) -> None:
    expect_tensor(w, "cov", kind, 2 if kind == "fweights" else 3)
    if w._data.ndim > 1:
        raise RuntimeError(
            f"cov(): expected {kind} to have one or fewer dimensions but got {kind} with "
            f"{w._data.ndim} dimensions"
        )
    is_float = w._dtype.is_floating_point
    if integral and (is_float or w._dtype.name == "bool"):
        raise RuntimeError(
            f"cov(): expected fweights to have integral dtype but got fweights with "
            f"{scalar_type(w)} dtype"
        )
    if not integral and not is_float:
        raise RuntimeError(
            f"cov(): expected aweights to have floating point dtype but got aweights with "
            f"{scalar_type(w)} dtype"
        )
    if w._data.size != n:
        raise RuntimeError(
            f"cov(): expected {kind} to have the same numel as there are observations in the "
            f"input but got {w._data.size} != {n}"
        )
    if n and w._data.min() < 0:
        raise RuntimeError(f"cov(): {kind} cannot be negative")


@parsed(
    "cov",
    "Tensor input, *, int correction=1, Tensor fweights=None, Tensor aweights=None",
)
def cov(
    input: Any,  # noqa: A002
    *,
    correction: int = 1,
    fweights: Any = None,
    aweights: Any = None,
) -> Any:
    """The covariance matrix of the rows (variables) of ``input`` over its columns
    (observations); a 0-d result for one variable."""
    expect_tensor(input, "cov")
    if input._data.ndim > 2:
        raise RuntimeError(
            "cov(): expected input to have two or fewer dimensions but got an input with "
            f"{input._data.ndim} dimensions"
        )
    if input._dtype.name == "bool":
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input._data.ndim < 2 else input  # (variables, observations)
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", n, integral=True)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", n, integral=False)
        w = aweights if w is None else ew.mul(w, aweights)
    w_sum = scalar_tensor(n, dtype=int64) if w is None else reduction.sum(w)
    if w is not None and not w_sum._data.item():
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = ew.div(reduction.sum(x if w is None else ew.mul(x, w), 1), w_sum)
    if w is not None and aweights is not None and correction != 0:
        scale = ew.div(reduction.sum(ew.mul(w, aweights)), w_sum)
        norm_factor = ew.sub(w_sum, ew.mul(scale, correction))
    else:
        norm_factor = ew.sub(w_sum, correction)
    if norm_factor._data.item() <= 0:
        warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations.",
        )
        norm_factor = ew.mul(norm_factor, 0)
    x = ew.sub(x, avg.unsqueeze(1))
    c = mm(x, (x if w is None else ew.mul(x, w)).t())
    return squeeze(ew.div(c, norm_factor))


def corrcoef(input: Any) -> Any:  # noqa: A002
    """Pearson's correlation coefficients of the rows (variables) of ``input``: cov divided
    by the standard deviations of both variables, clipped to [-1, 1]."""
    expect_tensor(input, "corrcoef")
    if input._data.ndim > 2:
        raise RuntimeError(
            "corrcoef(): expected input to have two or fewer dimensions but got an input with "
            f"{input._data.ndim} dimensions"
        )
    c = cov(input)
    if c._data.ndim == 0:  # one variable: nan if its variance is nan, inf or 0, else 1
        return ew.div(c, c)
    stddev = unary.sqrt(diagonal(c))
    c = ew.div(c, stddev.view(-1, 1))
    c = ew.div(c, stddev.view(1, -1))
    return unary.clip(c, -1, 1)

"""torch.binomial and torch.poisson: counts drawn from the global generator (or
``generator=``), of the shape of their tensor arguments.

The numbers follow microtorch's generator, not PyTorch's: ``manual_seed(0)`` repeats
microtorch's draws, but they are not PyTorch's draws. Where PyTorch returns arbitrary numbers
(a negative or nan count, a probability outside [0, 1], an infinite rate), microtorch raises
and says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.index_along import scalar_type
from microtorch.api.sampling import _rng
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.sampling import Binomial, Poisson

__all__ = ["binomial", "poisson"]


def _generator(op: str, generator: Any, position: str) -> np.random.Generator:
    if generator is not None and not hasattr(generator, "_rng"):
        raise TypeError(
            f"{op}(): argument 'generator'{position} must be torch.Generator, not "
            f"{type(generator).__name__}"
        )
    return _rng(generator)


@parsed("binomial", "Tensor count, Tensor prob, *, torch.Generator generator=None")
def binomial(count: Any, prob: Any, generator: Any = None) -> Any:
    """The number of successes in ``count`` trials, each a success with probability
    ``prob`` (float tensors of one dtype that broadcast together)."""
    expect_tensor(count, "binomial", "count")
    expect_tensor(prob, "binomial", "prob", 2)
    if not count._dtype.is_floating_point:
        raise ValueError(
            f"binomial only supports floating-point dtypes for count, got: {scalar_type(count)}"
        )
    if prob._dtype is not count._dtype:
        raise RuntimeError(f"Found dtype {scalar_type(prob)} but expected {scalar_type(count)}")
    if count._dtype.name not in ("float32", "float64"):
        raise NotImplementedError(f"\"binomial_cpu\" not implemented for '{scalar_type(count)}'")
    try:
        n, p = np.broadcast_arrays(count._data, prob._data)
    except ValueError:
        raise broadcast_error(count._data.shape, prob._data.shape) from None
    if not ((n >= 0).all() and (p >= 0).all() and (p <= 1).all()):
        raise RuntimeError(
            "binomial: microtorch takes counts >= 0 and probabilities in [0, 1] only, not nan "
            "(PyTorch returns arbitrary numbers for these)"
        )
    draws = np.asarray(_generator("binomial", generator, "").binomial(n.astype(np.int64), p))
    return Binomial.apply(count, prob, draws)


@parsed("poisson", "Tensor input, torch.Generator generator=None")
def poisson(input: Any, generator: Any = None) -> Any:  # noqa: A002 - PyTorch's name
    """A Poisson count of rate ``input`` for each element (a float tensor, rates >= 0)."""
    expect_tensor(input, "poisson")
    if not input._dtype.is_floating_point:
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{scalar_type(input)}'")
    rate = input._data.astype(np.float64)
    if not (rate >= 0).all():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if not (rate < 1e18).all():
        raise RuntimeError(
            "poisson: microtorch takes rates below 1e18 only (PyTorch returns arbitrary numbers "
            "for an infinite rate)"
        )
    draws = np.asarray(_generator("poisson", generator, " (position 2)").poisson(rate))
    return Poisson.apply(input, draws)

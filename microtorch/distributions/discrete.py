"""Counts: ``Poisson(rate)``, ``Geometric(probs | logits)`` (failures before the first
success) and ``Binomial(total_count, probs | logits)``.

Poisson and Binomial draws come from numpy's samplers on microtorch's seeded generator
(PyTorch's C samplers cannot be followed: other numbers, the same distribution, checked by
their statistics in the tests). Geometric follows PyTorch's formula
``floor(log u / log(1 - p))`` for a uniform ``u``. ``log_prob`` uses ``lgamma`` where PyTorch
does, with its gradient (digamma).
"""

from __future__ import annotations

from functools import cached_property
from numbers import Number
from typing import Any

import numpy as np

from microtorch.api.elementwise import where
from microtorch.api.unary import clamp
from microtorch.autograd.grad_mode import no_grad
from microtorch.creation import arange, zeros_like
from microtorch.distributions import constraints
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.utils import (
    broadcast_all,
    lgamma,
    logits_to_probs,
    numpy_draw,
    probs_to_logits,
)
from microtorch.dtypes import promote_types
from microtorch.nn.functional import binary_cross_entropy_with_logits
from microtorch.tensor import Size, Tensor

__all__ = ["Binomial", "Geometric", "Poisson"]


def xlogy(x: Tensor, y: Tensor) -> Tensor:
    """x * log(y), 0 where x is 0 (PyTorch's ``xlogy``, in the promoted dtype)."""
    common = promote_types(x.dtype, y.dtype)
    return where(x == 0, 0.0, x * y.to(common).log())


class Poisson(Distribution):
    """Counts of events at ``rate`` per unit: ``log_prob(k) = k log(rate) - rate - log k!``."""

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        shape = Size() if isinstance(rate, Number) else self.rate.shape
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def mode(self) -> Tensor:
        return self.rate.floor()

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        rate = np.broadcast_to(self.rate.detach().numpy(), tuple(shape))
        return numpy_draw(lambda rng, s: rng.poisson(rate, s), shape, self.rate.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return xlogy(value, rate) - rate - lgamma(value + 1)


class _BinaryParameter(Distribution):
    """``probs`` or ``logits`` (the other computed when first asked for)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}

    @cached_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @cached_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits, is_binary=True)


class Geometric(_BinaryParameter):
    """The number of failures before the first success, each trial a success with
    probability ``probs``: ``log_prob(k) = k log(1 - p) + log p``."""

    support = constraints.nonnegative_integer

    def __init__(
        self, probs: Any = None, logits: Any = None, validate_args: bool | None = None
    ) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        given = probs if probs is not None else logits
        param = self.probs if probs is not None else self.logits
        shape = Size() if isinstance(given, Number) else param.shape
        super().__init__(shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            value = self.probs.detach()
            valid = value > 0
            if not valid.all().item():
                raise ValueError(
                    f"Expected parameter probs ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to be positive but found "
                    f"invalid values:\n{value[~valid]}"
                )

    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Tensor:
        return zeros_like(self.probs)

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        tiny = float(np.finfo(self.probs._data.dtype).tiny)
        with no_grad():
            u = numpy_draw(lambda rng, s: rng.uniform(tiny, 1, s), shape, self.probs.dtype)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = where((probs == 1) & (value == 0), 0.0, probs)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Tensor:
        bce = binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")
        return bce / self.probs


class Binomial(_BinaryParameter):
    """Successes in ``total_count`` trials, each one with probability ``probs``."""

    arg_constraints = {
        "total_count": constraints.nonnegative_integer,
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    has_enumerate_support = True

    def __init__(
        self, total_count: Any = 1, probs: Any = None, logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            count, self.probs = broadcast_all(total_count, probs)
            self.total_count = count.type_as(self.probs)
            self._param = self.probs
        else:
            count, self.logits = broadcast_all(total_count, logits)
            self.total_count = count.type_as(self.logits)
            self._param = self.logits
        super().__init__(self._param.shape, validate_args=validate_args)

    _expand_also = ("_param", "total_count")

    @property
    def support(self) -> constraints.Constraint:
        return constraints.integer_interval(0, self.total_count)

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def mode(self) -> Tensor:
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        n = np.broadcast_to(self.total_count.detach().numpy(), shape).astype(np.int64)
        p = np.broadcast_to(self.probs.detach().numpy(), shape)
        return numpy_draw(lambda rng, s: rng.binomial(n, p, s), shape, self._param.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        positive_part = (clamp(logits, min=0) + logits - clamp(logits, max=0)) / 2
        normalize = (
            n * positive_part + n * (-logits.abs()).exp().log1p() - lgamma(n + 1)
        )  # fmt: skip
        return value * logits - lgamma(value + 1) - lgamma(n - value + 1) - normalize

    def entropy(self) -> Tensor:
        self._homogeneous("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(log_prob.exp() * log_prob).sum(0)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        total = self._homogeneous("enumerate_support")
        values = arange(1 + total, dtype=self._param.dtype)
        values = values.reshape((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1, *self._batch_shape))
        return values

    def _homogeneous(self, what: str) -> int:
        total = int(self.total_count.max().item())
        if not self.total_count.min().item() == total:
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return total

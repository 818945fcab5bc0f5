"""``Bernoulli(probs=p)`` or ``Bernoulli(logits=z)``: 1 with probability p, else 0."""

from __future__ import annotations

from functools import cached_property
from numbers import Number
from typing import Any

from microtorch.autograd.grad_mode import no_grad
from microtorch.creation import rand
from microtorch.distributions import constraints
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.utils import broadcast_all, logits_to_probs, probs_to_logits
from microtorch.nn.functional import binary_cross_entropy_with_logits
from microtorch.tensor import Size, Tensor

__all__ = ["Bernoulli"]


class Bernoulli(Distribution):
    """A coin that shows 1 with probability ``probs`` (or ``sigmoid(logits)``).

    ``log_prob(x)`` is ``-binary_cross_entropy_with_logits(logits, x)``, element by element;
    there is no ``rsample`` (a draw of 0 or 1 has no gradient). Samples come from
    microtorch's seeded generator, not PyTorch's.
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(
        self, probs: Any = None, logits: Any = None, validate_args: bool | None = None
    ) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            param, is_number = self.probs, isinstance(probs, Number)
        else:
            (self.logits,) = broadcast_all(logits)
            param, is_number = self.logits, isinstance(logits, Number)
        self._param = param
        super().__init__(Size() if is_number else param.shape, validate_args=validate_args)

    @cached_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @cached_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def mode(self) -> Tensor:
        mode = (self.probs >= 0.5).to(self.probs.dtype)
        return mode.masked_fill(self.probs == 0.5, float("nan"))

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with no_grad():
            probs = self.probs.expand(*shape)
            return (rand(shape, dtype=probs.dtype) < probs).to(probs.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self) -> Tensor:
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

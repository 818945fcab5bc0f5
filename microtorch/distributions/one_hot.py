"""Categorical draws as vectors: ``OneHotCategorical`` (a single 1), ``Multinomial`` (the
counts of ``total_count`` categorical draws) and ``RelaxedOneHotCategorical`` (the
Gumbel-softmax: a point of the simplex that tends to a one-hot vector as the temperature
goes to 0, with reparameterised samples).

Each wraps a ``Categorical`` made from ``probs`` or ``logits`` (which checks them) and so
draws from microtorch's seeded generator: other numbers than PyTorch's, the same
distribution.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch.api.elementwise import where
from microtorch.creation import eye, full_like, rand
from microtorch.distributions import constraints
from microtorch.distributions.categorical import Categorical
from microtorch.distributions.discrete import Binomial
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.transformed import TransformedDistribution
from microtorch.distributions.transforms_basic import ExpTransform
from microtorch.distributions.utils import broadcast_all, clamp_probs, lgamma
from microtorch.nn.functional import one_hot
from microtorch.tensor import Size, Tensor

__all__ = ["ExpRelaxedCategorical", "Multinomial", "OneHotCategorical", "RelaxedOneHotCategorical"]


class _OfCategorical(Distribution):
    """What the three share: a ``Categorical`` inside, its probs and logits."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    _categorical: Categorical

    def _wrap(self, probs: Any, logits: Any, validate_args: bool | None) -> None:
        self._categorical = Categorical(probs, logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        Distribution.__init__(self, batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: tuple[int, ...], _instance: Any = None) -> Any:
        new = type(self).__new__(type(self)) if _instance is None else _instance
        new.__dict__.update(self.__dict__)
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def _param(self) -> Tensor:
        return self._categorical._param

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits


class OneHotCategorical(_OfCategorical):
    """A one-hot vector: 1 at class ``k`` with probability ``probs[..., k]``."""

    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(
        self, probs: Tensor | None = None, logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        self._wrap(probs, logits, validate_args)

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def mode(self) -> Tensor:
        probs = self.probs
        return one_hot(probs.argmax(-1), num_classes=probs.shape[-1]).to(probs.dtype)

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        indices = self._categorical.sample(sample_shape)
        return one_hot(indices, self._categorical._num_events).to(self.probs.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self) -> Tensor:
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True) -> Tensor:
        n = self._event_shape[0]
        values = eye(n, dtype=self._param.dtype).reshape(
            (n,) + (1,) * len(self._batch_shape) + (n,)
        )
        if expand:
            values = values.expand((n, *self._batch_shape, n))
        return values


class Multinomial(_OfCategorical):
    """The counts per class of ``total_count`` independent categorical draws."""

    def __init__(
        self, total_count: int = 1, probs: Tensor | None = None, logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        Distribution.__init__(self, batch_shape, event_shape, validate_args=validate_args)

    @property
    def support(self) -> constraints.Constraint:
        return constraints.multinomial(self.total_count)

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        draws = self._categorical.sample((self.total_count, *Size(sample_shape)))
        counts = one_hot(draws, self._categorical._num_events).sum(0)
        return counts.reshape(tuple(self._extended_shape(sample_shape))).to(self.probs.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_factorial_n = lgamma(value.sum(-1) + 1)
        log_factorial_xs = lgamma(value + 1).sum(-1)
        logits = where((value == 0) & (logits == -math.inf), 0.0, logits)
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)

    def entropy(self) -> Tensor:
        n = self.total_count
        # (PyTorch takes lgamma of an integer tensor: a float32 value)
        term1 = n * self._categorical.entropy() - float(np.float32(math.lgamma(n + 1)))
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = self._binomial.log_prob(support).exp()
        weights = lgamma(support + 1)
        return term1 + (binomial_probs * weights).sum([0, -1])


class ExpRelaxedCategorical(_OfCategorical):
    """The log of a ``RelaxedOneHotCategorical`` draw (``log_softmax`` of the noisy logits
    over the temperature), which is where its density is simple."""

    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self, temperature: Tensor, probs: Tensor | None = None, logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        self.temperature = temperature
        self._wrap(probs, logits, validate_args)

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(rand(shape, dtype=self.logits.dtype))
        gumbels = -((-(uniforms.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value: Tensor) -> Tensor:
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        temperature = self.temperature
        log_scale = lgamma(full_like(temperature, float(k))) - temperature.log().mul(-(k - 1))
        score = logits - value.mul(temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    """The Gumbel-softmax (concrete) distribution: ``softmax((logits + g) / temperature)``
    for Gumbel noise ``g``, ``exp`` of an ``ExpRelaxedCategorical`` draw."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True
    base_dist: ExpRelaxedCategorical

    def __init__(
        self, temperature: Tensor, probs: Tensor | None = None, logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        base = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)

    @property
    def temperature(self) -> Tensor:
        return self.base_dist.temperature

    @property
    def logits(self) -> Tensor:
        return self.base_dist.logits

    @property
    def probs(self) -> Tensor:
        return self.base_dist.probs

"""``Categorical(probs=p)`` or ``Categorical(logits=z)``: one of ``K`` classes."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from microtorch.api.elementwise import where
from microtorch.api.unary import clamp
from microtorch.creation import arange, full, multinomial
from microtorch.distributions import constraints
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.utils import logits_to_probs, probs_to_logits
from microtorch.tensor import Size, Tensor

__all__ = ["Categorical"]


class Categorical(Distribution):
    """Class ``k`` with probability ``probs[..., k]`` (normalised to sum to 1), or
    ``softmax(logits)[..., k]``; the last dimension holds the classes, the others are the batch.

    ``log_prob(k)`` picks ``logits[..., k]`` (of the normalised logits) with ``torch.where``
    and a sum (PyTorch gathers: the same values and gradients, other ``grad_fn`` names).
    Samples (int64) come from microtorch's seeded generator, not PyTorch's.
    """

    arg_constraints = {
        "probs": constraints.simplex,
        "logits": constraints.independent(constraints.real, 1),
    }
    has_enumerate_support = True

    def __init__(
        self, probs: Tensor | None = None, logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:  # fmt: skip
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            param = self.probs
        else:
            assert logits is not None
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            param = self.logits
        self._param = param
        self._num_events = param.shape[-1]
        batch_shape = param.shape[:-1] if param.dim() > 1 else Size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def support(self) -> constraints.Constraint:
        return constraints.integer_interval(0, self._num_events - 1)

    @cached_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs)

    @cached_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits)

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    @property
    def mean(self) -> Tensor:
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(-1)

    @property
    def variance(self) -> Tensor:
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        sample_shape = Size(sample_shape)
        probs_2d = self.probs.detach().reshape(-1, self._num_events)
        samples_2d = multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        shape = np.broadcast_shapes(value.shape, self._batch_shape)
        picked = value.long().expand(shape).unsqueeze(-1) == arange(self._num_events)
        log_pmf = self.logits.expand(*shape, self._num_events)
        return where(picked, log_pmf, 0.0).sum(-1)  # logits[..., value]

    def entropy(self) -> Tensor:
        min_real = float(np.finfo(self.logits._data.dtype).min)  # so 0 * -inf counts 0
        p_log_p = clamp(self.logits, min=min_real) * self.probs
        return -p_log_p.sum(-1)

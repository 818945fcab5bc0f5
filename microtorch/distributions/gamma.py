"""The gamma family: ``Gamma(concentration, rate)``, ``Dirichlet(concentration)``,
``Beta(concentration1, concentration0)`` and ``StudentT(df, loc, scale)``.

Their draws are built on standard gamma draws (numpy's sampler on microtorch's seeded
generator; PyTorch's Marsaglia-Tsang sampler in C cannot be followed: other numbers, the same
distribution, checked by their statistics in the tests). ``rsample`` differentiates through
each gamma draw by the implicit gradient (``StandardGammaBackward0``, exact; PyTorch uses an
approximation good to about 1e-5). A Dirichlet draw is ``g / g.sum()`` of gamma draws and a
Beta draw its first part, so their rsample gradients follow the gammas (PyTorch's
``_dirichlet_grad`` uses the marginal Beta: another formula, the same expected gradient).
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import numpy as np

from microtorch.api.elementwise import where
from microtorch.api.join import stack
from microtorch.api.unary import clamp
from microtorch.autograd.function import NumpyFunction
from microtorch.creation import default_generator, randn, tensor
from microtorch.distributions import constraints
from microtorch.distributions.discrete import xlogy
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.utils import broadcast_all, digamma, lgamma
from microtorch.nn.functional import one_hot
from microtorch.ops.gamma_functions import lgamma64
from microtorch.ops.gamma_sampling import StandardGamma, gammainc64
from microtorch.tensor import Size, Tensor

__all__ = ["Beta", "Chi2", "Dirichlet", "Gamma", "StudentT"]


def standard_gamma(concentration: Tensor) -> Tensor:
    """Gamma(concentration, 1) draws, one per element, with the implicit gradient."""
    return StandardGamma.apply(concentration, default_generator._rng)


class _Gammainc(NumpyFunction):
    """z = P(a, x), the regularized lower incomplete gamma function, so dz/dx =
    x**(a-1) exp(-x) / Gamma(a); dz/da is not implemented (as in PyTorch)."""

    node_name = "IgammaBackward0"

    @staticmethod
    def forward(ctx, a, x):
        ctx.save_for_backward(a, x)
        return gammainc64(a, x).astype(x.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        a, x = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            raise RuntimeError("the derivative for 'igamma: input' is not implemented.")
        density = np.exp((a - 1) * np.log(x) - x - lgamma64(a))
        return None, density * grad_output


class Gamma(Distribution):
    """Density ``rate**c x**(c-1) exp(-rate x) / Gamma(c)`` for ``x >= 0``;
    ``rsample`` is ``standard_gamma(c) / rate``."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _expand_also = ("concentration", "rate")  # (for Chi2, whose parameter is df)

    def __init__(self, concentration: Any, rate: Any, validate_args: bool | None = None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        numbers = isinstance(concentration, Number) and isinstance(rate, Number)
        shape = Size() if numbers else self.concentration.shape
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> Tensor:
        return clamp((self.concentration - 1) / self.rate, min=0)

    @property
    def variance(self) -> Tensor:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        value = standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        tiny = float(np.finfo(value._data.dtype).tiny)
        np.maximum(value._data, tiny, out=value._data)  # (outside the graph, as PyTorch)
        return value

    def log_prob(self, value: Any) -> Tensor:
        # (PyTorch's as_tensor: a number, or a value of another dtype, in rate's dtype)
        value = value.to(self.rate.dtype) if isinstance(value, Tensor) else tensor(
            value, dtype=self.rate.dtype
        )  # fmt: skip
        if self._validate_args:
            self._validate_sample(value)
        c, r = self.concentration, self.rate
        return xlogy(c, r) + xlogy(c - 1, value) - r * value - lgamma(c)

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return _Gammainc.apply(*broadcast_all(self.concentration, self.rate * value))

    def entropy(self) -> Tensor:
        c = self.concentration
        return c - self.rate.log() + lgamma(c) + (1.0 - c) * digamma(c)


class Chi2(Gamma):
    """The sum of the squares of ``df`` standard normal draws: ``Gamma(df / 2, 1 / 2)``."""

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df: Any, validate_args: bool | None = None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    @property
    def df(self) -> Tensor:
        return self.concentration * 2


class Dirichlet(Distribution):
    """Points of the simplex (vectors >= 0 that sum to 1; the last dimension is the event)
    with density ``prod x_i**(c_i - 1) / B(c)``."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration: Tensor, validate_args: bool | None = None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        shape = concentration.shape
        super().__init__(shape[:-1], shape[-1:], validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self) -> Tensor:
        c = self.concentration
        cm1 = clamp(c - 1, min=0.0)
        mode = cm1 / cm1.sum(-1, True)
        # where every c < 1 the density is highest at a corner: PyTorch picks argmax's
        corner = one_hot(mode.argmax(-1), c.shape[-1]).to(mode.dtype)
        return where((c < 1).all(-1, keepdim=True), corner, mode)

    @property
    def variance(self) -> Tensor:
        c = self.concentration
        total = c.sum(-1, True)
        return c * (total - c) / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        gammas = standard_gamma(self.concentration.expand(shape))
        x = gammas / gammas.sum(-1, True)
        info = np.finfo(x._data.dtype)
        np.clip(x._data, float(info.tiny), 1 - float(info.eps), out=x._data)
        return x

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        c = self.concentration
        return xlogy(c - 1.0, value).sum(-1) + lgamma(c.sum(-1)) - lgamma(c).sum(-1)

    def entropy(self) -> Tensor:
        c = self.concentration
        k = c.shape[-1]
        a0 = c.sum(-1)
        return (
            lgamma(c).sum(-1) - lgamma(a0) - (k - a0) * digamma(a0)
            - ((c - 1.0) * digamma(c)).sum(-1)
        )  # fmt: skip


class Beta(Distribution):
    """Numbers in [0, 1] with density ``x**(c1-1) (1-x)**(c0-1) / B(c1, c0)``: the first
    part of a ``Dirichlet([c1, c0])``, which does the work."""

    arg_constraints = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(
        self, concentration1: Any, concentration0: Any, validate_args: bool | None = None
    ) -> None:
        if isinstance(concentration1, Number) and isinstance(concentration0, Number):
            both = tensor([float(concentration1), float(concentration0)])  # type: ignore[arg-type]
        else:
            c1, c0 = broadcast_all(concentration1, concentration0)
            both = stack([c1, c0], -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: tuple[int, ...], _instance: Any = None) -> Any:
        new = type(self).__new__(type(self)) if _instance is None else _instance
        new._dirichlet = self._dirichlet.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def concentration1(self) -> Tensor:
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self) -> Tensor:
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self) -> Tensor:
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self) -> Tensor:
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self) -> Tensor:
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        heads_tails = stack([value, 1.0 - value], -1)
        return self._dirichlet.log_prob(heads_tails)

    def entropy(self) -> Tensor:
        return self._dirichlet.entropy()


class StudentT(Distribution):
    """Student's t with ``df`` degrees of freedom, shifted by ``loc`` and scaled by
    ``scale``; ``rsample`` is ``loc + scale * x / sqrt(z / df)`` with ``x ~ N(0, 1)`` and
    ``z ~ Chi2(df)`` (a gamma draw)."""

    arg_constraints = {
        "df": constraints.positive,
        "loc": constraints.real,
        "scale": constraints.positive,
    }
    support = constraints.real
    has_rsample = True

    def __init__(
        self, df: Any, loc: Any = 0.0, scale: Any = 1.0, validate_args: bool | None = None
    ) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.shape, validate_args=validate_args)

    def expand(self, batch_shape: tuple[int, ...], _instance: Any = None) -> Any:
        new = super().expand(batch_shape, _instance)
        new._chi2 = self._chi2.expand(batch_shape)
        return new

    @property
    def mean(self) -> Tensor:
        return where(self.df <= 1, math.nan, self.loc)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        df = self.df
        finite = self.scale.pow(2) * df / (df - 2)
        other = where(df <= 1, math.nan, where(df <= 2, math.inf, df))
        return where(df > 2, finite, other)

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        x = randn(shape, dtype=self.df.dtype)
        z = self._chi2.rsample(sample_shape)
        y = x * (z / self.df).rsqrt()
        return self.loc + self.scale * y

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        df = self.df
        y = (value - self.loc) / self.scale
        z = (
            self.scale.log() + 0.5 * df.log() + 0.5 * math.log(math.pi)
            + lgamma(0.5 * df) - lgamma(0.5 * (df + 1.0))
        )  # fmt: skip
        return -0.5 * (df + 1.0) * (y.pow(2) / df).log1p() - z

    def entropy(self) -> Tensor:
        df = self.df
        lbeta = lgamma(0.5 * df) + math.lgamma(0.5) - lgamma(0.5 * (df + 1))
        return (
            self.scale.log()
            + 0.5 * (df + 1) * (digamma(0.5 * (df + 1)) - digamma(0.5 * df))
            + 0.5 * df.log() + lbeta
        )  # fmt: skip

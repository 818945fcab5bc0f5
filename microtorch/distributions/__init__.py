"""``microtorch.distributions``: PyTorch's distributions with their ``sample``, ``rsample``,
``log_prob``, ``cdf``/``icdf``, ``entropy``, moments, shapes, ``expand`` and validation:
Normal, Uniform, Bernoulli, Categorical; Exponential, Laplace, Cauchy; Gamma, Chi2, Beta,
Dirichlet, StudentT; Poisson, Geometric, Binomial; OneHotCategorical, Multinomial,
RelaxedOneHotCategorical; MultivariateNormal; Independent and TransformedDistribution (with
LogNormal, HalfNormal and Gumbel built on it, and the Exp, Affine, Sigmoid, Abs and Compose
transforms); ``kl_divergence`` between two of one family.

Samples come from microtorch's seeded generator (``torch.manual_seed``), not PyTorch's: the
same seed draws other numbers than PyTorch, from the same distribution. Everything else
(``log_prob``, ``entropy``, means, shapes, gradients through ``rsample`` for a given draw) is
PyTorch's; the gamma family's rsample gradients are exact where PyTorch approximates them.
"""

from typing import TYPE_CHECKING

from microtorch import _coverage
from microtorch.distributions import constraints
from microtorch.distributions import kl_more as _kl_more  # noqa: F401  (registers pairs)
from microtorch.distributions.bernoulli import Bernoulli
from microtorch.distributions.categorical import Categorical
from microtorch.distributions.continuous import Cauchy, Exponential, Laplace
from microtorch.distributions.discrete import Binomial, Geometric, Poisson
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.gamma import Beta, Chi2, Dirichlet, Gamma, StudentT
from microtorch.distributions.kl import kl_divergence, register_kl
from microtorch.distributions.multivariate_normal import MultivariateNormal
from microtorch.distributions.normal import Normal
from microtorch.distributions.one_hot import (
    Multinomial,
    OneHotCategorical,
    RelaxedOneHotCategorical,
)
from microtorch.distributions.transformed import Independent, TransformedDistribution
from microtorch.distributions.transformed_families import Gumbel, HalfNormal, LogNormal
from microtorch.distributions.transforms import ComposeTransform, Transform
from microtorch.distributions.transforms_basic import (
    AbsTransform,
    AffineTransform,
    ExpTransform,
    SigmoidTransform,
)
from microtorch.distributions.uniform import Uniform

__all__ = [
    "AbsTransform", "AffineTransform", "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy",
    "Chi2", "ComposeTransform", "Dirichlet", "Distribution", "ExpTransform", "Exponential",
    "Gamma", "Geometric", "Gumbel", "HalfNormal", "Independent", "Laplace", "LogNormal",
    "Multinomial", "MultivariateNormal", "Normal", "OneHotCategorical", "Poisson",
    "RelaxedOneHotCategorical", "SigmoidTransform", "StudentT", "Transform",
    "TransformedDistribution", "Uniform", "constraints", "kl_divergence", "register_kl",
]  # fmt: skip

# PyTorch names microtorch does not cover raise an error that says what to use instead.
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _coverage.module_getattr("torch.distributions", __name__)

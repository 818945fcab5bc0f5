"""``kl_divergence`` pairs for the families added for issue 24 (each with itself), by
PyTorch's formulas; registered with ``register_kl`` when ``microtorch.distributions`` loads.

Where PyTorch writes inf into the result in place, microtorch uses ``masked_fill`` (the same
values and gradients, another node name).
"""

from __future__ import annotations

import math

from microtorch.distributions.continuous import Cauchy, Exponential, Laplace
from microtorch.distributions.discrete import Binomial, Geometric, Poisson
from microtorch.distributions.gamma import Beta, Dirichlet, Gamma
from microtorch.distributions.kl import kl_divergence, register_kl
from microtorch.distributions.one_hot import OneHotCategorical
from microtorch.distributions.transformed import Independent, TransformedDistribution
from microtorch.distributions.transformed_families import Gumbel, HalfNormal
from microtorch.distributions.transforms import sum_rightmost
from microtorch.distributions.utils import digamma, lgamma
from microtorch.tensor import Tensor

__all__: list[str] = []

_EULER = 0.57721566490153286060


@register_kl(Exponential, Exponential)
def _kl_exponential(p: Exponential, q: Exponential) -> Tensor:
    ratio = q.rate / p.rate
    return -ratio.log() + ratio - 1


@register_kl(Laplace, Laplace)
def _kl_laplace(p: Laplace, q: Laplace) -> Tensor:
    ratio = p.scale / q.scale
    distance = (p.loc - q.loc).abs()
    return -ratio.log() + distance / q.scale + ratio * (-distance / p.scale).exp() - 1


@register_kl(Cauchy, Cauchy)
def _kl_cauchy(p: Cauchy, q: Cauchy) -> Tensor:
    t1 = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    return t1 - (4 * p.scale * q.scale).log()


@register_kl(Gumbel, Gumbel)
def _kl_gumbel(p: Gumbel, q: Gumbel) -> Tensor:
    ct1, ct2, ct3 = p.scale / q.scale, q.loc / q.scale, p.loc / q.scale
    t1 = -ct1.log() - ct2 + ct3
    t3 = (ct2 + lgamma(1 + ct1) - ct3).exp()
    return t1 + ct1 * _EULER + t3 - (1 + _EULER)


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal(p: HalfNormal, q: HalfNormal) -> Tensor:
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(Poisson, Poisson)
def _kl_poisson(p: Poisson, q: Poisson) -> Tensor:
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Geometric, Geometric)
def _kl_geometric(p: Geometric, q: Geometric) -> Tensor:
    return -p.entropy() - (-q.probs).log1p() / p.probs - q.logits


@register_kl(Binomial, Binomial)
def _kl_binomial(p: Binomial, q: Binomial) -> Tensor:
    if (p.total_count < q.total_count).any().item():
        raise NotImplementedError(
            "KL between Binomials where q.total_count > p.total_count is not implemented"
        )
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    return kl.masked_fill(p.total_count > q.total_count, math.inf)


@register_kl(Gamma, Gamma)
def _kl_gamma(p: Gamma, q: Gamma) -> Tensor:
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = lgamma(q.concentration) - lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Beta, Beta)
def _kl_beta(p: Beta, q: Beta) -> Tensor:
    sum_p = p.concentration1 + p.concentration0
    sum_q = q.concentration1 + q.concentration0
    t1 = lgamma(q.concentration1) + lgamma(q.concentration0) + lgamma(sum_p)
    t2 = lgamma(p.concentration1) + lgamma(p.concentration0) + lgamma(sum_q)
    t3 = (p.concentration1 - q.concentration1) * digamma(p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * digamma(p.concentration0)
    t5 = (sum_q - sum_p) * digamma(sum_p)
    return t1 - t2 + t3 + t4 + t5


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet(p: Dirichlet, q: Dirichlet) -> Tensor:
    sum_p, sum_q = p.concentration.sum(-1), q.concentration.sum(-1)
    t1 = lgamma(sum_p) - lgamma(sum_q)
    t2 = (lgamma(p.concentration) - lgamma(q.concentration)).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = digamma(p.concentration) - digamma(sum_p).unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical(p: OneHotCategorical, q: OneHotCategorical) -> Tensor:
    return kl_divergence(p._categorical, q._categorical)


@register_kl(Independent, Independent)
def _kl_independent(p: Independent, q: Independent) -> Tensor:
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    result = kl_divergence(p.base_dist, q.base_dist)
    return sum_rightmost(result, p.reinterpreted_batch_ndims)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed(p: TransformedDistribution, q: TransformedDistribution) -> Tensor:
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)

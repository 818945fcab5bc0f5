"""``kl_divergence(p, q)``: KL(p || q) between two distributions of the same family (Normal,
Bernoulli, Categorical, Uniform), by PyTorch's formulas; ``register_kl`` adds a pair.
PyTorch also has some pairs of two families (e.g. Normal and Uniform): microtorch raises
PyTorch's ``NotImplementedError`` for those rather than answer differently.

Where PyTorch writes inf or 0 into the result in place (``t[mask] = inf``), microtorch uses
``masked_fill``: the same values and gradients, ``MaskedFillBackward0`` in the graph.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from microtorch.distributions.bernoulli import Bernoulli
from microtorch.distributions.categorical import Categorical
from microtorch.distributions.distribution import Distribution
from microtorch.distributions.normal import Normal
from microtorch.distributions.uniform import Uniform
from microtorch.nn.functional import softplus
from microtorch.tensor import Tensor

__all__ = ["kl_divergence", "register_kl"]

_KL: dict[tuple[type, type], Callable[[Any, Any], Tensor]] = {}


def register_kl(type_p: type, type_q: type) -> Callable[[Callable[..., Tensor]], Any]:
    """Decorator: ``@register_kl(P, Q) def kl(p, q): ...`` makes ``kl_divergence`` use it."""

    def decorator(fun: Callable[..., Tensor]) -> Callable[..., Tensor]:
        _KL[type_p, type_q] = fun
        return fun

    return decorator


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """KL(p || q) = E_p[log p(x) - log q(x)], one value per distribution of the batch."""
    fun = _KL.get((type(p), type(q)))
    if fun is None:  # the first registered pair p and q belong to
        fun = next((f for (a, b), f in _KL.items() if isinstance(p, a) and isinstance(q, b)), None)
    if fun is None:
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
            f"{type(q).__name__}"
        )
    return fun(p, q)


@register_kl(Normal, Normal)
def _kl_normal_normal(p: Normal, q: Normal) -> Tensor:
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p: Bernoulli, q: Bernoulli) -> Tensor:
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1 = t1.masked_fill(q.probs == 0, math.inf).masked_fill(p.probs == 0, 0.0)
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2 = t2.masked_fill(q.probs == 1, math.inf).masked_fill(p.probs == 1, 0.0)
    return t1 + t2


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p: Categorical, q: Categorical) -> Tensor:
    t = p.probs * (p.logits - q.logits)
    t = t.masked_fill((q.probs == 0).expand_as(t), math.inf)
    t = t.masked_fill((p.probs == 0).expand_as(t), 0.0)
    return t.sum(-1)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p: Uniform, q: Uniform) -> Tensor:
    result = ((q.high - q.low) / (p.high - p.low)).log()
    return result.masked_fill((q.low > p.low) | (q.high < p.high), math.inf)

"""The distributions added for issue 24 against PyTorch 2.13: the deterministic parts exactly
(log_prob, cdf, icdf, entropy, moments, shapes, reprs, supports, expand, gradients of log_prob
and entropy in float64), rsample gradients for the same draws, samples by their statistics
(microtorch's generator is not PyTorch's), and validation errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

RNG = np.random.default_rng(24)
LOC = RNG.standard_normal((2, 3))
SCALE = RNG.uniform(0.5, 2.0, (2, 3))
PROBS = RNG.uniform(0.1, 0.9, (2, 3))
CONC = RNG.uniform(0.6, 3.0, (2, 3))
VEC = RNG.uniform(0.2, 1.0, (2, 4))


def _t(lib: ModuleType, a: np.ndarray) -> Any:
    return lib.tensor(a, dtype=lib.float64, requires_grad=True)


def _leaves(lib: ModuleType) -> list[Any]:
    return [_t(lib, a) for a in (LOC, SCALE, PROBS, CONC, VEC)]


POSITIVE = RNG.uniform(0.1, 3.0, (4, 2, 3))
REAL = RNG.standard_normal((4, 2, 3)) * 2
UNIT = RNG.uniform(0.05, 0.95, (4, 2, 3))
SIMPLEX = RNG.dirichlet(np.ones(4), (3, 2))
ONE_HOT = np.eye(4)[RNG.integers(0, 4, (3, 2))]
ONE_HOT_2 = np.eye(2)[RNG.integers(0, 2, (3, 2))]
MULTI = np.stack([RNG.multinomial(7, [0.25] * 4, (3,)) for _ in range(2)], 1).astype(float)
COUNTS = RNG.integers(0, 9, (4, 2, 3)).astype(np.float64)

# name -> (build from the leaves [loc, scale, probs, conc, vec], values to score, gradient rtol)
Build = Callable[[ModuleType, list], Any]
CASES: dict[str, tuple[Build, np.ndarray, float]] = {
    "exponential": (lambda L, p: L.distributions.Exponential(p[1]), POSITIVE, 1e-12),
    "exponential_number": (lambda L, p: L.distributions.Exponential(2.5), POSITIVE[0, 0], 1e-12),
    "laplace": (lambda L, p: L.distributions.Laplace(p[0], p[1]), REAL, 1e-12),
    "cauchy": (lambda L, p: L.distributions.Cauchy(p[0], p[1]), REAL, 1e-12),
    "cauchy_numbers": (lambda L, p: L.distributions.Cauchy(0.5, 2.0), REAL[:, 0], 1e-12),
    "gumbel": (lambda L, p: L.distributions.Gumbel(p[0], p[1]), REAL, 1e-12),
    "gumbel_numbers": (lambda L, p: L.distributions.Gumbel(0.5, 2.0), REAL[0], 1e-12),
    "halfnormal": (lambda L, p: L.distributions.HalfNormal(p[1]), POSITIVE, 1e-12),
    "lognormal": (lambda L, p: L.distributions.LogNormal(p[0], p[1]), POSITIVE, 1e-12),
    "independent": (
        lambda L, p: L.distributions.Independent(L.distributions.Normal(p[0], p[1]), 1),
        REAL,
        1e-12,
    ),
    "independent_2": (
        lambda L, p: L.distributions.Independent(L.distributions.Laplace(p[0], p[1]), 2),
        REAL,
        1e-12,
    ),
    "transformed_sigmoid_affine": (
        lambda L, p: L.distributions.TransformedDistribution(
            L.distributions.Normal(p[0], p[1]),
            [L.distributions.SigmoidTransform(), L.distributions.AffineTransform(1.0, p[1])],
        ),
        1.0 + UNIT * SCALE,
        1e-10,
    ),
    "transformed_exp_negative_affine": (
        lambda L, p: L.distributions.TransformedDistribution(
            L.distributions.Normal(p[0], p[1]),
            [L.distributions.ExpTransform(), L.distributions.AffineTransform(2.0, -3.0)],
        ),
        2.0 - POSITIVE,
        1e-12,
    ),
    "poisson": (lambda L, p: L.distributions.Poisson(p[1]), COUNTS, 1e-12),
    "poisson_number": (lambda L, p: L.distributions.Poisson(2.5), COUNTS[0], 1e-12),
    "geometric_probs": (lambda L, p: L.distributions.Geometric(p[2]), COUNTS, 1e-12),
    "geometric_logits": (lambda L, p: L.distributions.Geometric(logits=p[0]), COUNTS, 1e-12),
    "binomial_probs": (lambda L, p: L.distributions.Binomial(9, p[2]), COUNTS, 1e-10),
    "binomial_logits": (
        lambda L, p: L.distributions.Binomial(L.tensor([[9.0], [12.0]]), logits=p[0]),
        COUNTS,
        1e-10,
    ),
    "gamma": (lambda L, p: L.distributions.Gamma(p[3], p[1]), POSITIVE, 1e-6),
    "gamma_numbers": (lambda L, p: L.distributions.Gamma(2.5, 0.5), POSITIVE[0], 1e-6),
    "beta": (lambda L, p: L.distributions.Beta(p[3], p[1]), UNIT, 1e-6),
    "beta_numbers": (lambda L, p: L.distributions.Beta(0.7, 2.0), UNIT[0], 1e-6),
    "dirichlet": (
        lambda L, p: L.distributions.Dirichlet(p[4]),
        SIMPLEX,
        1e-6,
    ),
    "dirichlet_corner_mode": (
        lambda L, p: L.distributions.Dirichlet(p[4] * p[4][:, :1] + L.tensor([[0.0], [2.0]])),
        SIMPLEX,
        1e-6,
    ),
    "studentt": (lambda L, p: L.distributions.StudentT(p[3], p[0], p[1]), REAL, 1e-6),
    "studentt_df": (lambda L, p: L.distributions.StudentT(p[3] * 2), REAL, 1e-6),
    "onehot_probs": (lambda L, p: L.distributions.OneHotCategorical(p[4]), ONE_HOT, 1e-12),
    "onehot_logits": (
        lambda L, p: L.distributions.OneHotCategorical(logits=p[0][:, :2]),
        ONE_HOT_2,
        1e-12,
    ),
    "multinomial": (lambda L, p: L.distributions.Multinomial(7, p[4]), MULTI, 1e-10),
    "multinomial_logits": (
        lambda L, p: L.distributions.Multinomial(7, logits=p[4].log()),
        MULTI,
        1e-10,
    ),
    "relaxed_onehot": (
        lambda L, p: L.distributions.RelaxedOneHotCategorical(p[1][0, 0], p[4]),
        SIMPLEX,
        1e-10,
    ),
    "relaxed_onehot_logits": (
        lambda L, p: L.distributions.RelaxedOneHotCategorical(
            L.tensor(0.3, dtype=L.float64), logits=p[4]
        ),
        SIMPLEX,
        1e-10,
    ),
}

PROPERTIES = ("mean", "mode", "variance", "stddev")


def _try(f: Callable[[], Any]) -> Any:
    try:
        return f()
    except NotImplementedError:
        return "NotImplementedError"
    except ValueError as e:
        return f"ValueError: {str(e)[:40]}"


def _np(x: Any) -> Any:
    return x.detach().numpy() if hasattr(x, "detach") else x


def _facts(lib: ModuleType, name: str) -> dict[str, Any]:
    build, values, _ = CASES[name]
    leaves = _leaves(lib)
    d = build(lib, leaves)
    value = lib.tensor(values, dtype=lib.float64)
    log_prob = d.log_prob(value)
    upstream = lib.tensor(np.random.default_rng(5).uniform(0.5, 1.5, tuple(log_prob.shape)))
    total = (log_prob * upstream).sum()
    entropy = _try(d.entropy)
    if not isinstance(entropy, str) and entropy.requires_grad:
        total = total + entropy.sum()
    if total.requires_grad:
        total.backward()
    facts: dict[str, Any] = {
        "repr": repr(d).replace("microtorch.", "torch."),
        "support": repr(d.support).replace("microtorch.", "torch."),
        "batch_shape": tuple(d.batch_shape), "event_shape": tuple(d.event_shape),
        "sample_shape": tuple(d.sample((4, 1)).shape),
        "sample_dtype": str(d.sample().dtype).replace("microtorch.", "torch."),
        "has_rsample": d.has_rsample,
        "log_prob": log_prob.detach().numpy(),
        "entropy": _np(entropy),
        "grads": [None if t.grad is None else t.grad.numpy() for t in leaves],
    }  # fmt: skip
    if d.has_rsample:
        facts["rsample_shape"] = tuple(d.rsample((3,)).shape)
    for prop in PROPERTIES:
        facts[prop] = _np(_try(lambda prop=prop: getattr(d, prop)))
    with lib.no_grad():
        facts["cdf"] = _np(_try(lambda: d.cdf(value)))
        if d.event_shape == ():
            probs = np.random.default_rng(6).uniform(0.05, 0.95, values.shape)
            facts["icdf"] = _np(_try(lambda: d.icdf(lib.tensor(probs, dtype=lib.float64))))
        big = d.expand((5, *d.batch_shape))
        facts["expand"] = (tuple(big.batch_shape), tuple(big.event_shape), repr(type(big)))
        one = value.reshape(-1, *d.event_shape)[0]  # (one event: it broadcasts)
        facts["expand_log_prob"] = big.log_prob(one).numpy()
    return facts


@pytest.mark.parametrize("name", list(CASES))
def test_deterministic_parts_match_torch(torch_module: ModuleType, name: str) -> None:
    mine, theirs = _facts(microtorch, name), _facts(torch_module, name)
    assert sorted(mine) == sorted(theirs)
    rtol = CASES[name][2]
    for key, want in theirs.items():
        got = mine[key]
        if key == "expand":
            assert got[:2] == want[:2] and got[2].split(".")[-1] == want[2].split(".")[-1]
        elif key == "grads":
            for a, b in zip(got, want):
                assert (a is None) == (b is None)
                if b is not None:
                    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)
        elif isinstance(want, np.ndarray):
            assert isinstance(got, np.ndarray), key
            assert got.dtype == want.dtype and got.shape == want.shape, key
            tol = 1e-12 if want.dtype == np.float64 else 1e-6
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=key)
        else:
            assert got == want, key

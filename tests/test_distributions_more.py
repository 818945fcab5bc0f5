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


def _spd(L: ModuleType, m: Any) -> Any:
    """A symmetric positive-definite 3x3 matrix (batched) made from the rows of ``m``."""
    a = m[..., :3].unsqueeze(-1) * m[..., :3].unsqueeze(-2)
    return a + L.eye(3, dtype=L.float64) * (1.0 + m[..., :1].unsqueeze(-1))


def _tril(L: ModuleType, m: Any) -> Any:
    """A lower-triangular 3x3 matrix with a positive diagonal, from the (2, 3) ``m``."""
    full = L.cat([m, m[:1] * 0.5], 0)  # (3, 3)
    return full.tril(-1) * 0.3 + L.diag_embed(full[0] + 0.5)


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
    "chi2": (lambda L, p: L.distributions.Chi2(p[3]), POSITIVE, 1e-6),
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
    "mvn_covariance": (
        lambda L, p: L.distributions.MultivariateNormal(p[0], _spd(L, p[4])),
        REAL,
        1e-9,
    ),
    "mvn_scale_tril": (
        lambda L, p: L.distributions.MultivariateNormal(p[0][0], scale_tril=_tril(L, p[3])),
        REAL,
        1e-9,
    ),
    "mvn_precision": (
        lambda L, p: L.distributions.MultivariateNormal(p[0], precision_matrix=_spd(L, p[1])),
        REAL,
        1e-9,
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


def _kl(lib: ModuleType) -> list[Any]:
    D = lib.distributions
    leaves = _leaves(lib)
    loc, scale, probs, conc, vec = leaves
    counts = lib.tensor([[9.0], [12.0]], dtype=lib.float64)
    pairs = [
        (D.Exponential(scale), D.Exponential(conc)),
        (D.Laplace(loc, scale), D.Laplace(loc * 0.3, conc)),
        (D.Cauchy(loc, scale), D.Cauchy(-loc, conc)),
        (D.Gumbel(loc, scale), D.Gumbel(loc + 1, conc)),
        (D.HalfNormal(scale), D.HalfNormal(conc)),
        (D.Poisson(scale), D.Poisson(conc)),
        (D.Geometric(probs), D.Geometric(logits=loc)),
        (D.Binomial(counts, probs), D.Binomial(9, logits=loc)),
        (D.Gamma(conc, scale), D.Gamma(scale, conc)),
        (D.Beta(conc, scale), D.Beta(scale, conc)),
        (D.Dirichlet(vec), D.Dirichlet(vec * 2 + 0.1)),
        (D.OneHotCategorical(vec), D.OneHotCategorical(logits=vec)),
        (D.Independent(D.Normal(loc, scale), 1), D.Independent(D.Normal(loc * 2, conc), 1)),
        (D.LogNormal(loc, scale), D.LogNormal(-loc, conc)),
        (
            D.MultivariateNormal(loc, _spd(lib, vec)),
            D.MultivariateNormal(loc[0] * 2, scale_tril=_tril(lib, conc)),
        ),
    ]
    out = []
    for p, q in pairs:
        kl = D.kl_divergence(p, q)
        out.append(kl.detach().numpy())
        kl.masked_fill(kl.isinf(), 0.0).sum().backward()
    out.append([None if t.grad is None else t.grad.numpy() for t in leaves])
    return out


def test_kl_divergence_matches_torch(torch_module: ModuleType) -> None:
    mine, theirs = _kl(microtorch), _kl(torch_module)
    for i, (a, b) in enumerate(zip(mine[:-1], theirs[:-1])):
        assert a.dtype == b.dtype and a.shape == b.shape, i
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=str(i))
    for a, b in zip(mine[-1], theirs[-1]):
        assert (a is None) == (b is None)
        if b is not None:  # (digamma's gradient: PyTorch's trigamma is good to ~1e-8)
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)
    for lib in (microtorch, torch_module):
        D = lib.distributions
        with pytest.raises(NotImplementedError, match="q.total_count > p.total_count"):
            D.kl_divergence(D.Binomial(3, lib.tensor(0.5)), D.Binomial(5, lib.tensor(0.5)))
        with pytest.raises(NotImplementedError):
            D.kl_divergence(
                D.Independent(D.Normal(lib.zeros(2, 3), 1.0), 1),
                D.Independent(D.Normal(lib.zeros(2, 3), 1.0), 2),
            )


def test_rsample_gradients_match_torch_for_the_same_draws(torch_module: ModuleType) -> None:
    # Where the draw is a transform of a standard one, the same standard draw through torch's
    # formula gives the same gradients.
    microtorch.manual_seed(0)
    weights = RNG.uniform(-1, 1, (20, 2, 3))
    checks = [
        ("Exponential", lambda L, p: L.distributions.Exponential(p[1]), lambda L, p, x: x * p[1]),
        ("Laplace", lambda L, p: L.distributions.Laplace(p[0], p[1]), None),
        ("Cauchy", lambda L, p: L.distributions.Cauchy(p[0], p[1]), None),
        ("LogNormal", lambda L, p: L.distributions.LogNormal(p[0], p[1]), None),
        ("HalfNormal", lambda L, p: L.distributions.HalfNormal(p[1]), None),
        ("Gumbel", lambda L, p: L.distributions.Gumbel(p[0], p[1]), None),
    ]
    for name, build, _ in checks:
        leaves = _leaves(microtorch)
        draws = build(microtorch, leaves).rsample((20,))
        (draws * microtorch.tensor(weights)).sum().backward()
        x = draws.detach().numpy()
        tleaves = _leaves(torch_module)
        d = build(torch_module, tleaves)
        # the standard draw behind x, pushed through torch's distribution: the quantile of x
        u = d.cdf(torch_module.tensor(x)).detach()
        same = d.icdf(u) if name != "HalfNormal" else d.icdf(u)
        (same * torch_module.tensor(weights)).sum().backward()
        for a, b in zip(leaves, tleaves):
            if b.grad is not None:
                np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-7, err_msg=name)


def test_gamma_rsample_gradient_is_the_implicit_one(torch_module: ModuleType) -> None:
    microtorch.manual_seed(3)
    conc = _t(microtorch, CONC)
    x = microtorch.distributions.Gamma(conc, 1.0).rsample((50,))
    x.sum().backward()
    assert x.grad_fn.name() == "DivBackward0"
    t = torch_module
    want = t._standard_gamma_grad(t.tensor(CONC).expand(50, 2, 3), t.tensor(x.detach().numpy()))
    # (PyTorch's formula is an approximation good to about 1e-5; ours sums P's series)
    np.testing.assert_allclose(conc.grad.numpy(), want.sum(0).numpy(), rtol=2e-4)


def test_rsample_gradients_are_unbiased() -> None:
    # d/dtheta E[x] by averaging rsample gradients, against the derivative of the mean
    microtorch.manual_seed(4)
    n = 20_000
    D = microtorch.distributions
    c = microtorch.tensor([0.7, 3.0], dtype=microtorch.float64, requires_grad=True)
    D.Gamma(c, 2.0).rsample((n,)).mean(0).sum().backward()
    np.testing.assert_allclose(c.grad.numpy(), [0.5, 0.5], rtol=0.03)
    a = microtorch.tensor([0.8, 2.0], dtype=microtorch.float64, requires_grad=True)
    D.Beta(a, 1.5).rsample((n,)).mean(0).sum().backward()
    want = 1.5 / (a.detach().numpy() + 1.5) ** 2
    np.testing.assert_allclose(a.grad.numpy(), want, rtol=0.05)
    v = microtorch.tensor([0.5, 1.0, 2.0], dtype=microtorch.float64, requires_grad=True)
    D.Dirichlet(v).rsample((n,))[:, 0].mean().backward()
    total = 3.5
    want = np.array([1 / total - 0.5 / total**2, -0.5 / total**2, -0.5 / total**2])
    np.testing.assert_allclose(v.grad.numpy(), want, rtol=0.05, atol=0.005)
    df = microtorch.tensor([5.0], dtype=microtorch.float64, requires_grad=True)
    x = D.StudentT(df).rsample((n,))
    assert x.requires_grad and tuple(x.shape) == (n, 1)
    t = microtorch.tensor([0.5], dtype=microtorch.float64, requires_grad=True)
    y = D.RelaxedOneHotCategorical(t, logits=microtorch.zeros(3, dtype=microtorch.float64))
    assert y.rsample((4,)).requires_grad


def test_samples_have_the_distributions_statistics() -> None:
    microtorch.manual_seed(1)
    D, T = microtorch.distributions, microtorch.tensor
    n = 40_000
    families = [
        D.Exponential(T([0.5, 2.0])), D.Laplace(T([0.0, 1.0]), 2.0), D.Gumbel(T([0.0, 1.0]), 2.0),
        D.HalfNormal(T([1.0, 3.0])), D.LogNormal(T([0.0, 0.5]), 0.5), D.Poisson(T([0.5, 7.0])),
        D.Geometric(T([0.2, 0.7])), D.Binomial(T([5.0, 20.0]), T([0.3, 0.6])),
        D.Gamma(T([0.5, 4.0]), T([1.0, 2.0])), D.Beta(T([0.5, 3.0]), T([2.0, 1.0])),
        D.Dirichlet(T([[0.5, 1.0, 2.0]])), D.StudentT(T([5.0, 10.0]), 1.0, 2.0),
        D.Multinomial(6, T([0.2, 0.3, 0.5])), D.OneHotCategorical(T([0.2, 0.3, 0.5])),
        D.MultivariateNormal(T([1.0, -1.0]), T([[2.0, 0.6], [0.6, 0.5]])),
    ]  # fmt: skip
    for d in families:
        x = d.sample((n,))
        assert tuple(x.shape) == (n, *d.batch_shape, *d.event_shape)
        assert d.support.check(x).all().item(), d
        np.testing.assert_allclose(
            x.mean(0).numpy(), d.mean.numpy(), rtol=0.03, atol=0.02, err_msg=repr(d)
        )
        np.testing.assert_allclose(
            x.var(0).numpy(), d.variance.numpy(), rtol=0.08, atol=0.01, err_msg=repr(d)
        )
    c = D.Cauchy(T([0.0, 1.0]), 2.0).sample((n,))
    np.testing.assert_allclose(c.median(0).values.numpy(), [0.0, 1.0], atol=0.06)
    r = D.RelaxedOneHotCategorical(T(0.1), T([0.2, 0.8])).sample((n,))
    assert (r >= 0).all().item() and ((r.sum(-1) - 1).abs() < 1e-5).all().item()
    assert abs((r[:, 1] > 0.5).float().mean().item() - 0.8) < 0.02


def test_errors_match_torch(torch_module: ModuleType) -> None:
    from tests.nn.test_losses import _message

    def calls(lib: ModuleType) -> list:
        D, t = lib.distributions, lib.tensor
        return [
            lambda: D.Exponential(-1.0),
            lambda: D.Exponential(1.0).log_prob(t(-1.0)),
            lambda: D.Laplace(0.0, 0.0),
            lambda: D.Cauchy(t([0.0, 1.0]), t([1.0, -1.0])),
            lambda: D.Gumbel(0.0, -2.0),
            lambda: D.HalfNormal(-1.0),
            lambda: D.HalfNormal(1.0).log_prob(t(-1.0)),
            lambda: D.LogNormal(0.0, -1.0),
            lambda: D.LogNormal(0.0, 1.0).log_prob(t(-1.0)),
            lambda: D.Poisson(-1.0),
            lambda: D.Poisson(1.0).log_prob(t(1.5)),
            lambda: D.Geometric(t([0.0, 0.5])),
            lambda: D.Geometric(),
            lambda: D.Binomial(5, t(1.5)),
            lambda: D.Binomial(t(2.5), t(0.5)),
            lambda: D.Binomial(5, t(0.5)).log_prob(t(6.0)),
            lambda: D.Binomial(t([3.0, 4.0]), t(0.5)).entropy(),
            lambda: D.Gamma(0.0, 1.0),
            lambda: D.Beta(t(1.0), t(-1.0)),
            lambda: D.Beta(1.0, 2.0).log_prob(t(1.5)),
            lambda: D.Dirichlet(t(1.0)),
            lambda: D.Dirichlet(t([1.0, -1.0])),
            lambda: D.Dirichlet(t([1.0, 1.0])).log_prob(t([0.5, 0.6])),
            lambda: D.StudentT(t(-1.0)),
            lambda: D.Multinomial(2.5, t([0.5, 0.5])),
            lambda: D.Multinomial(2, t([0.5, 0.5])).log_prob(t([2.0, 1.0])),
            lambda: D.OneHotCategorical(t([0.5, -0.5])),
            lambda: D.OneHotCategorical(t([0.5, 0.5])).log_prob(t([1.0, 1.0])),
            lambda: D.RelaxedOneHotCategorical(t(0.5)),
            lambda: D.Independent(D.Normal(0.0, 1.0), 1),
            lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), "exp"),
            lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), ["exp"]),
            lambda: D.Exponential(1.0).rsample(3),
            lambda: D.Poisson(1.0).rsample(),
            lambda: D.ExpTransform(cache_size=2),
            lambda: D.MultivariateNormal(lib.zeros(2)),
            lambda: D.MultivariateNormal(t(0.0), lib.eye(2)),
            lambda: D.MultivariateNormal(lib.zeros(2), lib.ones(2)),
            lambda: D.MultivariateNormal(lib.zeros(2), t([[1.0, 2.0], [2.0, 1.0]])),
            lambda: D.MultivariateNormal(lib.zeros(2), scale_tril=t([[1.0, 1.0], [0.0, 1.0]])),
            lambda: D.MultivariateNormal(lib.zeros(2), lib.eye(2)).log_prob(lib.zeros(3)),
        ]

    mine = [_message(c) for c in calls(microtorch)]
    theirs = [_message(c) for c in calls(torch_module)]
    for i, (a, b) in enumerate(zip(mine, theirs)):
        assert a == b, i


def test_validate_args_false_and_expand(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        D = lib.distributions
        d = D.Gamma(-1.0, 1.0, validate_args=False)
        assert d.log_prob(lib.tensor(0.5)).item() == -np.inf
        e = D.Beta(lib.tensor([1.0, 2.0]), 1.0).expand((3, 2))
        assert tuple(e.batch_shape) == (3, 2) and tuple(e.sample().shape) == (3, 2)
        s = D.StudentT(lib.tensor([3.0])).expand((4, 1))
        assert tuple(s.rsample().shape) == (4, 1)
        m = D.MultivariateNormal(lib.zeros(2), lib.eye(2)).expand((3,))
        assert tuple(m.rsample((5,)).shape) == (5, 3, 2)
        assert tuple(m.covariance_matrix.shape) == (3, 2, 2)


def test_transforms_match_torch(torch_module: ModuleType) -> None:
    def facts(lib: ModuleType) -> list[Any]:
        D = lib.distributions
        x = _t(lib, LOC)
        out = []
        for t in [
            D.ExpTransform(), D.SigmoidTransform(), D.AffineTransform(1.0, -2.0),
            D.AffineTransform(_t(lib, SCALE[0]), _t(lib, SCALE[1]), event_dim=1),
            D.ComposeTransform([D.ExpTransform(), D.AffineTransform(0.5, 3.0)]),
            D.ExpTransform().inv, D.AbsTransform(),
        ]:  # fmt: skip
            y = t(x)
            ladj = t.log_abs_det_jacobian(x, y) if t.bijective else None
            back = t.inv(y)
            out.append((
                repr(t), repr(t.domain), repr(t.codomain), t.bijective,
                y.detach().numpy(), back.detach().numpy(),
                None if ladj is None else ladj.detach().numpy(),
                tuple(t.forward_shape((2, 3))),
            ))  # fmt: skip
        out.append(D.ExpTransform() == D.ExpTransform().inv.inv)
        out.append(D.AffineTransform(1.0, 2.0) == D.AffineTransform(1.0, 2.0))
        return out

    mine, theirs = facts(microtorch), facts(torch_module)
    for a, b in zip(mine, theirs):
        if isinstance(b, tuple):
            for u, v in zip(a, b):
                if isinstance(v, np.ndarray):
                    np.testing.assert_allclose(u, v, rtol=1e-12, atol=1e-300)
                else:
                    assert u == v
        else:
            assert a == b


@pytest.mark.parametrize(
    "build",
    [
        lambda L, a, b: L.distributions.Gamma(a, b).log_prob(L.tensor([0.3, 2.0], dtype=L.float64)),
        lambda L, a, b: L.distributions.Gamma(a, b).entropy(),
        lambda L, a, b: L.distributions.Beta(a, b).log_prob(L.tensor([0.3, 0.8], dtype=L.float64)),
        lambda L, a, b: L.distributions.StudentT(a, b, b).log_prob(L.tensor(0.4, dtype=L.float64)),
        lambda L, a, b: L.distributions.Dirichlet(L.stack([a, b], -1)).entropy(),
        lambda L, a, b: L.distributions.Binomial(5, logits=a - b).log_prob(L.tensor(2.0)),
        lambda L, a, b: L.distributions.MultivariateNormal(
            a, L.diag_embed(b) + 0.3 * (a.unsqueeze(-1) * a.unsqueeze(-2))
        ).log_prob(L.tensor([0.2, -0.1], dtype=L.float64)),
    ],
)
def test_gradients_by_finite_differences(build: Callable[..., Any]) -> None:
    a = microtorch.tensor([0.8, 2.5], dtype=microtorch.float64, requires_grad=True)
    b = microtorch.tensor([1.3, 0.6], dtype=microtorch.float64, requires_grad=True)
    assert microtorch.autograd.gradcheck(lambda x, y: build(microtorch, x, y), (a, b))

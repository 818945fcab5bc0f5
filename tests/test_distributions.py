"""torch.distributions against PyTorch 2.13: the deterministic parts exactly (log_prob, entropy,
mean, variance, probs/logits, shapes, reprs, validation errors, gradients in float64), the
samples by their statistics (microtorch's generator is not PyTorch's)."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

RNG = np.random.default_rng(0)
LOC, SCALE = RNG.standard_normal((2, 3)), RNG.uniform(0.5, 2.0, (2, 3))
PROBS = RNG.uniform(0.05, 0.95, (2, 3))
CLASS_PROBS = RNG.uniform(0.1, 1.0, (2, 4))
LOGITS = RNG.standard_normal((2, 4)) * 3
LOW, HIGH = RNG.uniform(-2, 0, (3,)), RNG.uniform(0.5, 2, (3,))


def _t(lib: ModuleType, a: np.ndarray) -> Any:
    return lib.tensor(a, dtype=lib.float64, requires_grad=True)


# name -> (build the distribution from leaf tensors, the values to score)
CASES: dict[str, tuple[Callable[[ModuleType, list], Any], np.ndarray]] = {
    "normal": (
        lambda lib, p: lib.distributions.Normal(p[0], p[1]),
        RNG.standard_normal((5, 2, 3)),
    ),
    "normal_number_scale": (lambda lib, p: lib.distributions.Normal(p[0], 0.7), LOC[0] + 0.3),
    "bernoulli_probs": (
        lambda lib, p: lib.distributions.Bernoulli(probs=p[2]),
        (RNG.random((4, 2, 3)) < 0.5).astype(np.float64),
    ),
    "bernoulli_logits": (
        lambda lib, p: lib.distributions.Bernoulli(logits=p[0]),
        (RNG.random((2, 3)) < 0.5).astype(np.float64),
    ),
    "categorical_probs": (
        lambda lib, p: lib.distributions.Categorical(probs=p[3]),
        RNG.integers(0, 4, (6, 2)),
    ),
    "categorical_logits": (
        lambda lib, p: lib.distributions.Categorical(logits=p[4]),
        RNG.integers(0, 4, (2,)),
    ),
    "categorical_1d": (
        lambda lib, p: lib.distributions.Categorical(logits=p[4][0]),
        RNG.integers(0, 4, (3, 2)),
    ),
    "categorical_one_value": (  # (a 0-d value: one draw of one distribution)
        lambda lib, p: lib.distributions.Categorical(logits=p[4][0]),
        np.array(2),
    ),
    "uniform": (
        lambda lib, p: lib.distributions.Uniform(p[5], p[6]),
        LOW + RNG.random((4, 3)) * (HIGH - LOW),
    ),
}


def _leaves(lib: ModuleType) -> list[Any]:
    return [_t(lib, a) for a in (LOC, SCALE, PROBS, CLASS_PROBS, LOGITS, LOW, HIGH)]


def _facts(lib: ModuleType, name: str) -> dict[str, Any]:
    build, values = CASES[name]
    leaves = _leaves(lib)
    d = build(lib, leaves)
    dtype = lib.int64 if name.startswith("categorical") else lib.float64
    value = lib.tensor(values, dtype=dtype)
    log_prob = d.log_prob(value)
    entropy = d.entropy()
    upstream = lib.tensor(np.random.default_rng(5).uniform(0.5, 1.5, tuple(log_prob.shape)))
    (log_prob * upstream).sum().backward(retain_graph=True)
    if entropy.requires_grad:  # (a number scale: the entropy is a constant)
        entropy.sum().backward()
    facts: dict[str, Any] = {
        "repr": repr(d).replace("microtorch.", "torch."),
        "batch_shape": tuple(d.batch_shape), "event_shape": tuple(d.event_shape),
        "sample_shape": tuple(d.sample((4, 1)).shape), "sample_dtype": str(d.sample().dtype),
        "log_prob": log_prob.detach().numpy(), "entropy": entropy.detach().numpy(),
        "grads": [None if t.grad is None else t.grad.numpy() for t in leaves],
        "has_rsample": d.has_rsample,
    }  # fmt: skip
    facts["sample_dtype"] = facts["sample_dtype"].replace("microtorch.", "torch.")
    for prop in ("mean", "variance", "stddev", "probs", "logits", "mode"):
        if hasattr(type(d), prop):
            facts[prop] = getattr(d, prop).detach().numpy()
    return facts


@pytest.mark.parametrize("name", list(CASES))
def test_deterministic_parts_match_torch(torch_module: ModuleType, name: str) -> None:
    mine, theirs = _facts(microtorch, name), _facts(torch_module, name)
    assert sorted(mine) == sorted(theirs)
    for key, want in theirs.items():
        got = mine[key]
        if key == "grads":
            for a, b in zip(got, want):
                assert (a is None) == (b is None)
                if b is not None:
                    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        elif isinstance(want, np.ndarray):
            assert got.dtype == want.dtype and got.shape == want.shape, key
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=key)
        else:
            assert got == want, key


def test_rsample_gradients_are_the_reparameterisation(torch_module: ModuleType) -> None:
    # The same eps through torch's formula loc + eps * scale gives the same gradients.
    microtorch.manual_seed(0)
    loc, scale = _t(microtorch, LOC), _t(microtorch, SCALE)
    draws = microtorch.distributions.Normal(loc, scale).rsample((50,))
    weights = RNG.uniform(-1, 1, (50, 2, 3))
    (draws * microtorch.tensor(weights)).sum().backward()
    eps = (draws.detach().numpy() - LOC) / SCALE
    tloc, tscale = _t(torch_module, LOC), _t(torch_module, SCALE)
    same = tloc + torch_module.tensor(eps) * tscale
    (same * torch_module.tensor(weights)).sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), tloc.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(scale.grad.numpy(), tscale.grad.numpy(), rtol=1e-12)
    low, high = _t(microtorch, LOW), _t(microtorch, HIGH)
    u = microtorch.distributions.Uniform(low, high).rsample((7,))
    u.sum().backward()
    frac = (u.detach().numpy() - LOW) / (HIGH - LOW)
    np.testing.assert_allclose(high.grad.numpy(), frac.sum(0), rtol=1e-12)
    np.testing.assert_allclose(low.grad.numpy(), (1 - frac).sum(0), rtol=1e-12)


def test_samples_have_the_distributions_statistics() -> None:
    microtorch.manual_seed(1)
    D = microtorch.distributions
    n = 40_000
    x = D.Normal(microtorch.tensor([1.0, -2.0]), microtorch.tensor([0.5, 3.0])).sample((n,))
    np.testing.assert_allclose(x.mean(0).numpy(), [1.0, -2.0], atol=0.05)
    np.testing.assert_allclose(x.std(0).numpy(), [0.5, 3.0], rtol=0.03)
    b = D.Bernoulli(probs=microtorch.tensor([0.1, 0.7])).sample((n,))
    assert set(np.unique(b.numpy())) <= {0.0, 1.0}
    np.testing.assert_allclose(b.mean(0).numpy(), [0.1, 0.7], atol=0.015)
    probs = np.array([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])
    c = D.Categorical(probs=microtorch.tensor(probs)).sample((n,))
    assert c.dtype == microtorch.int64 and tuple(c.shape) == (n, 2)
    counts = np.stack([np.bincount(c.numpy()[:, i], minlength=3) / n for i in range(2)])
    np.testing.assert_allclose(counts, probs, atol=0.015)
    u = D.Uniform(-1.0, 3.0).sample((n,))
    assert u.min().item() >= -1.0 and u.max().item() < 3.0
    assert abs(u.mean().item() - 1.0) < 0.05


def test_sample_is_outside_the_graph_and_rsample_inside() -> None:
    loc = microtorch.zeros(2, requires_grad=True)
    d = microtorch.distributions.Normal(loc, 1.0)
    assert not d.sample().requires_grad and d.rsample().requires_grad
    assert not microtorch.distributions.Bernoulli(logits=loc).sample().requires_grad
    assert not microtorch.distributions.Categorical(logits=loc).sample().requires_grad


def test_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        D, t = lib.distributions, lib.tensor
        return [
            lambda: D.Normal(0.0, -1.0),
            lambda: D.Normal(lib.zeros(2), t([1.0, 0.0])),
            lambda: D.Normal(float("nan"), 1.0),
            lambda: D.Normal(0.0, 1.0).log_prob(0.5),
            lambda: D.Normal(lib.zeros(2), 1.0).log_prob(lib.zeros(3)),
            lambda: D.Normal(lib.zeros(2), lib.ones(3)),
            lambda: D.Categorical(),
            lambda: D.Categorical(probs=t([0.2, 0.8]), logits=lib.zeros(2)),
            lambda: D.Categorical(probs=t([-0.2, 0.8])),
            lambda: D.Categorical(probs=t(0.2)),
            lambda: D.Categorical(logits=lib.zeros(3)).log_prob(t(3)),
            lambda: D.Categorical(logits=lib.zeros(3)).log_prob(t(1.5)),
            lambda: D.Categorical(logits=t([0.0, float("inf")])),
            lambda: D.Bernoulli(1.5),
            lambda: D.Bernoulli(0.5).log_prob(t(0.5)),
            lambda: D.Bernoulli(),
            lambda: D.Bernoulli(0.5).rsample(),
            lambda: D.Uniform(1.0, 0.0),
            lambda: D.Uniform(0.0, 1.0).log_prob(t(2.0)),
            lambda: D.Normal(0.0, 1.0).sample(3),
        ]

    mine = [_message(c) for c in calls(microtorch)]
    theirs = [_message(c) for c in calls(torch_module)]
    assert mine == theirs


def test_validate_args_false_skips_the_checks(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        d = lib.distributions.Normal(0.0, -1.0, validate_args=False)
        assert np.isnan(d.log_prob(lib.tensor(0.5)).item())
        b = lib.distributions.Bernoulli(0.3, validate_args=False)
        assert np.isfinite(b.log_prob(lib.tensor(0.5)).item())


def test_docstring_examples() -> None:
    result = doctest.testmod(microtorch.distributions.normal)
    assert result.attempted > 0 and result.failed == 0


def _kl(lib: ModuleType) -> list[Any]:
    D = lib.distributions
    leaves = _leaves(lib)
    loc, scale, probs, class_probs, logits, low, high = leaves
    zero_one = lib.tensor([[0.0, 0.3, 1.0], [0.5, 0.2, 0.9]], dtype=lib.float64)
    pairs = [
        (D.Normal(loc, scale), D.Normal(loc * 0.5, scale**2)),
        (D.Bernoulli(probs=probs), D.Bernoulli(logits=loc)),
        (D.Bernoulli(probs=zero_one), D.Bernoulli(probs=probs)),
        (D.Categorical(probs=class_probs), D.Categorical(logits=logits)),
        (D.Uniform(low, high), D.Uniform(low - 1, high + 0.5)),
        (D.Uniform(low - 1, high), D.Uniform(low, high)),
    ]
    out = []
    for p, q in pairs:
        kl = D.kl_divergence(p, q)
        finite = kl.detach().numpy()
        if kl.requires_grad:
            kl.masked_fill(kl.isinf(), 0.0).sum().backward()
        out.append(finite)
    out.append([None if t.grad is None else t.grad.numpy() for t in leaves])
    return out


def test_kl_divergence_matches_torch(torch_module: ModuleType) -> None:
    mine, theirs = _kl(microtorch), _kl(torch_module)
    for a, b in zip(mine[:-1], theirs[:-1]):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    for a, b in zip(mine[-1], theirs[-1]):
        assert (a is None) == (b is None)
        if b is not None:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    D, T = microtorch.distributions, torch_module.distributions
    with pytest.raises(NotImplementedError) as ours:
        D.kl_divergence(D.Categorical(microtorch.ones(2)), D.Normal(0.0, 1.0))
    with pytest.raises(NotImplementedError) as their:
        T.kl_divergence(T.Categorical(torch_module.ones(2)), T.Normal(0.0, 1.0))
    assert str(ours.value) == str(their.value)

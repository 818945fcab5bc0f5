"""walkg: torch.binomial and torch.poisson. The draws come from microtorch's generator, not
PyTorch's, so values are compared in distribution (mean and variance of many draws, against
the same statistics of PyTorch's draws and the theory); dtypes, shapes, grad_fn names,
gradients, seeded determinism (manual_seed and generator=) and errors against PyTorch."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.walka_harness import compare, outcome

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore:An output with one")]

N = 20000
COUNT, PROB, RATE = [0.0, 1.0, 7.0, 40.0], [0.3, 0.9, 0.5, 0.05], [0.0, 0.5, 3.0, 250.0]


def _binomial(L: ModuleType, dtype: str = "float32") -> Any:
    kind = getattr(L, dtype)
    count = L.tensor(COUNT, dtype=kind).expand(N, 4)
    return L.binomial(count, L.tensor(PROB, dtype=kind).expand(N, 4))


def _poisson(L: ModuleType, dtype: str = "float32") -> Any:
    return L.poisson(L.tensor(RATE, dtype=getattr(L, dtype)).expand(N, 4))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_binomial_distribution(dtype: str, torch_module: ModuleType) -> None:
    n, p = np.array(COUNT), np.array(PROB)
    for L in (microtorch, torch_module):
        L.manual_seed(3)
        draws = _binomial(L, dtype)
        assert str(draws.dtype).endswith(dtype) and tuple(draws.shape) == (N, 4)
        values = draws.numpy().astype(np.float64)
        assert np.array_equal(values, np.round(values)) and (values >= 0).all()
        assert (values <= n).all()
        sd = np.sqrt(n * p * (1 - p) / N)
        np.testing.assert_allclose(values.mean(0), n * p, atol=5 * sd.max() + 1e-12)
        np.testing.assert_allclose(values.var(0), n * p * (1 - p), rtol=0.06, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_poisson_distribution(dtype: str, torch_module: ModuleType) -> None:
    rate = np.array(RATE)
    for L in (microtorch, torch_module):
        L.manual_seed(4)
        draws = _poisson(L, dtype)
        assert str(draws.dtype).endswith(dtype) and tuple(draws.shape) == (N, 4)
        values = draws.numpy().astype(np.float64)
        assert np.array_equal(values, np.round(values)) and (values >= 0).all()
        np.testing.assert_allclose(values.mean(0), rate, atol=5 * np.sqrt(rate.max() / N))
        np.testing.assert_allclose(values.var(0), rate, rtol=0.06)


SAMPLERS: dict[str, Callable[[ModuleType, Any], Any]] = {
    "binomial": lambda L, g: L.binomial(L.full((50,), 9.0), L.full((50,), 0.4), generator=g),
    "poisson": lambda L, g: L.poisson(L.full((50,), 2.5), g),
    "poisson generator=": lambda L, g: L.poisson(L.full((50,), 2.5), generator=g),
}


@pytest.mark.parametrize("case", list(SAMPLERS))
def test_seeded_draws_repeat(case: str) -> None:
    L = microtorch
    L.manual_seed(7)
    a = SAMPLERS[case](L, None)
    L.manual_seed(7)
    b = SAMPLERS[case](L, None)
    c = SAMPLERS[case](L, None)
    assert np.array_equal(a.numpy(), b.numpy()) and not np.array_equal(b.numpy(), c.numpy())
    g1, g2 = L.Generator().manual_seed(5), L.Generator().manual_seed(5)
    d, e = SAMPLERS[case](L, g1), SAMPLERS[case](L, g2)
    assert np.array_equal(d.numpy(), e.numpy())
    L.manual_seed(7)
    SAMPLERS[case](L, L.Generator().manual_seed(1))  # (a generator= draw leaves the global one)
    assert np.array_equal(SAMPLERS[case](L, None).numpy(), a.numpy())


def test_extremes_are_exact(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        r = L.binomial(L.tensor([3.0, 3.0, 0.0]), L.tensor([1.0, 0.0, 0.5]))
        assert r.tolist() == [3.0, 0.0, 0.0]
        assert L.poisson(L.zeros(4, dtype=L.float64)).tolist() == [0.0] * 4


# shapes, dtypes, grad_fn names and errors (the values are not compared: other generators)
META: dict[str, Callable[[ModuleType], Any]] = {
    "binomial": lambda L: L.binomial(L.tensor([10.0, 5.0]), L.tensor([0.5, 0.2])),
    "binomial float64": lambda L: L.binomial(
        L.ones(2, 3, dtype=L.float64), L.full((3,), 0.5, dtype=L.float64)
    ),
    "binomial broadcast": lambda L: L.binomial(L.ones(3, 1), L.full((2,), 0.5)),
    "binomial 0-d prob": lambda L: L.binomial(L.ones(3), L.tensor(0.5)),
    "binomial 0-d": lambda L: L.binomial(L.tensor(4.0), L.tensor(0.5)),
    "binomial empty": lambda L: L.binomial(L.ones(0), L.ones(0)),
    "binomial keywords": lambda L: L.binomial(count=L.ones(2), prob=L.ones(2)),
    "binomial requires grad": lambda L: L.binomial(
        L.ones(2, requires_grad=True), L.full((2,), 0.5)
    ),
    "binomial prob requires grad": lambda L: L.binomial(
        L.ones(2) * 3, L.full((2,), 0.5, requires_grad=True)
    ),
    "poisson": lambda L: L.poisson(L.tensor([1.0, 4.0])),
    "poisson 0-d": lambda L: L.poisson(L.tensor(3.0)),
    "poisson float16": lambda L: L.poisson(L.ones(2, 2, dtype=L.float16)),
    "poisson keywords": lambda L: L.poisson(input=L.ones(3)),
    "poisson requires grad": lambda L: L.poisson(L.ones(3, requires_grad=True) * 2),
    # errors
    "binomial long count": lambda L: L.binomial(L.ones(2, dtype=L.int64), L.ones(2)),
    "binomial dtypes": lambda L: L.binomial(L.ones(2), L.ones(2, dtype=L.float64)),
    "binomial float16": lambda L: L.binomial(
        L.ones(2, dtype=L.float16), L.ones(2, dtype=L.float16)
    ),
    "binomial shapes": lambda L: L.binomial(L.ones(3), L.ones(2)),
    "binomial number prob": lambda L: L.binomial(L.ones(3), 0.5),
    "binomial list count": lambda L: L.binomial([1.0], L.ones(1)),
    "binomial out=": lambda L: L.binomial(L.ones(2), L.ones(2), out=L.ones(2)),
    "poisson long": lambda L: L.poisson(L.ones(2, dtype=L.int64)),
    "poisson bool": lambda L: L.poisson(L.ones(2) > 0),
    "poisson negative": lambda L: L.poisson(L.tensor([1.0, -0.5])),
    "poisson nan": lambda L: L.poisson(L.tensor([float("nan")])),
    "poisson list": lambda L: L.poisson([1.0]),
    "poisson out=": lambda L: L.poisson(L.ones(2), out=L.ones(2)),
    "poisson number generator": lambda L: L.poisson(L.ones(2), 3),
    "binomial number generator": lambda L: L.binomial(L.ones(2), L.ones(2), generator=3),
}


def _meta(result: Any) -> Any:
    if result[0] == "error":
        return result
    t = result[1]
    name = None if t.grad_fn is None else t.grad_fn.name()
    return tuple(t.shape), str(t.dtype).split(".")[1], name, t.requires_grad


@pytest.mark.parametrize("case", list(META))
def test_matches_pytorch_but_the_values(case: str, torch_module: ModuleType) -> None:
    mt, t = _meta(outcome(META[case], microtorch)), _meta(outcome(META[case], torch_module))
    if t[0] == "error":
        assert mt[:2] == t[:2] and mt[2].startswith(t[2]), (mt, t)
    else:
        assert mt == t


def test_gradients_as_pytorch(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):  # poisson: zero; binomial: PyTorch's error
        rate = L.tensor([1.0, 4.0], requires_grad=True)
        L.poisson(rate * 2).sum().backward()
        assert rate.grad.tolist() == [0.0, 0.0]
    compare(
        lambda L: L.binomial(L.ones(2, requires_grad=True) * 3, L.full((2,), 0.5)).sum().backward(),
        torch_module,
    )


def test_microtorch_refuses_what_pytorch_answers_arbitrarily() -> None:
    # PyTorch returns numbers for these (or, for a nan count, never returns); microtorch says why
    for count, prob in (([-1.0], [0.5]), ([2.0], [1.5]), ([float("nan")], [0.5])):
        with pytest.raises(RuntimeError, match="binomial: microtorch takes counts >= 0"):
            microtorch.binomial(microtorch.tensor(count), microtorch.tensor(prob))
    with pytest.raises(RuntimeError, match="poisson: microtorch takes rates below 1e18"):
        microtorch.poisson(microtorch.tensor([float("inf")]))

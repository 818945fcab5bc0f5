"""``Bilinear``/``F.bilinear`` against PyTorch 2.13: values, graphs, float64 gradients,
reprs, init and errors."""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.cases import graph
from tests.nn.layer_parity import copy_state, error_of, upstream

RNG = np.random.default_rng(12)

SHAPES = {
    "2d": ((4, 3), (4, 5)),
    "3d": ((2, 3, 3), (2, 3, 5)),
    "1d": ((3,), (5,)),
}


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shapes", list(SHAPES))
def test_bilinear_matches_torch(
    torch_module: ModuleType, shapes: str, dtype: str, bias: bool
) -> None:
    s1, s2 = SHAPES[shapes]
    a, b = RNG.standard_normal(s1).astype(dtype), RNG.standard_normal(s2).astype(dtype)

    def run(lib: ModuleType, layer: Any) -> list[Any]:
        x1 = lib.tensor(a, requires_grad=True)
        x2 = lib.tensor(b, requires_grad=True)
        out = layer(x1, x2)
        out.backward(lib.tensor(upstream(tuple(out.shape), dtype)))
        grads = [p.grad.numpy() for p in layer.parameters()]
        return [graph(out), out.detach().numpy(), x1.grad.numpy(), x2.grad.numpy(), *grads]

    torch_module.manual_seed(0)
    theirs_layer = torch_module.nn.Bilinear(3, 5, 2, bias=bias).to(getattr(torch_module, dtype))
    mine_layer = microtorch.nn.Bilinear(3, 5, 2, bias=bias).to(getattr(microtorch, dtype))
    copy_state(theirs_layer, mine_layer)
    mine, theirs = run(microtorch, mine_layer), run(torch_module, theirs_layer)
    assert mine[0] == theirs[0]
    tol = 1e-12 if dtype == "float64" else 1e-5
    for m, t in zip(mine[1:], theirs[1:]):
        np.testing.assert_allclose(m, t, rtol=tol, atol=tol)
        assert m.dtype == t.dtype


def test_bilinear_gradcheck_and_gradgradcheck() -> None:
    rng = np.random.default_rng(0)
    x1 = microtorch.tensor(rng.standard_normal((3, 2)), requires_grad=True)
    x2 = microtorch.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    w = microtorch.tensor(rng.standard_normal((2, 2, 4)), requires_grad=True)
    b = microtorch.tensor(rng.standard_normal(2), requires_grad=True)
    f = microtorch.nn.functional.bilinear
    assert gradcheck(f, (x1, x2, w, b))
    assert gradgradcheck(f, (x1, x2, w, b))


def test_bilinear_repr_state_dict_and_init_match_torch(torch_module: ModuleType) -> None:
    for make in (lambda L: L.nn.Bilinear(3, 4, 2), lambda L: L.nn.Bilinear(5, 1, 3, bias=False)):
        mine, theirs = make(microtorch), make(torch_module)
        assert repr(mine) == repr(theirs)
        assert {k: tuple(v.shape) for k, v in mine.state_dict().items()} == {
            k: tuple(v.shape) for k, v in theirs.state_dict().items()
        }
        bound = 1 / math.sqrt(theirs.weight.shape[1])
        for p in mine.parameters():
            assert float(p.detach().abs().max()) <= bound + 1e-7


def _errors(lib: ModuleType) -> list[Any]:
    f = lib.nn.functional
    w = lib.randn(2, 3, 4)
    return [
        lambda: f.bilinear(lib.randn(2, 3), lib.randn(4), w),
        lambda: f.bilinear(lib.randn(2, 3), lib.randn(3, 4), w),
        lambda: f.bilinear(lib.randn(2, 4), lib.randn(2, 4), w),
        lambda: f.bilinear(lib.randn(2, 3), lib.randn(2, 3), w),
        lambda: f.bilinear(lib.randn(2, 3), lib.randn(2, 4), w, lib.randn(3)),
        lambda: f.bilinear([1.0], lib.randn(2, 4), w),
        lambda: lib.nn.Bilinear(3, 4, 2)(lib.randn(2, 3), lib.randn(2, 5)),
    ]


def test_bilinear_errors_match_torch(torch_module: ModuleType) -> None:
    mine = [error_of(c) for c in _errors(microtorch)]
    theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"case {i}"


def test_gumbel_softmax_graphs_and_warning_match_torch(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> list[Any]:
        x = lib.randn(2, 4, requires_grad=True)
        f = lib.nn.functional.gumbel_softmax
        found = [graph(f(x)), graph(f(x, tau=0.5, hard=True)), graph(f(x, hard=True, dim=0))]
        out = f(x, hard=True)
        found.append((tuple(out.shape), sorted(out.detach().numpy().ravel().tolist())))
        with pytest.warns(UserWarning, match="`eps` parameter is deprecated"):
            f(x, eps=1e-3)
        found.append(error_of(lambda: f([1.0])))
        return found

    assert run(microtorch) == run(torch_module)


def test_gumbel_softmax_samples_follow_the_softmax_and_pass_its_gradient() -> None:
    f = microtorch.nn.functional
    microtorch.manual_seed(0)
    logits = microtorch.tensor([1.0, 0.0, -1.0, 2.0]).log_softmax(0).expand(4000, 4)
    logits = logits.clone().requires_grad_()
    hard = f.gumbel_softmax(logits, hard=True)
    counts = hard.detach().sum(0).numpy() / 4000  # argmax of logits + Gumbel ~ softmax
    np.testing.assert_allclose(counts, logits[0].detach().softmax(0).numpy(), atol=0.03)
    g = microtorch.randn(4000, 4)
    (hard * g).sum().backward()
    microtorch.manual_seed(0)  # the same draws again: the soft sample's gradient
    soft_logits = logits.detach().clone().requires_grad_()
    soft = f.gumbel_softmax(soft_logits, hard=False)
    (soft * g).sum().backward()
    np.testing.assert_allclose(logits.grad.numpy(), soft_logits.grad.numpy(), atol=1e-6)
    np.testing.assert_array_equal(hard.detach().numpy().max(1), np.ones(4000))

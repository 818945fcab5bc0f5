"""Gradients of every op in the table against float64 finite differences, plus broadcasting.

``check_function`` backpropagates a seeded random upstream gradient (never all ones, which
would hide a missing transpose or a wrong sum) and compares every input's ``.grad``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import microtorch
from microtorch.ops._broadcast import unbroadcast
from microtorch.testing import assert_close, check_function

from .optable import BINARY, OPS, OpSpec, inputs_for, sample
from .strategies import broadcast_to_pairs, broadcastable_pairs

SETTINGS = settings(max_examples=50, derandomize=True, deadline=None)


@pytest.mark.parametrize("spec", OPS, ids=str)
def test_gradient_matches_finite_differences(spec: OpSpec) -> None:
    check_function(spec.microtorch, *inputs_for(spec))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("spec", OPS, ids=str)
def test_gradient_under_other_upstream_gradients(spec: OpSpec, seed: int) -> None:
    xs = inputs_for(spec, seed)
    with microtorch.no_grad():
        out = spec.microtorch(*(microtorch.tensor(x, dtype=microtorch.float64) for x in xs))
    outs = out if isinstance(out, tuple) else (out,)
    rng = np.random.default_rng(100 + seed)
    grads = [rng.standard_normal(tuple(o.shape)) for o in outs]
    check_function(spec.microtorch, *xs, grad_output=grads if len(grads) > 1 else grads[0])


@pytest.mark.parametrize("spec", BINARY, ids=str)
@SETTINGS
@given(shapes=broadcastable_pairs(), seed=st.integers(0, 2**16))
def test_binary_ops_broadcast_like_numpy(spec: OpSpec, shapes: tuple, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = (sample(spec.domain, s, rng, k) for k, s in enumerate(shapes))
    out = spec.microtorch(microtorch.tensor(a, dtype=microtorch.float64), microtorch.tensor(b))
    ref = spec.ref(a, b)
    assert out.shape == np.shape(ref)
    assert_close(out.numpy(), np.asarray(ref), rtol=1e-6, atol=1e-6)  # b was float32
    check_function(spec.microtorch, a, b)


@SETTINGS
@given(pair=broadcast_to_pairs(), seed=st.integers(0, 2**16))
def test_unbroadcast_sums_each_position_back_to_its_source(pair: tuple, seed: int) -> None:
    shape, target = pair
    grad = np.random.default_rng(seed).standard_normal(target)
    n = int(np.prod(shape))
    # where each element of the broadcast result came from, as a flat index into the input
    source = np.broadcast_to(np.arange(n).reshape(shape), target)
    expected = np.bincount(source.ravel(), weights=grad.ravel(), minlength=n).reshape(shape)
    got = unbroadcast(grad, shape)
    assert got.shape == shape
    assert_close(got, expected, rtol=1e-12, atol=1e-12)


@SETTINGS
@given(pair=broadcast_to_pairs(), seed=st.integers(0, 2**16))
def test_unbroadcast_is_the_adjoint_of_broadcasting(pair: tuple, seed: int) -> None:
    # <unbroadcast(g), x> == <g, broadcast(x)>: the defining property of a gradient
    shape, target = pair
    rng = np.random.default_rng(seed)
    grad, x = rng.standard_normal(target), rng.standard_normal(shape)
    lhs = float((unbroadcast(grad, shape) * x).sum())
    rhs = float((grad * np.broadcast_to(x, target)).sum())
    assert lhs == pytest.approx(rhs, rel=1e-9, abs=1e-9)


def test_unbroadcast_of_3x1_plus_1x4_sums_columns_for_one_and_rows_for_the_other() -> None:
    grad = np.arange(12.0).reshape(3, 4)
    assert_close(unbroadcast(grad, (3, 1)), grad.sum(1, keepdims=True))
    assert_close(unbroadcast(grad, (1, 4)), grad.sum(0, keepdims=True))
    assert_close(unbroadcast(grad, (4,)), grad.sum(0))
    assert_close(unbroadcast(grad, ()), grad.sum())
    assert unbroadcast(grad, (3, 4)) is grad


def test_unbroadcast_sums_as_pytorchs_sum_to() -> None:
    # a bias's gradient (leading dims dropped) is a view of the sum with the dims kept, as
    # PyTorch's sum_to squeezes one: autograd.grad returns it as a view (see test_torch_model)
    grad = np.arange(12.0).reshape(3, 4)
    got = unbroadcast(grad, (4,))
    assert got.base is not None and got.base.shape == (1, 4)
    assert_close(got, grad.sum(0))
    kept = unbroadcast(grad, (1, 4))  # only size-1 dims summed: the sum itself, no view
    assert kept.shape == (1, 4) and kept.base is None
    assert_close(kept, grad.sum(0, keepdims=True))


@pytest.mark.parametrize("op", ["sum", "mean"])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
def test_sum_and_mean_of_everything_give_each_element_its_share(op: str, shape: tuple) -> None:
    # the whole-tensor form (np.broadcast_to) and the dim form (_expand_back) agree
    x = np.random.default_rng(3).standard_normal(shape)
    check_function(lambda t: getattr(t, op)(), x)
    if shape:
        check_function(lambda t: getattr(t, op)(dim=tuple(range(len(shape)))), x)
    t = microtorch.tensor(x, requires_grad=True)
    getattr(t, op)().backward()
    share = 1.0 if op == "sum" else 1.0 / max(x.size, 1)
    assert_close(t.grad.numpy(), np.full(shape, share))

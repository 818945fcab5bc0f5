"""Random expression graphs: every gradient checked against finite differences and PyTorch.

Hypothesis writes small programs over a pool of values: leaves of broadcastable shapes, then
ops that combine, reuse, view, index and modify (in place, on non-leaves) earlier values. Each
program runs on microtorch in float64; its gradients must match central finite differences
and, with PyTorch installed, PyTorch's values, gradients, ``grad_fn`` names, ``is_leaf``,
``requires_grad`` and dtypes, value by value.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import microtorch

SHAPES = [(2, 3), (1, 3), (2, 1), (3,), ()]

# name -> (arity, function of the library and the operands)
UNARY: dict[str, Callable[[Any, Any], Any]] = {
    "tanh": lambda L, a: a.tanh(),
    "sigmoid": lambda L, a: L.sigmoid(a),
    "sin": lambda L, a: a.sin(),
    "exp_small": lambda L, a: (a * 0.5).exp(),
    "square": lambda L, a: a**2,
    "neg": lambda L, a: -a,
    "scale": lambda L, a: 3 * a - 1,
    "rdiv": lambda L, a: 2 / (a * a + 1),
    "sum_keep": lambda L, a: a.sum(dim=-1, keepdim=True) if a.dim() else a * 1,
    "mean_all": lambda L, a: a.mean(),
    "clone_mul_": lambda L, a: a.clone().mul_(2),  # in place on a non-leaf
    "clone_add_": lambda L, a: a.clone().add_(1.5),
    "first_row": lambda L, a: a[0] if a.dim() and a.shape[0] > 0 else a + 0,
    "slice": lambda L, a: a[..., :2] if a.dim() and a.shape[-1] > 1 else a * 2,
    "pick": lambda L, a: a[..., [0, 0]] if a.dim() else a * 2,  # repeated index: grads add
    "flat": lambda L, a: a.reshape(-1),
    "t": lambda L, a: a.t() if a.dim() == 2 else a.unsqueeze(0),
    "abs_plus": lambda L, a: (a + 0.3).abs(),
}
BINARY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "add": lambda L, a, b: a + b,
    "sub": lambda L, a, b: a - b,
    "mul": lambda L, a, b: a * b,
    "div": lambda L, a, b: a / (b * b + 1),
    "maximum": lambda L, a, b: L.maximum(a, b),
    "where": lambda L, a, b: L.where(a > b, a, b * 2),
}


def _broadcastable(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


@st.composite
def programs(draw: st.DrawFn) -> tuple[list[np.ndarray], list[tuple[str, tuple[int, ...]]]]:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_leaves = draw(st.integers(1, 3))
    leaves = [rng.uniform(-1.5, 1.5, draw(st.sampled_from(SHAPES))) for _ in range(n_leaves)]
    shapes = [leaf.shape for leaf in leaves]
    steps: list[tuple[str, tuple[int, ...]]] = []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.booleans()) and len(shapes) > 1:
            i, j = draw(st.integers(0, len(shapes) - 1)), draw(st.integers(0, len(shapes) - 1))
            if _broadcastable(shapes[i], shapes[j]):
                name = draw(st.sampled_from(sorted(BINARY)))
                steps.append((name, (i, j)))
                shapes.append(tuple(np.broadcast_shapes(shapes[i], shapes[j])))
                continue
        i = draw(st.integers(0, len(shapes) - 1))
        name = draw(st.sampled_from(sorted(UNARY)))
        steps.append((name, (i,)))
        probe = microtorch.zeros(*shapes[i], dtype=microtorch.float64)
        shapes.append(tuple(UNARY[name](microtorch, probe).shape))
    return leaves, steps


def run(
    lib: ModuleType,
    leaves: list[np.ndarray],
    steps: list[tuple[str, tuple[int, ...]]],
    weight_seed: int = 0,
) -> tuple[list[Any], Any]:
    """Build the program's graph in ``lib``; returns every value and a scalar loss."""
    values = [lib.tensor(leaf, dtype=lib.float64, requires_grad=True) for leaf in leaves]
    for name, args in steps:
        operands = [values[i] for i in args]
        fn = BINARY[name] if len(args) == 2 else UNARY[name]
        values.append(fn(lib, *operands))
    out = values[-1]
    w = np.random.default_rng(weight_seed).standard_normal(tuple(out.shape))
    loss = (out * lib.tensor(w, dtype=lib.float64)).sum()  # a non-uniform upstream gradient
    return values, loss


def _numeric_grads(leaves: list[np.ndarray], steps: list[Any], eps: float = 1e-6) -> list[Any]:
    grads = []
    for k, leaf in enumerate(leaves):
        g = np.zeros_like(leaf)
        for idx in np.ndindex(*leaf.shape):
            vals = []
            for sign in (1, -1):
                moved = [x.copy() for x in leaves]
                moved[k][idx] += sign * eps
                with microtorch.no_grad():
                    vals.append(run(microtorch, moved, steps)[1].item())
            g[idx] = (vals[0] - vals[1]) / (2 * eps)
        grads.append(g)
    return grads


SETTINGS = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,  # the same graphs on every CI run
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@SETTINGS
@given(program=programs())
def test_random_graph_gradients_match_finite_differences(program: Any) -> None:
    leaves, steps = program
    values, loss = run(microtorch, leaves, steps)
    loss.backward()
    for leaf_tensor, numeric in zip(values[: len(leaves)], _numeric_grads(leaves, steps)):
        got = np.zeros_like(numeric) if leaf_tensor.grad is None else leaf_tensor.grad.numpy()
        np.testing.assert_allclose(got, numeric, rtol=1e-5, atol=1e-6, err_msg=str(steps))


@SETTINGS
@given(program=programs())
def test_random_graphs_match_pytorch_value_by_value(program: Any, torch_module: ModuleType) -> None:
    leaves, steps = program
    mt_values, mt_loss = run(microtorch, leaves, steps)
    t_values, t_loss = run(torch_module, leaves, steps)
    mt_loss.backward()
    t_loss.backward()
    for i, (m, t) in enumerate(zip(mt_values, t_values)):
        where = f"value {i} of {steps}"
        assert tuple(m.shape) == tuple(t.shape), where
        assert str(m.dtype).split(".")[-1] == str(t.dtype).split(".")[-1], where
        assert m.is_leaf == t.is_leaf and m.requires_grad == t.requires_grad, where
        mt_name = m.grad_fn.name() if m.grad_fn is not None else None
        t_name = t.grad_fn.name() if t.grad_fn is not None else None
        assert mt_name == t_name, where
        np.testing.assert_allclose(
            m.detach().numpy(), t.detach().numpy(), rtol=1e-10, atol=1e-12, err_msg=where
        )
    for m, t in zip(mt_values[: len(leaves)], t_values[: len(leaves)]):
        assert (m.grad is None) == (t.grad is None), steps
        if m.grad is not None:
            np.testing.assert_allclose(
                m.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12, err_msg=str(steps)
            )


def test_the_generator_covers_every_op() -> None:
    """The op table is exercised: a program of each op runs and differentiates."""
    leaves = [np.array([[0.3, -0.7, 1.1], [0.5, 0.2, -0.4]]), np.array([0.9, -1.2, 0.6])]
    for name in sorted(UNARY):
        values, loss = run(microtorch, leaves, [(name, (0,))])
        loss.backward()
        assert values[0].grad is not None, name
    for name in sorted(BINARY):
        values, loss = run(microtorch, leaves, [(name, (0, 1))])
        loss.backward()
        assert values[0].grad is not None and values[1].grad is not None, name


@pytest.mark.parametrize("steps", [[("mul", (0, 0)), ("add", (1, 0))]])
def test_reused_values_in_a_hand_written_program(steps: Any) -> None:
    leaf = np.array([0.5, -2.0, 1.0])
    values, loss = run(microtorch, [leaf], steps)  # (x * x) + x
    loss.backward()
    w = np.random.default_rng(0).standard_normal(3)
    np.testing.assert_allclose(values[0].grad.numpy(), w * (2 * leaf + 1))

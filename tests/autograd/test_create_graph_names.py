"""The nodes a second (and third) backward records, against torch 2.13 (issue 23's audit).

``test_create_graph.py`` compares the first recorded gradient's graph; here the gradient is
differentiated again with ``create_graph=True`` and the graph of *that* gradient is compared:
it is where the formulas' own backwards (``MulBackward1``'s, ``DivBackward1``'s, a loss's
``...BackwardBackward0``) record themselves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import microtorch

torch = pytest.importorskip("torch")


def _tree(fn: Any, depth: int) -> Any:
    if fn is None or depth == 0:
        return None if fn is None else fn.name()
    return (fn.name(), tuple(_tree(f, depth - 1) for f, _ in fn.next_functions))


def _second_graphs(lib: Any, program: Any) -> list[Any]:
    """The graphs (3 levels) of d/d(x, v) of sum(w * grad(y, x, v)), all recorded."""
    x = lib.tensor([0.5, 1.5, -2.0], dtype=lib.float64, requires_grad=True)
    y = program(x)
    v = lib.tensor([1.0, 2.0, 3.0][: y.numel()], dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(y, x, v.reshape(y.shape), create_graph=True)
    w = lib.tensor([0.3, -1.0, 2.0], dtype=lib.float64)
    hs = lib.autograd.grad((g * w).sum(), (x, v), create_graph=True, allow_unused=True)
    return [None if h is None else (h.requires_grad, _tree(h.grad_fn, 3)) for h in hs]


# programs whose first backward records a Scalar op (MulBackward1, DivBackward1...): that
# op's own backward multiplies or divides by the same number, so records the Scalar op again
SCALAR_PROGRAMS = {
    "pow2": lambda x: x**2, "pow3": lambda x: x**3, "mean": lambda x: x.mean(),
    "mul_number": lambda x: (x * x) * 2.5, "div_number": lambda x: (x * x) / 2.5,
    "add_number": lambda x: (x * x) + 2.5, "sub_number": lambda x: (x * x) - 2.5,
    "rsub_number": lambda x: 2.5 - x * x, "rdiv_number": lambda x: 2.5 / x,
    "exp": lambda x: x.exp(), "sin": lambda x: x.sin(), "reciprocal": lambda x: x.reciprocal(),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SCALAR_PROGRAMS))
def test_second_backward_of_scalar_ops_records_torchs_nodes(name: str) -> None:
    program = SCALAR_PROGRAMS[name]
    assert _second_graphs(microtorch, program) == _second_graphs(torch, program)


def test_third_derivative_through_scalar_ops_matches_torch() -> None:
    def run(lib: Any) -> list[Any]:
        x = lib.tensor([0.5, 1.5, -2.0], dtype=lib.float64, requires_grad=True)
        y = ((x**3) * 2.5 / 1.5).mean()
        out = []
        g = x
        for _ in range(3):
            (g,) = lib.autograd.grad(g.sum() if g is not x else y, x, create_graph=True)
            out.append((g.detach().numpy().tolist(), g.grad_fn.name()))
        return out

    mine, theirs = run(microtorch), run(torch)
    for (m, m_name), (t, t_name) in zip(mine, theirs):
        np.testing.assert_allclose(m, t, rtol=1e-12)
        assert m_name == t_name


# --- a loss's ...BackwardBackward0: PyTorch's inputs (grad_output, self[, target]), the class
# weight a constant of the node, not an input of it
LOSSES = {
    "nll_weight": lambda L, p, y: L.nn.functional.nll_loss(
        p, L.tensor([1, 0, 2]), weight=L.tensor([0.5, 2.0, 1.5], dtype=L.float64)
    ),
    "nll_ignore_sum": lambda L, p, y: L.nn.functional.nll_loss(
        p, L.tensor([1, -100, 2]), reduction="sum"
    ),
    "bce_weight": lambda L, p, y: L.nn.functional.binary_cross_entropy(
        p.sigmoid(), y, weight=L.tensor([0.5, 2.0, 1.5], dtype=L.float64), reduction="none"
    ),
    "bce": lambda L, p, y: L.nn.functional.binary_cross_entropy(p.sigmoid(), y),
}


def _loss_second(lib: Any, name: str) -> list[Any]:
    rng = np.random.default_rng(4)
    p = lib.tensor(rng.standard_normal((3, 3)), dtype=lib.float64, requires_grad=True)
    y = lib.tensor(rng.random((3, 3)), dtype=lib.float64)  # (a target that requires grad:
    # NN_NAME_DIFFERENCES' bce_target_grad)
    out = LOSSES[name](lib, p, y)
    v = lib.tensor(rng.standard_normal(tuple(out.shape)), dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(out, p, v, create_graph=True)
    names = [_tree(g.grad_fn, 2)]
    s = (g * lib.tensor(rng.standard_normal(tuple(g.shape)))).sum()
    second = lib.autograd.grad(s, (p, v), allow_unused=True)
    return [names, [None if h is None else h.detach().numpy().tolist() for h in second]]


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_double_backward_nodes_and_values_match_torch(name: str) -> None:
    mine, theirs = _loss_second(microtorch, name), _loss_second(torch, name)
    assert mine[0] == theirs[0]
    for m, t in zip(mine[1], theirs[1]):
        if m is None or t is None:
            assert np.allclose(m or 0.0, t or 0.0)
        else:
            np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-12)


# --- the guard: a formula must not keep an input-dependent array on ctx (``ctx.norm =
# np.sqrt(...)``): with create_graph=True it would be a constant of the recorded graph, and the
# second derivative would silently miss its dependence on the input. Values a formula needs
# go through ctx.save_for_backward (recorded as Tensors); ctx keeps shapes, axes and numbers.
# Float arrays a node may keep on ctx because nothing they hold can require grad: NllLoss's
# picks are the target's class indices, the kept mask and the class weight of each target; the
# class weight has no derivative in PyTorch (nor here: double_backward_constants), and backward
# still checks target and weight for in-place changes through saved_tensors.
CONSTANT_FIELDS = {"NllLossBackward0.picks", "NllLoss2DBackward0.picks"}


def _kept_arrays(outs: Any) -> list[str]:
    found, seen = [], set()
    stack = [o.grad_fn for o in outs if isinstance(o, microtorch.Tensor)]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(f for f, _ in node.next_functions)
        fields = [*getattr(type(node), "__slots__", ()), *getattr(node, "__dict__", {})]
        for field in fields:
            value = getattr(node, field, None)
            for v in value if isinstance(value, (tuple, list)) else (value,):
                where = f"{node.name()}.{field}"
                if (
                    isinstance(v, np.ndarray)
                    and v.dtype.kind in "fc"
                    and where not in CONSTANT_FIELDS
                ):
                    found.append(where)
    return found


def _op_outputs(name: str) -> Any:
    from tests.nn.cases import CASES, X  # noqa: PLC0415
    from tests.ops.optable import OPS, inputs_for  # noqa: PLC0415

    if name in CASES:
        out = CASES[name](microtorch, microtorch.tensor(X, requires_grad=True))
    else:
        spec = next(s for s in OPS if s.name == name)
        xs = inputs_for(spec, seed=3)
        out = spec.call(microtorch, *[microtorch.tensor(x, requires_grad=True) for x in xs])
    return out if isinstance(out, tuple) else (out,)


def _all_names() -> list[str]:
    from tests.nn.cases import CASES  # noqa: PLC0415
    from tests.ops.optable import OPS  # noqa: PLC0415

    return sorted({s.name for s in OPS} | set(CASES))


def test_no_formula_keeps_an_input_dependent_array_on_ctx() -> None:
    kept = {name: found for name in _all_names() if (found := _kept_arrays(_op_outputs(name)))}
    assert kept == {}


def test_the_guard_sees_an_array_kept_on_ctx() -> None:
    class Scaled(microtorch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.norm = np.sqrt((x.detach().numpy() ** 2).sum(keepdims=True))  # (the mistake)
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    out = Scaled.apply(microtorch.tensor([1.0, 2.0], requires_grad=True))
    assert _kept_arrays([out]) == ["ScaledBackward.norm"]


# --- third derivatives of every op of the op table against torch (test_create_graph.py's
# THIRD holds a few; here all the others)
def _third_specs() -> list[Any]:
    from tests.autograd.test_create_graph import THIRD  # noqa: PLC0415
    from tests.ops.optable import OPS  # noqa: PLC0415

    return [s for s in OPS if s.name not in THIRD]


@pytest.mark.parametrize("spec", _third_specs(), ids=str)
def test_third_derivative_of_every_op_matches_torch(spec: Any) -> None:
    from tests.autograd.test_create_graph import _check  # noqa: PLC0415

    _check(spec, 3)

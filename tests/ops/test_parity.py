"""Parity with PyTorch 2.13 for every op in the table: values, grads, dtypes, graph, repr.

The same inputs go through the same code (``spec.call(lib, ...)``) in both libraries.
Skipped cleanly when torch is not installed (CI requires it: see tests/conftest.py).
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import microtorch
from microtorch.testing import assert_close

from .optable import BINARY, OPS, OpSpec, inputs_for, sample
from .strategies import broadcastable_pairs

pytestmark = pytest.mark.torch


def _as_tuple(out: Any) -> tuple[Any, ...]:
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def graph(node: Any) -> Any:
    """The backward graph below ``node`` as nested (name, children) tuples."""
    if node is None:
        return None
    return (node.name(), tuple(graph(n) for n, _ in node.next_functions))


def _unwrap_suffixes(text: str) -> str:
    # "microtorch.float64" is 5 characters longer than "torch.float64", so a suffix that
    # fits on PyTorch's line may wrap onto the next in ours: compare with suffixes unwrapped.
    return re.sub(r",\s*\n\s*(dtype=|grad_fn=|requires_grad=)", r", \1", text)


def same_repr(mt_value: Any, torch_value: Any) -> None:
    mt_text = repr(mt_value).replace("microtorch.", "torch.")
    assert _unwrap_suffixes(mt_text) == _unwrap_suffixes(repr(torch_value))


def run_both(spec: OpSpec, torch: ModuleType, dtype: str, seed: int = 0) -> tuple[Any, ...]:
    arrays = inputs_for(spec, seed)
    mt_in = [
        microtorch.tensor(x, dtype=getattr(microtorch, dtype), requires_grad=True) for x in arrays
    ]
    t_in = [torch.tensor(x, dtype=getattr(torch, dtype), requires_grad=True) for x in arrays]
    return mt_in, _as_tuple(spec.microtorch(*mt_in)), t_in, _as_tuple(spec.torch(torch)(*t_in))


@pytest.mark.parametrize("spec", OPS, ids=str)
def test_same_values_dtypes_and_graph_as_torch(spec: OpSpec, torch_module: ModuleType) -> None:
    _, mt_out, _, t_out = run_both(spec, torch_module, "float32")
    assert len(mt_out) == len(t_out)
    for m, t in zip(mt_out, t_out):
        assert tuple(m.shape) == tuple(t.shape)
        assert str(m.dtype).split(".")[1] == str(t.dtype).split(".")[1]
        assert m.requires_grad == t.requires_grad and m.is_leaf == t.is_leaf
        assert_close(m.detach().numpy(), t.detach().numpy(), rtol=1e-5, atol=1e-6)
        assert graph(m.grad_fn) == graph(t.grad_fn)
    assert mt_out[0].grad_fn.name() == spec.grad_fn == t_out[0].grad_fn.name()


@pytest.mark.parametrize("spec", OPS, ids=str)
def test_same_grads_as_torch_under_a_random_upstream_gradient(
    spec: OpSpec, torch_module: ModuleType
) -> None:
    mt_in, mt_out, t_in, t_out = run_both(spec, torch_module, "float64", seed=3)
    rng = np.random.default_rng(7)
    grads = [rng.standard_normal(tuple(t.shape)) for t in t_out]
    microtorch.autograd.backward(list(mt_out), [microtorch.tensor(g) for g in grads])
    torch_module.autograd.backward(list(t_out), [torch_module.tensor(g) for g in grads])
    for m, t in zip(mt_in, t_in):
        assert m.grad is not None and m.grad.dtype is microtorch.float64
        assert_close(m.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)
        # zeros print as "0." or "-0." depending on their sign: the same ones must be negative
        zeros = t.grad.numpy() == 0
        assert (np.signbit(m.grad.numpy()) == np.signbit(t.grad.numpy()))[zeros].all()


ONE_OF_SEVERAL = [(s, i) for s in OPS if len(s.shapes) > 1 for i in range(len(s.shapes))]


@pytest.mark.parametrize("create_graph", [False, True], ids=["first", "create_graph"])
@pytest.mark.parametrize(("spec", "k"), ONE_OF_SEVERAL, ids=lambda v: str(v))
def test_one_input_alone_requiring_grad_gets_torchs_gradient(
    spec: OpSpec, k: int, create_graph: bool, torch_module: ModuleType
) -> None:
    """Only input k requires grad: the other edges carry no gradient (atan2's backward once
    read the shape at the end of an edge that went nowhere); with create_graph too."""
    arrays = inputs_for(spec, seed=3)
    results = []
    for lib in (microtorch, torch_module):
        inputs = [
            lib.tensor(x, dtype=lib.float64, requires_grad=(i == k)) for i, x in enumerate(arrays)
        ]
        outs = [o for o in _as_tuple(spec.call(lib, *inputs)) if o.requires_grad]
        rng = np.random.default_rng(7)
        loss = sum((o * lib.tensor(rng.standard_normal(tuple(o.shape)))).sum() for o in outs)
        (grad,) = lib.autograd.grad(loss, inputs[k], create_graph=create_graph)
        results.append(grad.detach().numpy())
    assert_close(results[0], results[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("spec", [s for s in OPS if len(s.shapes) == 1], ids=str)
def test_same_repr_as_torch(spec: OpSpec, torch_module: ModuleType) -> None:
    # float64: the two libraries agree to ~1e-16, so no value sits on a rounding boundary
    (x,) = inputs_for(spec)
    mt_x = microtorch.tensor(x, requires_grad=True)
    t_x = torch_module.tensor(x, requires_grad=True)
    mt_out, t_out = _as_tuple(spec.microtorch(mt_x)), _as_tuple(spec.torch(torch_module)(t_x))
    same_repr(mt_x, t_x)
    same_repr(mt_out[0].grad_fn.name(), t_out[0].grad_fn.name())
    for m, t in zip(mt_out, t_out):
        if t.numel() <= 6:
            same_repr(m, t)
    weights = np.linspace(-1, 1, mt_out[0].numel()).reshape(tuple(mt_out[0].shape))
    (mt_out[0] * microtorch.tensor(weights)).sum().backward()
    (t_out[0] * torch_module.tensor(weights)).sum().backward()
    same_repr(mt_x.grad, t_x.grad)


@pytest.mark.parametrize("dtype", ["float64", "int64", "int32", "bool"])
def test_dtype_suffix_in_repr_matches_torch(dtype: str, torch_module: ModuleType) -> None:
    values = [[1, 0], [0, 1]]
    m = microtorch.tensor(values, dtype=getattr(microtorch, dtype))
    t = torch_module.tensor(values, dtype=getattr(torch_module, dtype))
    same_repr(m, t)
    same_repr(m[0], t[0])
    same_repr(m.dtype, t.dtype)
    same_repr(m.shape, t.shape)


MATMUL_SHAPES = [
    ((2, 3, 4), (4, 2)),
    ((2, 3, 4), (4,)),
    ((4,), (2, 4, 3)),
    ((3, 4), (2, 4, 2)),
    ((2, 3, 4), (2, 4, 2)),
    ((2, 1, 3, 4), (3, 4, 2)),
    ((1, 3, 4), (5, 4, 2)),
    ((3, 4), (4,)),
    ((4,), (4, 3)),
    ((1, 1, 3, 4), (5, 4, 2)),
    ((2, 3, 4), (1, 4, 2)),
    ((5, 4), (1, 4, 2)),
    ((1, 3, 4), (2, 1, 4, 2)),
]


@pytest.mark.parametrize("transposed", [False, True], ids=["contiguous", "transposed"])
@pytest.mark.parametrize("needs_grad", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul_records_the_same_graph_as_torch(
    shapes: tuple, needs_grad: tuple, transposed: bool, torch_module: ModuleType
) -> None:
    # PyTorch folds or expands batched products depending on shapes, strides and which
    # operand needs a gradient; the graph (and any shape error) follows that choice.
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in shapes]
    results = []
    for lib in (microtorch, torch_module):
        xs = []
        for x, rg in zip(arrays, needs_grad):
            t = lib.tensor(np.swapaxes(x, 0, -1).copy() if transposed else x, requires_grad=rg)
            xs.append(t.transpose(0, -1) if transposed else t)
        out = xs[0] @ xs[1]
        out.backward(lib.tensor(np.arange(out.numel(), dtype=np.float32).reshape(tuple(out.shape))))
        grads = [x.grad if x.is_leaf else None for x in xs]
        results.append((out, graph(out.grad_fn), grads))
    (m, m_graph, m_grads), (t, t_graph, t_grads) = results
    assert m_graph == t_graph
    assert_close(m.detach().numpy(), t.detach().numpy(), rtol=1e-5, atol=1e-5)
    assert m.is_contiguous() == t.is_contiguous()
    for mg, tg in zip(m_grads, t_grads):
        assert (mg is None) == (tg is None)
        if mg is not None:
            assert_close(mg.numpy(), tg.numpy(), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("spec", BINARY, ids=str)
@settings(max_examples=25, derandomize=True, deadline=None)
@given(shapes=broadcastable_pairs(), seed=st.integers(0, 2**16))
def test_binary_ops_broadcast_like_torch(spec: OpSpec, shapes: tuple, seed: int) -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    arrays = [sample(spec.domain, s, rng, k) for k, s in enumerate(shapes)]
    grads = []
    for lib in (microtorch, torch):
        xs = [lib.tensor(x, requires_grad=True) for x in arrays]
        out = spec.call(lib, *xs)
        out.backward(lib.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape))))
        grads.append([out.detach().numpy()] + [x.grad.numpy() for x in xs])
    for m, t in zip(*grads):
        assert m.shape == t.shape
        assert_close(m, t, rtol=1e-10, atol=1e-12)


INPLACE = {
    "add_": lambda y, o: y.add_(1),
    "add_tensor_alpha": lambda y, o: y.add_(o, alpha=2),
    "sub_": lambda y, o: y.sub_(o),
    "mul_": lambda y, o: y.mul_(o),
    "div_": lambda y, o: y.div_(2),
    "clamp_": lambda y, o: y.clamp_(min=0),
    "relu_": lambda y, o: y.relu_(),
    "pow_": lambda y, o: y.pow_(2),
    "iadd": lambda y, o: y.__iadd__(o),
    "masked_fill_": lambda y, o: y.masked_fill_(y > 0, 0.0),
    "setitem_number": lambda y, o: y.__setitem__(0, 5.0),
    "setitem_tensor": lambda y, o: y.__setitem__((slice(None), 1), o[:, 0]),
    "setitem_mask": lambda y, o: y.__setitem__(y > 1, 0.0),
}


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace_ops_on_a_non_leaf_match_torch(name: str, torch_module: ModuleType) -> None:
    x0 = np.array([[0.5, -1.0, 2.0], [1.5, -0.2, 0.3]])
    results = []
    for lib in (microtorch, torch_module):
        x = lib.tensor(x0, requires_grad=True)
        other = lib.tensor(x0 * 2 + 1, requires_grad=True)
        y = x * 1
        INPLACE[name](y, other)
        assert y._version == 1
        y.backward(lib.tensor(np.arange(6.0).reshape(2, 3) - 2))
        grads = [None if t.grad is None else t.grad.numpy().tolist() for t in (x, other)]
        results.append((graph(y.grad_fn), y.detach().numpy().tolist(), grads))
    assert results[0] == results[1]

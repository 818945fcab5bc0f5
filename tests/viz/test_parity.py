"""The same code drawn from microtorch and from PyTorch gives the same graph, node for node."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from microtorch.viz import Graph, text_graph, walk

Program = Callable[[ModuleType], dict[str, Any]]


def seed_demo(lib: ModuleType) -> dict[str, Any]:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    y = (x[0] + x[1]) * x[0]
    return {"x": x, "y": y}


def reused_value(lib: ModuleType) -> dict[str, Any]:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    y = (x * x + x).sum()
    return {"x": x, "y": y}


def broadcast_add(lib: ModuleType) -> dict[str, Any]:
    a = lib.ones(3, 1, requires_grad=True)
    b = lib.ones(1, 4, requires_grad=True)
    c = (a + b).sum()
    return {"a": a, "b": b, "c": c}


def two_layer_network(lib: ModuleType) -> dict[str, Any]:
    """The seed's TwoLayerNet written with raw tensors, and its mean squared error."""
    rng = np.random.default_rng(0)

    def param(*shape: int) -> Any:
        return lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)

    w1, b1, w2, b2 = param(5, 8), param(8), param(8, 1), param(1)
    x = lib.tensor(rng.standard_normal((4, 5)).astype(np.float32))
    target = lib.tensor([[1.0], [0.0], [1.0], [0.0]])
    h = lib.sigmoid(x @ w1 + b1)
    pred = lib.sigmoid(h @ w2 + b2)
    loss = ((pred - target) ** 2).mean()
    return {"fc1.weight": w1, "fc1.bias": b1, "fc2.weight": w2, "fc2.bias": b2, "loss": loss}


def softmax_cross_entropy(lib: ModuleType) -> dict[str, Any]:
    logits = lib.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], requires_grad=True)
    onehot = lib.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    loss = -(logits.log_softmax(dim=1) * onehot).sum(dim=1).mean()
    return {"logits": logits, "loss": loss}


def elementwise_mix(lib: ModuleType) -> dict[str, Any]:
    x = lib.tensor([[0.5, 1.0], [1.5, 2.0]], requires_grad=True)
    y = (x.exp() / (x.tanh() + 2) - x.relu().log()).reshape(4).unsqueeze(0).sum()
    return {"x": x, "y": y}


PROGRAMS = [
    seed_demo,
    reused_value,
    broadcast_add,
    two_layer_network,
    softmax_cross_entropy,
    elementwise_mix,
]


def outline(graph: Graph, full: bool) -> tuple[Any, ...]:
    nodes = [(n.kind, n.title, n.cluster) + ((n.lines,) if full else ()) for n in graph.nodes]
    return graph.outputs, nodes, [(e.src, e.dst, e.kind) for e in graph.edges]


def run(program: Program, lib: ModuleType, view: str) -> tuple[Any, ...]:
    names = program(lib)
    output = names[next(k for k in ("loss", "y", "c") if k in names)]
    graph = walk(output, names, view=view)  # type: ignore[arg-type]
    return outline(graph, full=view == "backward"), text_graph(output, names=names)


@pytest.mark.torch
@pytest.mark.parametrize("view", ["backward", "forward"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_same_graph_as_pytorch(
    program: Program, view: str, mt: ModuleType, torch_module: ModuleType
) -> None:
    assert run(program, mt, view) == run(program, torch_module, view)

"""Every layer and loss in tests/nn/cases.py against PyTorch 2.13: the recorded graph (node
names, all the way down), the values, and the gradients under a non-uniform upstream gradient."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch
from tests.nn.cases import CASES, X, graph


def _run(lib: ModuleType, name: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    x = lib.tensor(X, requires_grad=True)
    out = CASES[name](lib, x)
    names = graph(out)
    upstream = np.random.default_rng(1).uniform(0.5, 1.5, tuple(out.shape)).astype(np.float32)
    out.backward(lib.tensor(upstream))
    return names, out.detach().numpy().copy(), x.grad.numpy().copy()


@pytest.mark.parametrize("name", list(CASES))
def test_graph_values_and_gradients_match_torch(torch_module: ModuleType, name: str) -> None:
    mine_graph, mine_value, mine_grad = _run(microtorch, name)
    torch_graph, torch_value, torch_grad = _run(torch_module, name)
    assert mine_graph == torch_graph
    np.testing.assert_allclose(mine_value, torch_value, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mine_grad, torch_grad, rtol=1e-5, atol=1e-6)


def test_the_issue_examples_by_name() -> None:
    x = microtorch.randn(4, 5, requires_grad=True)
    layer = microtorch.nn.Linear(5, 3)
    assert layer(x).grad_fn.name() == "AddmmBackward0"
    loss = microtorch.nn.functional.cross_entropy(x, microtorch.tensor([1, 0, 4, 2]))
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"
    emb = microtorch.nn.Embedding(10, 3)(microtorch.tensor([[1, 2]]))
    assert emb.grad_fn.name() == "EmbeddingBackward0"
    assert microtorch.nn.functional.mse_loss(x, x.detach()).grad_fn.name() == "MseLossBackward0"

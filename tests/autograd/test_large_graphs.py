"""Deep, wide and recurrent graphs backpropagate, and their memory is returned afterwards."""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np

import microtorch as torch


def test_wide_graph_of_10000_branches() -> None:
    x = torch.tensor([1.5], requires_grad=True)
    total = x * 0
    for i in range(10_000):
        total = total + x * float(i % 3)
    total.backward()
    assert x.grad.item() == sum(i % 3 for i in range(10_000))


def test_recurrent_loop_of_1000_steps() -> None:
    torch.manual_seed(0)
    w = torch.randn(4, 4, dtype=torch.float64) * 0.3
    w.requires_grad_()
    h = torch.ones(1, 4, dtype=torch.float64)
    for _ in range(1000):
        h = (h @ w).tanh()
    h.sum().backward()
    assert w.grad.shape == (4, 4)
    assert np.isfinite(w.grad.numpy()).all()


def test_recurrent_gradient_matches_finite_differences() -> None:
    w0 = np.array([[0.3, -0.2], [0.1, 0.4]])

    def loss_of(w_values: np.ndarray) -> float:
        w = torch.tensor(w_values)
        h = torch.ones(1, 2, dtype=torch.float64)
        for _ in range(50):
            h = (h @ w).tanh() + 0.1
        return float(h.sum().item())

    w = torch.tensor(w0, requires_grad=True)
    h = torch.ones(1, 2, dtype=torch.float64)
    for _ in range(50):
        h = (h @ w).tanh() + 0.1
    h.sum().backward()
    eps = 1e-6
    for i in range(2):
        for j in range(2):
            plus, minus = w0.copy(), w0.copy()
            plus[i, j] += eps
            minus[i, j] -= eps
            numeric = (loss_of(plus) - loss_of(minus)) / (2 * eps)
            assert abs(w.grad[i, j].item() - numeric) < 1e-6


def _traced_forward_backward(n: int) -> tuple[int, int]:
    x = torch.tensor(np.ones(25_000, dtype=np.float32), requires_grad=True)
    gc.disable()
    try:
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        y = x
        for _ in range(n):
            y = (y * 1.0001).exp().log()  # each op saves a 100 KB array
        y.sum().backward()
        del y
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
    finally:
        gc.enable()
    return before, after


def test_memory_returns_after_backward_without_the_garbage_collector() -> None:
    before, after = _traced_forward_backward(100)
    # What remains is x.grad (100 KB) and Python's free lists of small objects (tens of KB);
    # a graph kept alive would hold 100 * 3 saved arrays, about 30 MB.
    assert after - before < 512 * 1024, f"{after - before} bytes still held after backward"

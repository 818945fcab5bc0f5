"""Where the time goes, for the goals a run did not meet: measured live, printed under the table.

W1 (tiny-op forward) splits one operation on one-element tensors into the numpy call itself,
what wrapping it in a Tensor costs (under ``no_grad``), and what recording the graph adds.
W2 (the 5-8-1 net) and W3 (the MLP step) split a step into forward, backward and update,
microtorch against PyTorch (W2) or the hand-written numpy step (W3), taking turns.
"""

from __future__ import annotations

import statistics
import time
import timeit
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

# Why what is left of each gap stays: the design keeps every op a short Python Function.
WHY = {
    "W2": (
        "Backward and the update are as fast as PyTorch's or faster; the forward's nine small "
        "ops each carry the Python cost of W1's breakdown, about 2 us more than PyTorch's C++."
    ),
    "W1": (
        "A recorded op is one numpy call plus about a dozen Python steps (the Tensor, its "
        "graph node, the edges, the saved values' versions): about 2 us of interpreter work "
        "where PyTorch's dispatch is C++. Closing the rest means fusing or compiling ops."
    ),
    "W3": (
        "The products and the arithmetic cost what numpy's do; the gap is the ~40 Python op "
        "steps per training step, each made 2-3x slower than in isolation because every big "
        "matrix product evicts the interpreter's working set from the CPU caches. Closing it "
        "means fewer Python steps per op: fused ops or a compiled core, not this design."
    ),
}


def _best_us(stmt: Callable[[], Any], number: int = 20000) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=5)) / number * 1e6


def w1_breakdown(mt: Any) -> Iterator[str]:
    """Per op, on one-element float32 tensors: numpy alone, + Tensor, + graph recording."""
    a, c = np.array([0.5], np.float32), np.array([0.9], np.float32)
    x, k = mt.tensor(a, requires_grad=True), mt.tensor(c)
    y = x * k  # a non-leaf, as in W1's chain
    ops = {
        "mul": (lambda: a * c, lambda: y * k),
        "add": (lambda: a + c, lambda: y + k),
        "tanh": (lambda: np.tanh(a), lambda: y.tanh()),
    }
    for name, (raw, op) in ops.items():
        numpy_us = _best_us(raw)
        with mt.no_grad():
            plain_us = _best_us(op)
        recorded_us = _best_us(op)
        yield (
            f"  {name:5s} numpy {numpy_us:5.2f} us | + Tensor and dispatch "
            f"{plain_us - numpy_us:5.2f} us | + graph recording {recorded_us - plain_us:5.2f} us"
            f" | total {recorded_us:5.2f} us"
        )


class _Phases:
    """Forward, backward and update times of training steps, per implementation (us)."""

    NAMES = ("forward", "backward", "update")

    def __init__(self) -> None:
        self.times: dict[str, dict[str, list[float]]] = {}

    def add(self, impl: str, *marks: float) -> None:
        """Record one step from its four time marks: start, after forward, backward, update."""
        times = self.times.setdefault(impl, {})
        for name, a, b in zip(self.NAMES, marks, marks[1:]):
            times.setdefault(name, []).append((b - a) * 1e6)

    def lines(self, reference: str) -> Iterator[str]:
        """One line per phase: microtorch's median, the reference's, and their ratio."""
        for name in self.NAMES:
            m = statistics.median(self.times["microtorch"][name])
            line = f"  {name:8s} microtorch {m:7.1f} us"
            if reference in self.times:
                r = statistics.median(self.times[reference][name])
                line += f" | {reference} {r:7.1f} us | {m / r:4.2f}x"
            yield line


def w3_breakdown(mt: Any, data: tuple[np.ndarray, ...], steps: int = 300) -> Iterator[str]:
    """The median forward, backward and update time of W3's step, microtorch and numpy."""
    x0, labels, *weights = data
    onehot0 = np.eye(10, dtype=np.float32)[labels]
    x, onehot = mt.tensor(x0), mt.tensor(onehot0)
    params = [mt.tensor(w).requires_grad_() for w in weights]
    w1, b1, w2, b2 = params
    np_params = [w.copy() for w in weights]
    phases = _Phases()
    for _ in range(steps):
        t0 = time.perf_counter()
        for p in params:
            p.grad = None
        logits = (x @ w1 + b1).relu() @ w2 + b2
        loss = -(logits.log_softmax(dim=1) * onehot).sum() / x.shape[0]
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        with mt.no_grad():
            for p in params:
                p -= 0.1 * p.grad
        phases.add("microtorch", t0, t1, t2, time.perf_counter())
        t0 = time.perf_counter()
        nw1, nb1, nw2, nb2 = np_params
        z1 = x0 @ nw1 + nb1
        h = np.maximum(z1, 0)
        out = h @ nw2 + nb2
        shifted = out - out.max(axis=1, keepdims=True)
        logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        float(-(logp * onehot0).sum() / x0.shape[0])
        t1 = time.perf_counter()
        g = (np.exp(logp) - onehot0) / x0.shape[0]
        gh = (g @ nw2.T) * (z1 > 0)
        grads = (x0.T @ gh, gh.sum(0), h.T @ g, g.sum(0))
        t2 = time.perf_counter()
        for w, gr in zip(np_params, grads):
            w -= 0.1 * gr
        phases.add("numpy", t0, t1, t2, time.perf_counter())
    yield from phases.lines("numpy")


def w2_breakdown(
    mt: Any, torch: Any, data: tuple[np.ndarray, ...], steps: int = 500
) -> Iterator[str]:
    """The median forward, backward and update time of W2's step, microtorch and torch."""
    libs = {"microtorch": mt, "torch": torch} if torch is not None else {"microtorch": mt}
    state = {}
    for name, lib in libs.items():
        x, y, *weights = (lib.tensor(a) for a in data)
        state[name] = (lib, x, y, [w.requires_grad_() for w in weights])
    phases = _Phases()
    for _ in range(steps):
        for name, (lib, x, y, params) in state.items():
            w1, b1, w2, b2 = params
            t0 = time.perf_counter()
            for p in params:
                p.grad = None
            h = (x @ w1 + b1).sigmoid()
            loss = (((h @ w2 + b2).sigmoid() - y) ** 2).mean()
            t1 = time.perf_counter()
            loss.backward()
            t2 = time.perf_counter()
            with lib.no_grad():
                for p in params:
                    p -= 1.0 * p.grad
            phases.add(name, t0, t1, t2, time.perf_counter())
    yield from phases.lines("torch")

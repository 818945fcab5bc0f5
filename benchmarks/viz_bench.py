"""Time microtorch.viz: walk + DOT for 100, 1,000 and 10,000-node graphs; SVG for 100 and 1,000.

The graphs are stacks of small layers, ``h = sigmoid(h @ w + b)``, seven drawn nodes per layer
(MmBackward0, AddBackward0, SigmoidBackward0, two leaves and their AccumulateGrad), so they
branch like a real network rather than being a bare chain.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import microtorch as torch
from microtorch.viz import GraphvizNotFoundError, render, to_dot, walk
from microtorch.viz.graph import View
from microtorch.viz.render import find_renderer


def _network(nodes: int) -> Any:
    """A loss whose backward graph has about ``nodes`` nodes."""
    torch.manual_seed(0)
    h = torch.randn(2, 2)
    for _ in range(max(1, nodes // 7)):
        w = torch.randn(2, 2, requires_grad=True)
        b = torch.randn(2, requires_grad=True)
        h = torch.sigmoid(h @ w + b)
    return h.sum()


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_viz(repeat: int = 3) -> dict[str, Any]:
    """Seconds (best of ``repeat``) per step, keyed like ``"walk+dot/backward/1000"``."""
    results: dict[str, Any] = {}
    sources = {}
    views: tuple[View, ...] = ("backward", "forward")
    for size in (100, 1_000, 10_000):
        loss = _network(size)
        for view in views:
            graph = walk(loss, view=view)
            results[f"nodes/{view}/{size}"] = len(graph.nodes)
            results[f"walk/{view}/{size}"] = _best(partial(walk, loss, view=view), repeat)
            results[f"dot/{view}/{size}"] = _best(partial(to_dot, graph), repeat)
        sources[size] = to_dot(walk(loss))
    for renderer in ("dot", "graphviz-pure"):
        try:
            find_renderer(renderer)
        except GraphvizNotFoundError:
            results[f"svg/{renderer}"] = "not installed"
            continue
        for size in (100, 1_000):
            svg = partial(render, sources[size], "svg", renderer=renderer)
            results[f"svg/{renderer}/{size}"] = _best(svg, 1)
    return results


if __name__ == "__main__":
    for key, value in bench_viz().items():
        print(f"{key:28} {value:.4f}" if isinstance(value, float) else f"{key:28} {value}")

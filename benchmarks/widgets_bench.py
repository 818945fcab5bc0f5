"""Time one update of ``BackwardStepper`` on a 100-node graph: layout once, re-style per step.

An update is what a click on "next" costs in the kernel: run the engine's next node (forward
steps only), build the highlight and the node data, fill the side panel and set the widgets'
values (the browser then re-styles its one layout: tests/widgets/test_graphview_browser.py).
The issue asks for under 50 ms; the medians are over every step of the pass.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

import microtorch as torch
from microtorch.widgets import BackwardStepper


def _network(nodes: int) -> Any:
    """A loss whose backward graph has about ``nodes`` nodes (as in viz_bench)."""
    torch.manual_seed(0)
    h = torch.randn(2, 2)
    for _ in range(max(1, nodes // 7)):
        w = torch.randn(2, 2, requires_grad=True)
        b = torch.randn(2, requires_grad=True)
        h = torch.sigmoid(h @ w + b)
    return h.sum()


def bench_stepper(nodes: int = 100) -> dict[str, Any]:
    """Layout seconds and per-step update times in ms (median and max, forward and back)."""
    start = time.perf_counter()
    stepper = BackwardStepper(_network(nodes))
    layout = time.perf_counter() - start
    forward, back = [], []
    for _ in range(stepper.replay.total):
        start = time.perf_counter()
        stepper.next()
        forward.append(time.perf_counter() - start)
    assert stepper.position == stepper.replay.total and stepper.replay.finished
    for _ in range(stepper.replay.total):
        start = time.perf_counter()
        stepper.prev()
        back.append(time.perf_counter() - start)
    return {
        "nodes": len(stepper.replay.graph.nodes),
        "steps": stepper.replay.total,
        "layout_s": layout,
        "median_ms": 1000 * statistics.median(forward),
        "max_ms": 1000 * max(forward),
        "median_back_ms": 1000 * statistics.median(back),
        # what one step sends to the browser: the highlight and the node panels' data
        "update_bytes": len(json.dumps([stepper.graph_view.highlight, stepper.graph_view.nodes])),
    }


if __name__ == "__main__":
    for key, value in bench_stepper().items():
        print(f"{key:16} {value:.3f}" if isinstance(value, float) else f"{key:16} {value}")

"""A real backward pass, run lazily one node at a time, with every step kept for replay.

``BackwardReplay`` pulls steps from ``iter_backward`` only when asked to go further than it
has been, so ``.grad`` fills exactly as far as the student has stepped; going back only looks
up recorded steps. It also knows, for each position, which drawn nodes and edges are current,
done or pending, and which gradient travelled along which edge: all read from the records.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from microtorch.autograd import iter_backward
from microtorch.autograd.engine import BackwardStep, root_grads
from microtorch.viz import Graph, Highlight, walk
from microtorch.viz.describe import shape_text, values_text
from microtorch.viz.nodes import node_name

__all__ = ["Arrival", "BackwardReplay", "short_text"]


@dataclass(frozen=True)
class Arrival:
    """One gradient that reached a node: which step sent it, from which node, and its value."""

    step: int
    sender: str
    grad: Any


def short_text(tensor: Any) -> str:
    """A label short enough for an arrow: the values of small tensors, else the shape."""
    if tensor is None:
        return "None"
    data = tensor.detach().numpy()
    return values_text(data, 4) if data.size <= 4 else shape_text(data.shape)


class BackwardReplay:
    """Steps of ``output.backward()``, run on demand; position ``p`` means ``p`` steps shown."""

    def __init__(
        self,
        output: Any,
        names: Mapping[str, Any] | None = None,
        *,
        gradient: Any = None,
        retain_graph: bool | None = None,
        forward: Any = None,
    ) -> None:
        root_grads([output], None if gradient is None else [gradient])  # the engine's errors, now
        self.output = output
        self.root_grad = "1" if gradient is None else short_text(gradient)
        self.graph: Graph = walk(output, names, forward=forward)  # before backward frees it
        self.steps: list[BackwardStep] = []
        self.error: Exception | None = None  # what stopped the engine early, if anything
        self._steps: Iterator[BackwardStep] | None = iter_backward(output, gradient, retain_graph)
        self._arrivals: dict[int, list[Arrival]] = {}  # id(node) -> gradients that reached it
        # each node runs once, so a node and a leaf's AccumulateGrad are one step each
        self.expected = sum(n.kind in ("op", "recorded", "accumulate") for n in self.graph.nodes)
        self._edges_into: dict[str, list[str]] = {}
        for edge in self.graph.edges:
            self._edges_into.setdefault(edge.dst, []).append(edge.id)

    @property
    def finished(self) -> bool:
        """True once the engine has run every step: ``.grad`` is as after ``backward()``."""
        return self._steps is None and self.error is None

    @property
    def total(self) -> int:
        """The number of steps: exact once finished, until then the nodes left to run."""
        if self._steps is None:
            return len(self.steps)
        return max(self.expected, len(self.steps))

    def run_to(self, count: int) -> int:
        """Run the real engine until ``count`` steps exist (or it ends); returns the count."""
        while self._steps is not None and len(self.steps) < count:
            try:
                step = next(self._steps, None)
            except Exception as error:  # the engine raised: it cannot go on from here
                self._steps, self.error = None, error
                raise
            if step is None:
                self._steps = None
                break
            self._record(step)
            if len(self.steps) == self.expected:
                # Every drawn node has run, so the generator can only end now: finish it, so
                # "backward complete" is said as soon as it is true (it never runs a node).
                self.run_to(count + 1)
        return min(count, len(self.steps))

    def _record(self, step: BackwardStep) -> None:
        self.steps.append(step)
        sender = node_name(step.node)  # PyTorch's short name, never "torch::autograd::..."
        inputs = [child for child, _ in step.node.next_functions]
        for child, grad in zip(inputs, step.grad_inputs):
            if child is not None and grad is not None:
                arrival = Arrival(step.index, sender, grad)
                self._arrivals.setdefault(id(child), []).append(arrival)

    def arrivals(self, step: BackwardStep) -> list[Arrival]:
        """The gradients that reached ``step.node``, one per use in the forward pass."""
        return list(self._arrivals.get(id(step.node), []))

    def node_id(self, step: BackwardStep) -> str | None:
        """The drawn node of ``step``: its grad_fn, or the AccumulateGrad of a leaf."""
        return self.graph.node_id(step.node)

    def input_edges(self, step: BackwardStep) -> list[str | None]:
        """The drawn edge to each entry of ``next_functions`` (None where no gradient goes)."""
        edges = iter(self._edges_into.get(self.node_id(step) or "", []))
        return [None if child is None else next(edges) for child, _ in step.node.next_functions]

    def items_of(self, step: BackwardStep) -> set[str]:
        """The node and edge ids a step works on: its node, the arrows to its inputs, a leaf."""
        node = self.node_id(step)
        items = {e for e in self.input_edges(step) if e} | ({node} if node else set())
        if step.variable is not None:
            leaf = self.graph.node_id(step.variable)
            items |= {leaf} if leaf else set()
            items |= set(self._edges_into.get(node or "", []))  # leaf -> AccumulateGrad
        return items

    def highlight(self, position: int) -> Highlight:
        """What the picture shows after ``position`` steps (0: backward not started)."""
        outputs = set(self.graph.outputs)
        seed_edges = {e.id for e in self.graph.edges if e.dst in outputs}
        start = outputs | seed_edges
        if position == 0:
            labels = dict.fromkeys(seed_edges, self.root_grad)  # backward starts with this
            return Highlight(current=start, pending=self._all_items() - start, labels=labels)
        step = self.steps[position - 1]
        done = set(start)
        for earlier in self.steps[: position - 1]:
            done |= self.items_of(earlier)
        current = self.items_of(step)
        labels = {}
        for edge, grad in zip(self.input_edges(step), step.grad_inputs):
            if edge is not None:
                labels[edge] = short_text(grad)
        node = self.node_id(step)
        if step.variable is not None and node is not None:
            labels[node] = ".grad " + short_text(step.grad_after)
        pending = self._all_items() - done - current
        return Highlight(current=current, done=done - current, pending=pending, labels=labels)

    def _all_items(self) -> set[str]:
        return {n.id for n in self.graph.nodes} | {e.id for e in self.graph.edges}

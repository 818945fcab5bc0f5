"""``AccumulationExplorer``: press ``loss.backward()`` twice and watch ``.grad`` add up.

A weight and its ``.grad`` side by side, a ``loss.backward()`` button, an
``optimizer.zero_grad()`` button with a ``set_to_none`` toggle, and the history of states.
Every press calls the real ``backward``/``zero_grad``; the widget only shows the results.
Below them, the loss's graph (``GraphView``, laid out in the browser): a click on the weight or
its ``AccumulateGrad`` shows the ``.grad`` the presses left there; an operation shows what it
saved, or that the last backward freed it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

import microtorch as torch
from microtorch.optim import SGD
from microtorch.viz import Highlight, text_graph, walk
from microtorch.viz.live import GraphView
from microtorch.widgets._errors import report_errors
from microtorch.widgets._text import TEXT_CSS, text_html
from microtorch.widgets.static import StaticView, html_table, text_table

__all__ = ["AccumulationExplorer"]


def _pre(text: str) -> str:
    return f"<pre>{html.escape(text)}</pre>"


class AccumulationExplorer:
    """``AccumulationExplorer(weight, loss_fn, optimizer)``; ``loss_fn()`` makes a fresh loss."""

    def __init__(
        self,
        weight: Any,
        loss_fn: Callable[[], Any],
        optimizer: Any,
        *,
        name: str = "weight",
        description: str = "",
    ) -> None:
        self.weight, self.loss_fn, self.optimizer, self.name = weight, loss_fn, optimizer, name
        self.description = description
        self.history: list[tuple[str, str]] = []  # (what was called, repr of .grad after it)
        self.output = widgets.Output()
        guard = report_errors(self.output)
        fit = widgets.Layout(width="auto")  # the whole call stays readable
        self.backward_button = widgets.Button(description="loss.backward()", layout=fit)
        self.zero_grad_button = widgets.Button(description="optimizer.zero_grad()", layout=fit)
        self.set_to_none = widgets.Checkbox(True, description="set_to_none=True", indent=False)
        self.backward_button.on_click(guard(lambda _b: self.backward()))
        self.zero_grad_button.on_click(guard(lambda _b: self.zero_grad()))
        self.set_to_none.observe(guard(lambda _c: self._label()), names="value")
        self.weight_view = text_html(layout=widgets.Layout(flex="1 1 0%"))
        self.grad_view = text_html(layout=widgets.Layout(flex="1 1 0%"))
        self.history_view = text_html()
        self.graph_view: GraphView | None = None
        try:
            loss = loss_fn()  # a forward pass only: nothing is added to .grad
        except Exception:  # the first press shows this error in the output
            pass
        else:
            self.graph_view = GraphView(
                walk(loss, self._names(loss)),
                description=text_graph(loss, names=self._names(loss)),
                max_height=320,
            )
        self.widget = widgets.VBox(
            [
                text_html(TEXT_CSS + (f"<p>{html.escape(description)}</p>" if description else "")),
                widgets.HBox([self.weight_view, self.grad_view]),
                widgets.HBox([self.backward_button, self.zero_grad_button, self.set_to_none]),
                self.history_view,
                *([self.graph_view] if self.graph_view is not None else []),
                self.output,
            ]
        )
        self._record("start")

    def _names(self, loss: Any) -> dict[str, Any]:
        return {self.name: self.weight, "loss": loss}

    def _show_graph(self, loss: Any | None) -> None:
        """The graph of the loss just backpropagated (same code: same layout), its leaf marked."""
        view = self.graph_view
        if view is None:
            return
        if loss is not None:
            view.set_graph(walk(loss, self._names(loss)))
        else:
            view.refresh()  # zero_grad(): only .grad changed
        graph = view.graph
        leaf = graph.node_id(self.weight)
        accumulate = [e.dst for e in graph.edges if e.src == leaf]
        view.show(Highlight(current={leaf, *accumulate} if leaf else set()))

    @classmethod
    def seed_example(cls) -> AccumulationExplorer:
        """The seed's numbers: one backward gives ``[[0.20, 0.15]]``, two ``[[0.40, 0.30]]``."""
        weight = torch.tensor([[0.52, -0.18]], requires_grad=True)
        x = torch.tensor([[0.20, 0.15]])
        return cls(
            weight,
            lambda: (weight * x).sum(),  # d loss / d weight = x
            SGD([weight], lr=0.1),
            description="weight = [[0.52, -0.18]], x = [[0.20, 0.15]], loss = (weight * x).sum()",
        )

    def backward(self) -> None:
        """Make a fresh loss and call ``loss.backward()``: the gradient is added to ``.grad``."""
        loss = self.loss_fn()
        loss.backward()
        self._show_graph(loss)
        self._record("loss.backward()")

    def zero_grad(self) -> None:
        """Call ``optimizer.zero_grad(set_to_none=...)`` as the checkbox says."""
        set_to_none = bool(self.set_to_none.value)
        self.optimizer.zero_grad(set_to_none=set_to_none)
        self._show_graph(None)
        self._record(f"optimizer.zero_grad(set_to_none={set_to_none})")

    def _label(self) -> None:
        self.set_to_none.description = f"set_to_none={bool(self.set_to_none.value)}"

    def _record(self, action: str) -> None:
        self.history.append((action, repr(self.weight.grad)))
        self.weight_view.value = f"<b>{self.name}</b>{_pre(repr(self.weight.detach()))}"
        self.grad_view.value = f"<b>{self.name}.grad</b>{_pre(repr(self.weight.grad))}"
        self.history_view.value = self._table_html()

    def _table_html(self) -> str:
        return html_table(["call", f"{self.name}.grad after it"], self.history)

    def static(self) -> StaticView:
        """The sequence of states so far as a table (HTML and text)."""
        text = text_table(["call", f"{self.name}.grad after it"], self.history)
        return StaticView(self._table_html(), text)

    def __repr__(self) -> str:
        return f"AccumulationExplorer({self.name}.grad = {self.weight.grad!r})"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = repr(self)
        bundle["text/html"] = self.weight_view.value + self.grad_view.value + self._table_html()
        return bundle

"""``BackwardStepper``: click through ``loss.backward()`` one node at a time.

The graph is laid out once, in the browser (``GraphView``: no Graphviz needed on the kernel);
each step re-styles that picture (current node, done, pending, the gradient on each arrow) and
fills a side panel from the step the real engine recorded. Going forward runs the engine one
more node, so ``.grad`` fills as the student steps. Clicking a node shows what it holds at the
step on show (what it saved, or that backward freed it). Viewers without widgets see the static
form of the current step (SVG from the kernel's Graphviz, or the text drawing);
``save_html`` writes every step into one offline page for slides.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from microtorch.viz import RenderError, text_graph
from microtorch.viz.live import GraphView
from microtorch.viz.node_info import all_node_info
from microtorch.viz.nodes import node_name
from microtorch.viz.page import highlight_data, page_html, write_page
from microtorch.widgets._errors import report_errors
from microtorch.widgets._panel import panel_html, progress_text, status_text, value_text
from microtorch.widgets._play import PlayControls
from microtorch.widgets._svg import StyledSVG
from microtorch.widgets._text import TEXT_CSS, text_html
from microtorch.widgets.replay import BackwardReplay
from microtorch.widgets.static import StaticView, html_table

__all__ = ["BackwardStepper"]

PANEL_MIN_PX = 300  # the side panel's narrowest; below that it moves under the picture
_LAYOUT_CSS = (
    "<style>.mt-stepper-panel pre.mt-value { margin: 2px 0; font-size: 11px; white-space: pre; "
    "overflow-x: auto; line-height: 1.3; }"
    ".mt-stepper-panel h3 { margin: 4px 0; } .mt-stepper-panel h4 { margin: 8px 0 2px 0; }"
    ".mt-stepper-panel ul { margin: 2px 0; padding-left: 1.4em; }</style>"
)


def _labelled(label: str, values: list[str]) -> list[str]:
    """``label: value`` lines, each further line of a value under the value's first."""
    indent = " " * 15
    lines = []
    for i, value in enumerate(values):
        first, *rest = value.splitlines() or [""]
        head = f"  {label + ':':12} " if i == 0 else indent
        lines += [head + first] + [indent + line for line in rest]
    return lines


def _steps_text(title: str, replay: BackwardReplay) -> str:
    """One short block per step (not a table: a gradient matrix would make 400-column rows)."""
    lines = [title]
    for step in replay.steps:
        lines += ["", f"step {step.index + 1}: {node_name(step.node)}"]
        lines += _labelled("arriving", [value_text(g) for g in step.grad_outputs])
        if step.variable is not None:
            lines += _labelled(".grad after", [value_text(step.grad_after)])
        else:
            inputs = zip(step.node.next_functions, step.grad_inputs)
            sent = [value_text(g) if child else "not needed" for (child, _), g in inputs]
            lines += _labelled("sent", sent)  # to each input, in next_functions' order
    return "\n".join(lines)


def _output_name(output: Any, names: Mapping[str, Any] | None) -> str:
    for key, value in (names or {}).items():
        if value is output and not key.startswith("_"):
            return key
    return "loss"


class BackwardStepper:
    """Step through ``output.backward()``: ``BackwardStepper(loss, names=dict(...))``.

    ``stepper.next()``/``prev()``/``first()``/``last()``/``go(k)`` drive it from code, the
    buttons from the page. ``stepper.static()`` runs the remaining steps and returns a table.
    For the backward of a gradient taken with ``create_graph=True``, ``forward=y`` draws the
    nodes its backward pass recorded apart from those of the forward pass that made ``y``.
    """

    def __init__(
        self,
        output: Any,
        names: Mapping[str, Any] | None = None,
        *,
        gradient: Any = None,
        retain_graph: bool | None = None,
        style: str = "default",
        renderer: str = "auto",
        forward: Any = None,
    ) -> None:
        self.replay = BackwardReplay(
            output, names, gradient=gradient, retain_graph=retain_graph, forward=forward
        )
        self.output_name = _output_name(output, names)
        self.position = 0
        self._note = ""  # said in the status line: e.g. that save_html ran the engine
        self.style, self.renderer = style, renderer
        self._text = text_graph(output, names=names)
        # what each node held before backward, then what each engine step changed (a node that
        # ran freed its saved tensors; an AccumulateGrad filled its leaf's .grad)
        self._node_frames = [all_node_info(self.replay.graph)]
        self._build()
        self._show()

    @cached_property
    def picture(self) -> StyledSVG | None:
        """The static picture (kernel-side Graphviz), or None without Graphviz."""
        try:
            return StyledSVG(self.replay.graph, style=self.style, renderer=self.renderer)
        except RenderError as error:  # no Graphviz: the text drawing, without highlights
            self._render_error = str(error)
            return None

    def _static_picture(self) -> str:
        if self.picture is not None:
            return self.picture.svg(self.highlight)
        return f"<pre>{html.escape(self._text)}\n\n{html.escape(self._render_error)}</pre>"

    def _record_nodes(self) -> None:
        graph, replay = self.replay.graph, self.replay
        nodes = {n.id for n in graph.nodes}
        for step in replay.steps[len(self._node_frames) - 1 :]:
            self._node_frames.append(all_node_info(graph, replay.items_of(step) & nodes))

    def nodes_at(self, position: int) -> dict[str, Any]:
        """The node panel data as it was after ``position`` steps (recorded as the engine ran)."""
        merged: dict[str, Any] = {}
        for frame in self._node_frames[: position + 1]:
            merged.update(frame)
        return merged

    def _build(self) -> None:
        self.output = widgets.Output()  # errors from callbacks land here
        button = widgets.Button
        self.first_button = button(description="first", icon="fast-backward", tooltip="step 0")
        self.prev_button = button(description="prev", icon="step-backward")
        self.next_button = button(description="next", icon="step-forward")
        self.last_button = button(description="last", icon="fast-forward", tooltip="run all")
        total = self.replay.total
        self.slider = widgets.IntSlider(0, min=0, max=total, description="step")
        self.play = PlayControls(value=0, min=0, max=total, interval=700)
        self.speed = widgets.FloatSlider(1.5, min=0.5, max=10.0, step=0.5, description="steps/s")
        widgets.link((self.play, "value"), (self.slider, "value"))
        guard = report_errors(self.output)
        for btn, action in (
            (self.first_button, self.first),
            (self.prev_button, self.prev),
            (self.next_button, self.next),
            (self.last_button, self.last),
        ):
            btn.on_click(guard(lambda _button, act=action: act()))
        self.slider.observe(guard(lambda change: self.go(change["new"])), names="value")
        self.speed.observe(guard(lambda change: self._set_speed(change["new"])), names="value")
        self._set_speed(self.speed.value)
        # The graph takes the row; the panel stands beside it only where both fit (the page
        # widens the graph to its natural width once laid out), else it wraps below.
        self.graph_view = GraphView(
            self.replay.graph,
            description=self._text,
            style=self.style,
            layout=widgets.Layout(
                flex="1 1 var(--mt-graph-width, 480px)",
                min_width="min(100%, var(--mt-graph-width, 0px))",
            ),
        )
        self.panel = text_html(
            layout=widgets.Layout(
                flex=f"1 1 {PANEL_MIN_PX}px", min_width=f"{PANEL_MIN_PX}px", overflow="auto"
            )
        )
        self.panel.add_class("mt-stepper-panel")
        self.status = text_html()
        controls = widgets.HBox(
            [self.first_button, self.prev_button, self.next_button, self.last_button]
        )
        self.widget = widgets.VBox(
            [
                controls,
                widgets.HBox([self.play, self.slider, self.speed]),
                self.status,
                widgets.HBox(
                    [self.graph_view, self.panel], layout=widgets.Layout(flex_flow="row wrap")
                ),
                self.output,
            ]
        )
        self.widget.add_class("mt-stepper")

    def _set_speed(self, steps_per_second: float) -> None:
        self.play.interval = int(1000 / steps_per_second)

    @property
    def current_step(self) -> Any:
        """The engine's ``BackwardStep`` on show, or None before the first step."""
        return self.replay.steps[self.position - 1] if self.position else None

    @property
    def highlight(self) -> Any:
        """The ``microtorch.viz.Highlight`` drawn for the current position."""
        return self.replay.highlight(self.position)

    def go(self, position: int) -> None:
        """Show step ``position`` (0 = before backward), running the engine that far if needed."""
        position = max(0, min(int(position), self.replay.total))
        try:
            self.replay.run_to(position)
        finally:  # also after an engine error: show how far it got, then let the error out
            self._record_nodes()
            self.position = min(position, len(self.replay.steps))
            self._show()

    def next(self) -> None:
        """One step forward: runs the next node of the real backward pass if not run yet."""
        self.go(self.position + 1)

    def prev(self) -> None:
        """One step back: only re-displays a recorded step, ``.grad`` does not change."""
        self.go(self.position - 1)

    def first(self) -> None:
        """Back to the start (display only)."""
        self.go(0)

    def last(self) -> None:
        """Run the rest of the backward pass and show its last step."""
        self.replay.run_to(self.replay.total + 1)  # to the end, even if the count was a guess
        self.go(self.replay.total)

    def _show(self) -> None:
        replay, position = self.replay, self.position
        total = replay.total
        self.slider.max = self.play.max = total
        self.slider.value = position  # observe() calls go() again only if the value changed
        self.graph_view.nodes = self.nodes_at(position)
        self.graph_view.highlight = highlight_data(replay.highlight(position))
        self.panel.value = TEXT_CSS + _LAYOUT_CSS + panel_html(replay, position)
        status = status_text(replay, position, self.output_name)
        if self._note:
            status += f" ({self._note})"
        self.status.value = f"<b>{html.escape(status)}</b>"
        at_end = position == total and (replay.finished or replay.error is not None)
        self.first_button.disabled = self.prev_button.disabled = position == 0
        self.next_button.disabled = self.last_button.disabled = at_end

    def frame_html(self) -> str:
        """The picture, status and panel for the current position, as one piece of HTML."""
        return (
            f"{_LAYOUT_CSS}<p>{self.status.value}</p>"
            '<div style="display:flex;flex-wrap:wrap;gap:1em"><div style="flex:3 1 0%">'
            f'{self._static_picture()}</div><div class="mt-stepper-panel" style="flex:1 1 '
            f'{PANEL_MIN_PX}px;min-width:{PANEL_MIN_PX}px">{panel_html(self.replay, self.position)}'
            "</div></div>"
        )

    def static(self, frames: bool = False) -> StaticView:
        """All steps as a table (runs the rest of backward first); ``frames=True`` adds pictures."""
        self.last()
        header = ["step", "node", "gradient arriving", "sent to inputs / .grad after"]
        rows = []
        for step in self.replay.steps:
            if step.variable is not None:
                sent = [".grad = " + value_text(step.grad_after)]
            else:
                inputs = zip(step.node.next_functions, step.grad_inputs)
                sent = [value_text(g) if child else "not needed" for (child, _), g in inputs]
            arriving = [value_text(g) for g in step.grad_outputs]
            rows.append(
                [str(step.index + 1), node_name(step.node), "; ".join(arriving), "; ".join(sent)]
            )
        body = html_table(header, rows)
        if frames:
            pictures = []
            for position in range(self.replay.total + 1):
                self.go(position)
                pictures.append(self.frame_html())
            body += "<hr>".join(pictures)
        else:
            body = self.frame_html() + body
        title = f"{len(rows)} steps of {self.output_name}.backward()"
        return StaticView(f"<h4>{html.escape(title)}</h4>{body}", _steps_text(title, self.replay))

    def save_html(self, path: str | os.PathLike[str]) -> Path:
        """Every step in one offline HTML page (buttons, ← →).

        The page shows what the real engine did, so this first runs the rest of the backward
        pass on your tensors, as the *last* button does: afterwards their ``.grad`` is filled
        and the graph's saved tensors are freed, as after ``output.backward()``. The widget
        says so in its status line. To keep your tensors as they are, build the forward pass
        again (or on copies) and save a stepper of that.
        """
        before = len(self.replay.steps)
        self.replay.run_to(self.replay.total + 1)
        ran = len(self.replay.steps) - before
        if ran:
            self._note = (
                f"save_html ran the last {ran} steps of {self.output_name}.backward() for its "
                "page, on these tensors"
            )
        self.go(self.replay.total)
        replay, frames = self.replay, []
        for position in range(replay.total + 1):
            frames.append(
                {
                    "highlight": highlight_data(replay.highlight(position)),
                    "nodes": self.nodes_at(position),
                    "status": progress_text(replay, position, self.output_name),
                    "panel": panel_html(replay, position),
                }
            )
        state = self.graph_view.state()
        state.update(selected="", highlight=frames[0]["highlight"], nodes=frames[0]["nodes"])
        title = f"{self.output_name}.backward(), step by step"
        return write_page(path, page_html(state, title=title, frames=frames))

    def __repr__(self) -> str:
        status = status_text(self.replay, self.position, self.output_name)
        return (
            f"BackwardStepper: step {self.position} of {self.replay.total} of "
            f"{self.output_name}.backward() ({status})"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = repr(self)
        bundle["text/html"] = self.frame_html()  # where widgets cannot run: this position
        return bundle

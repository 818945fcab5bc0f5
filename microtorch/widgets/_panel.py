"""The stepper's side panel and status line as HTML: every number read from a recorded step."""

from __future__ import annotations

import html
import re
from typing import Any

from microtorch.autograd.engine import BackwardStep
from microtorch.viz.describe import shape_text, values_text
from microtorch.viz.nodes import node_name
from microtorch.widgets.replay import BackwardReplay

__all__ = ["grad_text", "leaf_titles", "panel_html", "progress_text", "status_text", "value_text"]

_INPUT_NAMES = re.compile(r"\bd\w+/d(\w+)")  # "dz/da and dz/db" -> a, b
_CODE = re.compile(r"``(.+?)``")


def value_text(tensor: Any, max_values: int = 12) -> str:
    """PyTorch's repr for small tensors; shape and min/max/mean for large ones."""
    if tensor is None:
        return "None"
    if tensor.numel() <= max_values:
        return repr(tensor)
    data = tensor.detach().numpy()
    return f"shape {shape_text(data.shape)}: {values_text(data, 0)}"


def _pre(tensor: Any) -> str:
    return f'<pre class="mt-value">{html.escape(value_text(tensor))}</pre>'


def _words(formula: str) -> str:
    return _CODE.sub(r"<code>\1</code>", html.escape(formula))


def leaf_titles(replay: BackwardReplay) -> list[str]:
    """The leaves this backward pass fills, by their names in the picture, in the graph's order."""
    titles = {n.id: n.title for n in replay.graph.nodes}
    leaves = [getattr(s, "variable", None) for s in replay.graph.sources]
    ids = [replay.graph.node_id(leaf) for leaf in leaves if leaf is not None]
    return list(dict.fromkeys(titles[i] for i in ids if i is not None))


def grad_text(replay: BackwardReplay, ran: int) -> str:
    """Which leaves the first ``ran`` recorded steps gave a gradient (their AccumulateGrad ran)."""
    reached = [
        _node_title(replay, step.node).removeprefix("AccumulateGrad of ")
        for step in replay.steps[:ran]
        if step.variable is not None
    ]
    reached = list(dict.fromkeys(reached))
    waiting = [title for title in leaf_titles(replay) if title not in reached]
    if not reached:
        return "no .grad received yet" + (f" (waiting: {', '.join(waiting)})" if waiting else "")
    text = f".grad received by {', '.join(reached)}"
    return text + (f"; not yet by {', '.join(waiting)}" if waiting else "")


def progress_text(replay: BackwardReplay, ran: int, output_name: str = "loss") -> str:
    """What ``.grad`` holds after the first ``ran`` recorded steps of the real engine."""
    total = replay.total
    if ran == len(replay.steps) and replay.error is not None:
        return f"backward stopped by an error after {ran} steps: {grad_text(replay, ran)}"
    if ran == len(replay.steps) and replay.finished:
        return f"backward complete: .grad is as after {output_name}.backward()"
    if ran == 0:
        return f"0 of {total} steps run: .grad untouched (backward has not started)"
    return f"{ran} of {total} steps run: {grad_text(replay, ran)}"


def status_text(replay: BackwardReplay, position: int, output_name: str = "loss") -> str:
    """Where the real engine is, and so what ``.grad`` holds now; also says when replaying."""
    ran = len(replay.steps)
    text = progress_text(replay, ran, output_name)
    if position < ran:
        shown = f"step {position}" if position else "the start"
        text += (
            f". Showing {shown} again: going back only re-displays recorded steps, "
            f".grad stays as after step {ran}"
        )
    return text


def _node_title(replay: BackwardReplay, node: Any) -> str:
    """How the picture names a node: its PyTorch name, plus the leaf's name for AccumulateGrad."""
    if node is None:
        return "nothing (this input does not require grad)"
    graph = replay.graph
    name = node_name(node)
    variable = getattr(node, "variable", None)
    leaf = graph.node_id(variable) if variable is not None else None
    if leaf is not None:
        titles = {n.id: n.title for n in graph.nodes}
        return f"{name} of {titles[leaf]}"
    return name


def _arriving(replay: BackwardReplay, step: BackwardStep) -> list[str]:
    arrivals = replay.arrivals(step)
    rows = ["<h4>Gradient arriving (grad_output)</h4>"]
    if len(arrivals) > 1:
        rows.append(
            f"<p>This value was used {len(arrivals)} times in the forward pass, so "
            f"{len(arrivals)} gradients arrived; the engine summed them before running this node:"
            "</p><ul>"
        )
        for a in arrivals:
            rows.append(f"<li>from {a.sender} (step {a.step + 1}): {_pre(a.grad)}</li>")
        rows.append("</ul><p>sum:</p>")
    for grad in step.grad_outputs:
        rows.append(_pre(grad))
    return rows


def _local(step: BackwardStep) -> list[str]:
    rows = [f"<h4>Local derivative</h4><p>{_words(step.formula)}</p>"]
    if step.saved:
        rows.append("<p>with the numbers forward saved (ctx.saved_tensors):</p><ul>")
        for i, value in enumerate(step.saved):
            rows.append(f"<li>saved_tensors[{i}] = {_pre(value)}</li>")
        rows.append("</ul>")
    return rows


def _sent(replay: BackwardReplay, step: BackwardStep) -> list[str]:
    inputs = step.node.next_functions
    letters = list(dict.fromkeys(_INPUT_NAMES.findall(step.formula)))
    if len(letters) != len(inputs):
        letters = []
    rows = ["<h4>Gradient sent to each input (grad_output × local derivative)</h4><ul>"]
    for i, ((child, _), grad) in enumerate(zip(inputs, step.grad_inputs)):
        which = f"input {i}" + (f" ({letters[i]})" if letters else "")
        if child is None:
            rows.append(f"<li>{which}: no gradient needed (it does not require grad)</li>")
            continue
        rows.append(f"<li>{which} → {html.escape(_node_title(replay, child))}: {_pre(grad)}</li>")
    return [*rows, "</ul>"]


def _leaf(replay: BackwardReplay, step: BackwardStep) -> list[str]:
    leaf = _node_title(replay, step.node).removeprefix("AccumulateGrad of ")
    return [
        f"<h4>Leaf {html.escape(leaf)}</h4><p>{_words(step.formula)}</p>",
        f"<p>.grad before:</p>{_pre(step.grad_before)}",
        f"<p>.grad after:</p>{_pre(step.grad_after)}",
    ]


def panel_html(replay: BackwardReplay, position: int) -> str:
    """The side panel for ``position`` (0: before backward, k: the k-th step's record)."""
    if position == 0:
        first = replay.output.grad_fn
        start = node_name(first) if first is not None else "AccumulateGrad"
        return (
            "<h3>Before backward</h3><p>The gradient of the output with respect to itself is "
            f"{html.escape(replay.root_grad)}; the engine starts at {start}.</p>"
        )
    step = replay.steps[position - 1]
    rows = [f"<h3>Step {position} of {replay.total}: {node_name(step.node)}</h3>"]
    rows += _arriving(replay, step)
    if step.variable is not None:
        rows += _leaf(replay, step)
    else:
        rows += _local(step) + _sent(replay, step)
    return "\n".join(rows)

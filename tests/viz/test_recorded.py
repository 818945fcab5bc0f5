"""``forward=``: the nodes a backward pass recorded are drawn apart from the forward's nodes.

Until create_graph lands on every op, a graph made after ``y`` from ``y`` stands in for a
gradient's graph: what decides the kind is only whether a node is behind the forward outputs.
"""

from __future__ import annotations

import pytest

import microtorch as torch
from microtorch.viz import draw
from microtorch.viz.dot import to_dot
from microtorch.viz.graph import walk
from microtorch.viz.style import LEGEND
from microtorch.viz.text import text_graph
from microtorch.widgets.replay import BackwardReplay


def _later_graph() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    x = torch.tensor(3.0, requires_grad=True)
    y = x.exp()  # the forward pass: ExpBackward0
    g = y * 2 + x  # made after y and reading it: MulBackward0, AddBackward0
    return x, y, g


def test_nodes_not_behind_forward_are_recorded() -> None:
    x, y, g = _later_graph()
    kinds = {n.title: n.kind for n in walk(g, {"x": x}, forward=y).nodes}
    assert kinds == {
        "()": "output",
        "AddBackward0": "recorded",
        "MulBackward0": "recorded",
        "x": "leaf",
        "AccumulateGrad": "accumulate",
        "ExpBackward0": "op",
    }


def test_without_forward_every_node_is_an_op() -> None:
    x, y, g = _later_graph()
    assert "recorded" not in {n.kind for n in walk(g, {"x": x}).nodes}
    assert "recorded" not in {n.kind for n in walk(g, {"x": x}, view="forward").nodes}


def test_forward_view_marks_the_recorded_operations() -> None:
    x, y, g = _later_graph()
    ops = [n for n in walk(g, {"x": x}, view="forward", forward=[y]).nodes if n.kind != "tensor"]
    assert {(n.title, n.kind) for n in ops if n.kind in ("op", "recorded")} == {
        ("Exp", "op"),
        ("Add", "recorded"),
        ("Mul", "recorded"),
    }


def test_legend_and_shape_say_it_in_words() -> None:
    x, y, g = _later_graph()
    source = to_dot(walk(g, {"x": x}, forward=y), legend=True)
    assert f"octagon: {LEGEND['recorded']}" in source.replace("\\n", " ")
    assert source.count("shape=octagon") == 2 and source.count("shape=ellipse") == 1
    plain = to_dot(walk(g, {"x": x}), legend=True)
    assert "octagon" not in plain


def test_draw_and_text_accept_forward() -> None:
    x, y, g = _later_graph()
    drawing = draw(g, names={"x": x, "g": g}, forward=y)
    assert [n.kind for n in drawing.graph.nodes].count("recorded") == 2
    assert text_graph(g, names={"x": x, "g": g}).startswith("g (AddBackward0)")
    with pytest.raises(TypeError, match=r"forward=\.\.\.\) takes tensors"):
        walk(g, forward=[3.0])


def test_replay_steps_through_recorded_nodes_too() -> None:
    x, y, g = _later_graph()
    replay = BackwardReplay(g, {"x": x}, forward=y)
    assert replay.expected == 4  # AddBackward0, MulBackward0, ExpBackward0, AccumulateGrad
    x2, y2, g2 = _later_graph()
    g2.backward()
    assert replay.run_to(10) == 4 and replay.finished
    assert len(replay.steps) == 4 and x.grad.item() == x2.grad.item()

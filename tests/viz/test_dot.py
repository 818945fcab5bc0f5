"""to_dot(): golden DOT for the seed's small graphs, determinism, highlights, styles."""

# Golden DOT lines are compared byte for byte, so they stay unwrapped:
# ruff: noqa: E501

from __future__ import annotations

import re
from types import ModuleType

import pytest

from microtorch.viz import Cluster, Graph, Highlight, Node, styles, to_dot, walk
from microtorch.viz.dot import LEGEND_LINE, legend_text
from microtorch.viz.graph import KINDS
from microtorch.viz.style import LEGEND, get_style

HEAD_BT = r"""digraph microtorch {
  graph [rankdir=BT bgcolor="#FFFFFF" fontname=Helvetica fontsize=12 color="#000000" fontcolor="#000000" nodesep=0.15 ranksep=0.3]
  node [fontname=Helvetica fontsize=12 penwidth=1 color="#000000" style=filled]
  edge [fontname=Helvetica fontsize=12 penwidth=1 arrowsize=0.8 color="#000000" fontcolor="#000000"]
"""
HEAD_TB = HEAD_BT.replace("rankdir=BT", "rankdir=TB")
OP = 'shape=ellipse fillcolor="#FFFFFF"]'
ACC = 'n{} [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]'

# The seed's first example: y = x * 3. The loss sits on top (rankdir=BT), arrows point up.
X_TIMES_3 = (
    HEAD_BT
    + r"""  n0 [label="y\n(1,)" shape=box fillcolor="#E69F00" peripheries=2]
  n1 [label=MulBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n2 [label="x\n(1,)" shape=box fillcolor="#56B4E9"]
  n3 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
  n1 -> n0
  n2 -> n3
  n3 -> n1
}
"""
)

# y = (x[0] + x[1]) * x[0]: three SelectBackward0 nodes all fed by x's one AccumulateGrad.
SEED_DEMO = (
    HEAD_BT
    + r"""  n0 [label="y\n()" shape=box fillcolor="#E69F00" peripheries=2]
  n1 [label=MulBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n2 [label=AddBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n3 [label=SelectBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n4 [label=SelectBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n5 [label=SelectBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n6 [label="x\n(2,)" shape=box fillcolor="#56B4E9"]
  n7 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
  n1 -> n0
  n2 -> n1
  n3 -> n1
  n4 -> n2
  n5 -> n2
  n6 -> n7
  n7 -> n4
  n7 -> n5
  n7 -> n3
}
"""
)

# A reused value: both inputs of the MulBackward0 come from x, so there are two arrows.
X_TIMES_X = (
    HEAD_BT
    + r"""  n0 [label="y\n(2,)" shape=box fillcolor="#E69F00" peripheries=2]
  n1 [label=MulBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n2 [label="x\n(2,)" shape=box fillcolor="#56B4E9"]
  n3 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
  n1 -> n0
  n2 -> n3
  n3 -> n1
  n3 -> n1
}
"""
)

# A broadcast add (3, 1) + (1, 4) -> (3, 4), drawn as data: tensors with values, then the op.
BROADCAST_FORWARD = (
    HEAD_TB
    + r"""  n0 [label="c\n(3, 4) float32\ndata min 1 max 4 mean 2.5\ngrad None" shape=box fillcolor="#E69F00" peripheries=2]
  n1 [label=Add shape=ellipse fillcolor="#FFFFFF"]
  n2 [label="a\n(3, 1) float32\ndata [[0], [0], [0]]\ngrad None" shape=box fillcolor="#56B4E9"]
  n3 [label="b\n(1, 4) float32\ndata [[1, 2, 3, 4]]\ngrad None" shape=box fillcolor="#56B4E9"]
  n1 -> n0
  n2 -> n1
  n3 -> n1
}
"""
)


def test_golden_x_times_3(lib: ModuleType) -> None:
    x = lib.tensor([2.0], requires_grad=True)
    y = x * 3
    assert to_dot(walk(y, {"x": x, "y": y})) == X_TIMES_3


def test_golden_seed_demo(lib: ModuleType) -> None:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    y = (x[0] + x[1]) * x[0]
    assert to_dot(walk(y, locals())) == SEED_DEMO


def test_golden_reused_value(lib: ModuleType) -> None:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    y = x * x
    assert to_dot(walk(y, {"x": x, "y": y})) == X_TIMES_X


def test_golden_broadcast_add(lib: ModuleType) -> None:
    a = lib.zeros(3, 1, requires_grad=True)
    b = lib.tensor([[1.0, 2.0, 3.0, 4.0]], requires_grad=True)
    c = a + b
    assert to_dot(walk(c, {"a": a, "b": b, "c": c}, view="forward")) == BROADCAST_FORWARD
    backward = to_dot(walk(c, {"a": a, "b": b, "c": c}))
    assert "AddBackward0" in backward and backward.count("AccumulateGrad") == 2


def test_same_dot_twice_and_for_a_rebuilt_graph(lib: ModuleType) -> None:
    def build() -> str:
        x = lib.tensor([2.0, 3.0], requires_grad=True)
        y = ((x * x).sum() + x[0]).exp()
        return to_dot(walk(y, {"x": x, "y": y}, show_saved=True), legend=True)

    first = build()
    assert build() == first and build() == first


def structure(dot: str) -> list[str]:
    """The DOT with every attribute list removed: what decides order and connectivity."""
    return [re.sub(r" \[.*\]$", "", line) for line in dot.splitlines()]


def test_highlight_changes_attributes_only(lib: ModuleType) -> None:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    y = (x[0] + x[1]) * x[0]
    graph = walk(y, {"x": x, "y": y})
    plain = to_dot(graph)
    steps = [
        Highlight(current={"n1"}, pending={"n2", "n3", "e1", "e2"}),
        Highlight(current={"n2"}, done={"n0", "n1", "e0"}, labels={"e1": "grad 2"}),
        Highlight(done={n.id for n in graph.nodes} | {e.id for e in graph.edges}),
    ]
    for step in steps:
        assert structure(to_dot(graph, highlight=step)) == structure(plain)
    second = to_dot(graph, highlight=steps[1]).splitlines()
    assert (
        '  n2 [label=AddBackward0 shape=ellipse fillcolor="#FFFFFF" color="#D55E00" penwidth=3]'
        in second
    )
    assert '  n1 -> n0 [color="#0072B2" penwidth=2]' in second
    assert '  n2 -> n1 [xlabel="grad 2"]' in second  # e1, the second edge
    first = to_dot(graph, highlight=steps[0]).splitlines()
    assert (
        '  n2 [label=AddBackward0 shape=ellipse fillcolor="#FFFFFF" color="#999999" style="filled,dashed"]'
        in first
    )
    assert '  n3 -> n1 [color="#999999" style=dashed]' in first


def test_highlight_is_frozen_data() -> None:
    ids = {"n1"}
    marks = Highlight(current=ids, labels={"e0": "1.0"})
    ids.add("n2")
    assert marks.current == frozenset({"n1"}) and marks.state("n2") is None
    with pytest.raises(TypeError):
        marks.labels["e1"] = "2.0"  # type: ignore[index]


def test_styles_and_rankdir() -> None:
    graph = Graph("forward", (Node("n0", "tensor", "h", ("(2,)",), "h", "fc1"),), (), (), ())
    assert set(styles) == {"default", "classroom", "classroom-dark"}
    dark = to_dot(graph, style="classroom-dark", rankdir="LR")
    assert "rankdir=LR" in dark and 'bgcolor="#111111"' in dark and "fontsize=22" in dark
    assert 'n0 [label="h\\n(2,)" shape=box fillcolor="#444444" fontcolor="#FFFFFF"' in dark
    assert "rankdir=TB" in to_dot(graph)  # the forward view reads top to bottom by default
    with pytest.raises(ValueError, match="rankdir"):
        to_dot(graph, rankdir="UP")
    with pytest.raises(ValueError, match="classroom"):
        to_dot(graph, style="poster")


def test_clusters_and_legend() -> None:
    nodes = (
        Node("n0", "output", "loss"),
        Node("n1", "param", "fc1.weight", cluster="fc1"),
        Node("n2", "saved", 'say "hi"\\'),
    )
    graph = Graph("backward", nodes, (), (Cluster("c0", "fc1"),), ("n0",))
    lines = to_dot(graph, legend=True).splitlines()
    # the legend is the graph's label, under the drawing: words for each look, no extra nodes
    legend = (
        'label="orange double box: output (e.g. the loss)\\n'
        'green 3-D box: parameter · yellow note: saved for backward" labelloc=b]'
    )
    assert lines[1].endswith(f"nodesep=0.15 ranksep=0.3 {legend}")
    assert lines[4:] == [
        '  n0 [label=loss shape=box fillcolor="#E69F00" peripheries=2]',
        '  n2 [label="say \\"hi\\"\\\\" shape=note fillcolor="#F0E442"]',
        "  subgraph cluster_c0 {",
        "    label=fc1",
        "    style=rounded",
        '    n1 [label="fc1.weight" shape=box3d fillcolor="#009E73"]',
        "  }",
        "}",
    ]
    assert "label=" not in to_dot(graph).splitlines()[1]  # legend=False: no legend


def test_every_legend_line_is_short_and_every_kind_is_described() -> None:
    for style in ("default", "classroom-dark"):
        st = get_style(style)
        assert all(look.words for look in st.looks.values()), style
        nodes = tuple(Node(f"n{i}", kind, kind) for i, kind in enumerate(KINDS))
        text = legend_text(Graph("backward", nodes, (), (), ("n0",)), st)
        assert all(len(line) <= LEGEND_LINE for line in text.splitlines())
        assert all(LEGEND[kind] in text for kind in KINDS)

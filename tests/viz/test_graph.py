"""walk(): ids in discovery order, names, clusters, saved tensors, both views, huge chains."""

from __future__ import annotations

from types import ModuleType

import pytest

from microtorch.viz import Graph, collapse, walk

from .fakes import FakeNode, FakeTensor, chain, leaf


def titles(graph: Graph) -> list[str]:
    return [n.title for n in graph.nodes]


def pairs(graph: Graph) -> list[tuple[str, str]]:
    return [(e.src, e.dst) for e in graph.edges]


def test_backward_view_of_y_equals_x_times_3(lib: ModuleType) -> None:
    x = lib.tensor([2.0], requires_grad=True)
    y = x * 3
    graph = walk(y, {"x": x, "y": y})
    assert titles(graph) == ["y", "MulBackward0", "x", "AccumulateGrad"]
    assert [n.kind for n in graph.nodes] == ["output", "op", "leaf", "accumulate"]
    assert pairs(graph) == [("n1", "n0"), ("n2", "n3"), ("n3", "n1")]
    assert graph.outputs == ("n0",)
    assert graph.node_id(y.grad_fn) == "n1" and graph.node_id(x) == "n2"


def test_forward_view_shows_values_and_grad(lib: ModuleType) -> None:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    y = (x * 3).sum()
    graph = walk(y, {"x": x, "y": y}, view="forward")
    assert titles(graph) == ["y", "Sum", "", "Mul", "x"]
    assert graph.nodes[4].lines == ("(2,) float32", "data [2, 3]", "grad None")
    y.backward()
    after = walk(y, {"x": x, "y": y}, view="forward")
    assert after.nodes[4].lines[-1] == "grad [3, 3]"  # a real gradient, after backward


def test_large_values_are_summarised(lib: ModuleType) -> None:
    x = lib.tensor([float(i) for i in range(10)], requires_grad=True)
    graph = walk(x, {"x": x}, view="forward", max_values=4)
    assert graph.nodes[0].lines[1] == "data min 0 max 9 mean 4.5"
    assert walk(x, view="forward", max_values=10).nodes[0].lines[1].startswith("data [0, 1,")


def test_names_ignore_private_and_non_tensor_values(lib: ModuleType) -> None:
    x = lib.tensor([1.0], requires_grad=True)
    y = x + 1
    names = {"_": y, "_x": x, "torch": lib, "Tensor": type(x), "n": 3, "y": y, "x": x, "z": x}
    graph = walk(y, names)
    assert titles(graph) == ["y", "AddBackward0", "x", "AccumulateGrad"]  # "z" is a 2nd name


def test_unnamed_tensors_are_titled_by_shape(lib: ModuleType) -> None:
    w = lib.ones(2, 3, requires_grad=True)
    graph = walk(w.sum())
    assert titles(graph) == ["()", "SumBackward0", "(2, 3)", "AccumulateGrad"]


def test_named_intermediate_is_shown_on_its_op(lib: ModuleType) -> None:
    x = lib.tensor([1.0], requires_grad=True)
    h = x * 2
    y = h + 1
    graph = walk(y, {"x": x, "h": h, "y": y})
    assert graph.nodes[2].title == "MulBackward0" and graph.nodes[2].lines == ("h",)


def test_dotted_names_make_clusters(lib: ModuleType) -> None:
    w1 = lib.ones(2, 3, requires_grad=True)
    w2 = lib.ones(3, 1, requires_grad=True)
    x = lib.ones(4, 2)
    loss = (x @ w1 @ w2).sum()
    graph = walk(loss, {"fc1.weight": w1, "fc2.weight": w2, "loss": loss})
    assert [c.name for c in graph.clusters] == ["fc2", "fc1"]  # in order of first node
    clustered = [(n.title, n.cluster) for n in graph.nodes if n.cluster]
    assert clustered == [  # each weight with its AccumulateGrad; the ops have no _scope here
        ("fc2.weight", "fc2"),
        ("AccumulateGrad", "fc2"),
        ("fc1.weight", "fc1"),
        ("AccumulateGrad", "fc1"),
    ]


def test_saved_tensors_and_freed_after_backward(lib: ModuleType) -> None:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    before = walk(y, show_saved=True)
    saved = [n for n in before.nodes if n.kind == "saved"]
    assert len(saved) == 2 and all(n.lines == ("(2,)",) for n in saved)
    assert all(e.kind == "saved" for e in before.edges if e.src in {n.id for n in saved})
    y.backward()
    after = walk(y, show_saved=True)
    freed = [n.id for n in after.nodes if n.lines == ("freed by backward",)]
    mul = after.node_id(y.grad_fn.next_functions[0][0])
    assert any((e.src, e.dst) == (f, mul) for e in after.edges for f in freed)


def test_parameter_kind(lib: ModuleType) -> None:
    nn = pytest.importorskip(f"{lib.__name__}.nn")
    if not hasattr(nn, "Parameter"):
        pytest.skip(f"{lib.__name__}.nn.Parameter not written yet")
    p = nn.Parameter(lib.ones(2))
    graph = walk(p * 2, {"p": p})
    assert [n.kind for n in graph.nodes] == ["output", "op", "param", "accumulate"]


def test_multiple_outputs_share_nodes(lib: ModuleType) -> None:
    x = lib.tensor([1.0], requires_grad=True)
    h = x * 2
    a, b = h + 1, h - 1
    graph = walk([a, b], {"a": a, "b": b, "x": x})
    assert titles(graph) == [
        "a",
        "AddBackward0",
        "MulBackward0",
        "x",
        "AccumulateGrad",
        "b",
        "SubBackward0",
    ]
    assert graph.outputs == ("n0", "n5")
    assert ("n2", "n6") in pairs(graph)  # b's op reuses the MulBackward0 drawn for a


def test_tensor_without_graph(lib: ModuleType) -> None:
    c = lib.tensor([1.0, 2.0])
    graph = walk(c, {"c": c})
    assert [(n.kind, n.title) for n in graph.nodes] == [("output", "c")] and not graph.edges


def test_scope_makes_clusters_and_collapse_merges_them() -> None:
    w, acc_w = leaf((3, 2))
    b, acc_b = leaf((3,))
    t = FakeNode("TBackward0", (acc_w,), scope="fc1")
    mm = FakeNode("AddmmBackward0", (acc_b, t), scope="fc1")
    out = FakeTensor((), FakeNode("SigmoidBackward0", (mm,)))
    graph = walk(out, {"fc1.weight": w, "fc1.bias": b, "loss": out})
    assert [c.name for c in graph.clusters] == ["fc1"]
    assert [n.title for n in graph.nodes if n.cluster == "fc1"] == [
        "AddmmBackward0",
        "fc1.bias",
        "AccumulateGrad",
        "TBackward0",
        "fc1.weight",
        "AccumulateGrad",
    ]
    small = collapse(graph, ["fc1"])
    assert [(n.id, n.kind, n.title) for n in small.nodes] == [
        ("n0", "output", "loss"),
        ("n1", "op", "SigmoidBackward0"),
        ("n2", "module", "fc1"),
    ]
    assert small.nodes[2].lines == ("6 nodes collapsed",)
    assert [(e.src, e.dst) for e in small.edges] == [("n1", "n0"), ("n2", "n1")]
    assert small.clusters == ()
    assert collapse(graph, ()) is graph


def test_forward_view_keeps_scope() -> None:
    _, acc = leaf()
    out = FakeTensor((2,), FakeNode("ReluBackward0", (acc,), scope="act"))
    graph = walk(out, view="forward")
    assert [(n.title, n.cluster) for n in graph.nodes] == [
        ("", "act"),
        ("Relu", "act"),
        ("(2,)", None),
    ]


def test_walk_rejects_bad_arguments(lib: ModuleType) -> None:
    x = lib.tensor([1.0], requires_grad=True)
    with pytest.raises(ValueError, match="view"):
        walk(x, view="sideways")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes tensors"):
        walk([x, 3])


def test_ten_thousand_node_chain_structure(mt: ModuleType) -> None:
    x = mt.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(10_000):
        y = y * 1.0
    graph = walk(y, {"x": x, "y": y})
    assert len(graph.nodes) == 10_003 and len(graph.edges) == 10_002
    assert graph.nodes[0].title == "y" and graph.nodes[-1].title == "AccumulateGrad"
    assert {n.title for n in graph.nodes[1:-2]} == {"MulBackward0"}
    forward = walk(y, view="forward")
    assert len(forward.nodes) == 20_001 and len(forward.edges) == 20_000


def test_hundred_thousand_node_chain_walks_without_recursion() -> None:
    x, y = chain(100_000)
    graph = walk(y, {"x": x})
    assert len(graph.nodes) == 100_003 and len(graph.edges) == 100_002
    assert graph.nodes[-2].title == "x" and graph.nodes[-1].id == "n100002"
    assert len(walk(y, view="forward").nodes) == 200_001


def test_hundred_thousand_op_microtorch_chain(mt: ModuleType) -> None:
    x = mt.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    graph = walk(y, {"x": x, "y": y})
    assert len(graph.nodes) == 100_003 and graph.nodes[-2].title == "x"

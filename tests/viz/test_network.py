"""The seed's two-layer network: parameter names, module clusters and collapsing."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest

from microtorch.viz import Cluster, collapse, text_graph, to_dot, walk

from .test_dot import HEAD_BT
from .test_parity import two_layer_network

# The network with raw tensors named like nn.Module parameters: the names alone make clusters.
RAW_NETWORK = (
    HEAD_BT
    + r"""  n0 [label="loss\n()" shape=box fillcolor="#E69F00" peripheries=2]
  n1 [label=MeanBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n2 [label=PowBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n3 [label=SubBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n4 [label=SigmoidBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n5 [label=AddBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n6 [label=MmBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n9 [label=SigmoidBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n12 [label=AddBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n13 [label=MmBackward0 shape=ellipse fillcolor="#FFFFFF"]
  subgraph cluster_c0 {
    label=fc2
    style=rounded
    n7 [label="fc2.bias\n(1,)" shape=box fillcolor="#56B4E9"]
    n8 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
    n10 [label="fc2.weight\n(8, 1)" shape=box fillcolor="#56B4E9"]
    n11 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
  }
  subgraph cluster_c1 {
    label=fc1
    style=rounded
    n14 [label="fc1.bias\n(8,)" shape=box fillcolor="#56B4E9"]
    n15 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
    n16 [label="fc1.weight\n(5, 8)" shape=box fillcolor="#56B4E9"]
    n17 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
  }
  n1 -> n0
  n2 -> n1
  n3 -> n2
  n4 -> n3
  n5 -> n4
  n7 -> n8
  n6 -> n5
  n8 -> n5
  n10 -> n11
  n9 -> n6
  n11 -> n6
  n12 -> n9
  n14 -> n15
  n13 -> n12
  n15 -> n12
  n16 -> n17
  n17 -> n13
}
"""
)

# The seed's TwoLayerNet built from nn.Linear: PyTorch's graph, parameters drawn as box3d.
NN_NETWORK = (
    HEAD_BT
    + r"""  n0 [label="loss\n()" shape=box fillcolor="#E69F00" peripheries=2]
  n1 [label=MeanBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n2 [label=PowBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n3 [label=SubBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n4 [label=SigmoidBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n5 [label=AddmmBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n8 [label=SigmoidBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n9 [label=TBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n10 [label=AddmmBackward0 shape=ellipse fillcolor="#FFFFFF"]
  n13 [label=TBackward0 shape=ellipse fillcolor="#FFFFFF"]
  subgraph cluster_c0 {
    label=fc2
    style=rounded
    n6 [label="fc2.bias\n(1,)" shape=box3d fillcolor="#009E73"]
    n7 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
    n16 [label="fc2.weight\n(1, 8)" shape=box3d fillcolor="#009E73"]
    n17 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
  }
  subgraph cluster_c1 {
    label=fc1
    style=rounded
    n11 [label="fc1.bias\n(8,)" shape=box3d fillcolor="#009E73"]
    n12 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
    n14 [label="fc1.weight\n(8, 5)" shape=box3d fillcolor="#009E73"]
    n15 [label=AccumulateGrad shape=hexagon fillcolor="#CC79A7"]
  }
  n1 -> n0
  n2 -> n1
  n3 -> n2
  n4 -> n3
  n5 -> n4
  n6 -> n7
  n7 -> n5
  n8 -> n5
  n9 -> n5
  n10 -> n8
  n11 -> n12
  n12 -> n10
  n13 -> n10
  n14 -> n15
  n15 -> n13
  n16 -> n17
  n17 -> n9
}
"""
)

NN_TEXT = """\
loss (MeanBackward0)
 ↑
PowBackward0
 ↑
SubBackward0
 ↑
SigmoidBackward0
 ↑
AddmmBackward0
├─↑ fc2.bias (AccumulateGrad)
├─↑ SigmoidBackward0
│    ↑
│   AddmmBackward0
│   ├─↑ fc1.bias (AccumulateGrad)
│   └─↑ TBackward0
│        ↑
│       fc1.weight (AccumulateGrad)
└─↑ TBackward0
     ↑
    fc2.weight (AccumulateGrad)"""


def test_golden_raw_network_clusters_by_name(mt: ModuleType) -> None:
    names = two_layer_network(mt)
    assert to_dot(walk(names["loss"], names)) == RAW_NETWORK
    small = collapse(walk(names["loss"], names), ["fc1", "fc2"])
    assert [n.title for n in small.nodes if n.kind == "module"] == ["fc2", "fc1"]
    assert len(small.nodes) == 18 - 8 + 2 and small.clusters == ()


def seed_network(lib: ModuleType) -> dict[str, Any]:
    """The seed's code, unchanged but for the batch size: works for torch and microtorch."""
    nn = pytest.importorskip(f"{lib.__name__}.nn", reason=f"{lib.__name__}.nn not written yet")
    if not all(hasattr(nn, name) for name in ("Module", "Linear")):
        pytest.skip(f"{lib.__name__}.nn.Module and Linear not written yet")

    class TwoLayerNet(nn.Module):  # type: ignore[name-defined,misc]
        def __init__(self, n_in: int, n_hidden: int, n_out: int) -> None:
            super().__init__()
            self.fc1 = nn.Linear(n_in, n_hidden)
            self.fc2 = nn.Linear(n_hidden, n_out)

        def forward(self, x: Any) -> Any:
            h = lib.sigmoid(self.fc1(x))
            return lib.sigmoid(self.fc2(h))

    lib.manual_seed(0)
    net = TwoLayerNet(5, 8, 1)
    x = lib.randn(4, 5)
    y_target = (x.sum(dim=1, keepdim=True) > 0).float()
    loss = ((net(x) - y_target) ** 2).mean()
    return {**dict(net.named_parameters()), "loss": loss}


def test_golden_nn_network(lib: ModuleType) -> None:
    names = seed_network(lib)
    graph = walk(names["loss"], names)
    assert text_graph(names["loss"], names=names) == NN_TEXT
    if lib.__name__ == "torch":
        assert to_dot(graph) == NN_NETWORK  # PyTorch records no module scopes
        return
    # microtorch also records which module's forward made each op: they join its cluster
    for module, ids in {
        "fc2": ("n5", "n6", "n7", "n9", "n16", "n17"),
        "fc1": ("n10", "n11", "n12", "n13", "n14", "n15"),
    }.items():
        assert [graph.nodes[int(i[1:])].cluster for i in ids] == [module] * 6
    pytorch_like = replace(  # without the op scopes PyTorch does not record, it is PyTorch's
        graph,
        nodes=tuple(replace(n, cluster=None) if n.kind == "op" else n for n in graph.nodes),
        clusters=(Cluster("c0", "fc2"), Cluster("c1", "fc1")),
    )
    assert to_dot(pytorch_like) == NN_NETWORK
    small = collapse(graph, ["fc1", "fc2"])
    assert [(n.id, n.title) for n in small.nodes] == [
        ("n0", "loss"),
        ("n1", "MeanBackward0"),
        ("n2", "PowBackward0"),
        ("n3", "SubBackward0"),
        ("n4", "SigmoidBackward0"),
        ("n5", "fc2"),
        ("n8", "SigmoidBackward0"),
        ("n10", "fc1"),
    ]
    assert [(e.src, e.dst) for e in small.edges] == [
        ("n1", "n0"),
        ("n2", "n1"),
        ("n3", "n2"),
        ("n4", "n3"),
        ("n5", "n4"),
        ("n8", "n5"),
        ("n10", "n8"),
    ]

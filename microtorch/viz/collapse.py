"""Collapse a module's cluster to one box, so a model with hundreds of operations stays readable."""

from __future__ import annotations

from collections.abc import Iterable

from microtorch.viz.graph import Edge, Graph, Node

__all__ = ["collapse"]


def _owner(cluster: str | None, modules: tuple[str, ...]) -> str | None:
    """The collapsed module a cluster belongs to: itself or an enclosing module path."""
    if cluster is None:
        return None
    for module in modules:
        if cluster == module or cluster.startswith(module + "."):
            return module
    return None


def collapse(graph: Graph, modules: Iterable[str]) -> Graph:
    """Replace every node of each module in ``modules`` by one ``module`` node.

    The new node takes the id of the module's first node, other ids are unchanged, edges inside
    a module disappear and parallel edges into or out of it are merged.
    """
    wanted = tuple(modules)
    if not wanted:
        return graph
    members: dict[str, list[Node]] = {}
    for node in graph.nodes:
        owner = _owner(node.cluster, wanted)
        if owner is not None:
            members.setdefault(owner, []).append(node)
    rename = {n.id: group[0].id for group in members.values() for n in group}
    nodes, sources = [], []
    for node, source in zip(graph.nodes, graph.sources or [None] * len(graph.nodes), strict=True):
        owner = _owner(node.cluster, wanted)
        if owner is None:
            nodes.append(node)
            sources.append(source)
        elif rename[node.id] == node.id:  # the first member stands for the whole module
            count = len(members[owner])
            nodes.append(Node(node.id, "module", owner, (f"{count} nodes collapsed",), owner))
            sources.append(None)
    edges: list[Edge] = []
    seen: set[tuple[str, str, str]] = set()
    for edge in graph.edges:
        src, dst = rename.get(edge.src, edge.src), rename.get(edge.dst, edge.dst)
        key = (src, dst, edge.kind)
        merged = src in rename or dst in rename
        if src == dst or (merged and key in seen):
            continue  # inside one module, or the same arrow again after merging
        seen.add(key)
        edges.append(Edge(edge.id, src, dst, edge.kind))
    clusters = tuple(c for c in graph.clusters if _owner(c.name, wanted) is None)
    outputs = tuple(dict.fromkeys(rename.get(o, o) for o in graph.outputs))
    return Graph(graph.view, tuple(nodes), tuple(edges), clusters, outputs, tuple(sources))

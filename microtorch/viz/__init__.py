"""Draw computation graphs: ``draw(loss)`` in a notebook, ``text_graph(loss)`` anywhere.

``walk`` turns tensors into plain graph data, ``to_dot`` turns that into DOT text, ``render`` runs
Graphviz (system ``dot`` or the pip ``graphviz-pure``) and ``text_graph`` needs no Graphviz.
"""

from microtorch.viz.collapse import collapse
from microtorch.viz.dot import to_dot
from microtorch.viz.draw import Drawing, draw
from microtorch.viz.graph import Cluster, Edge, Graph, Node, walk
from microtorch.viz.highlight import Highlight
from microtorch.viz.render import GraphvizNotFoundError, RenderError, render
from microtorch.viz.style import Style, styles
from microtorch.viz.text import text_graph

__all__ = [
    "Cluster",
    "Drawing",
    "Edge",
    "Graph",
    "GraphvizNotFoundError",
    "Highlight",
    "Node",
    "RenderError",
    "Style",
    "collapse",
    "draw",
    "render",
    "styles",
    "text_graph",
    "to_dot",
    "walk",
]

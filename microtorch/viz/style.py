"""Colours, node shapes and fonts: a default style and a "classroom" style for projectors.

Colours are the Okabe-Ito palette, which stays distinguishable with every common colour-vision
deficiency; every kind of node also has its own shape, so colour is never the only cue. The
legend says both in words ("green 3-D box: parameter"), under the drawing, where it costs no
width.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

__all__ = ["LEGEND", "NodeLook", "Style", "get_style", "styles"]

ORANGE, SKY_BLUE, GREEN, YELLOW = "#E69F00", "#56B4E9", "#009E73", "#F0E442"
BLUE, VERMILLION, PURPLE, GREY = "#0072B2", "#D55E00", "#CC79A7", "#999999"

# what each kind of node means, in the order the legend lists them
LEGEND = MappingProxyType(
    {
        "output": "output (e.g. the loss)",
        "param": "parameter",
        "leaf": "leaf tensor",
        "tensor": "intermediate tensor",
        "op": "operation",
        "recorded": "operation recorded by backward (create_graph=True)",
        "accumulate": "AccumulateGrad: adds into .grad",
        "saved": "saved for backward",
        "module": "collapsed module",
    }
)


@dataclass(frozen=True)
class NodeLook:
    """How one kind of node is drawn."""

    shape: str
    fill: str
    style: str = "filled"
    fontcolor: str = "#000000"
    peripheries: int = 1
    words: str = ""  # the look in words, for the legend: "green 3-D box"


_LIGHT_LOOKS = MappingProxyType(
    {
        "output": NodeLook("box", ORANGE, peripheries=2, words="orange double box"),
        "param": NodeLook("box3d", GREEN, words="green 3-D box"),
        "leaf": NodeLook("box", SKY_BLUE, words="blue box"),
        "tensor": NodeLook("box", "#EEEEEE", "filled,rounded", words="grey rounded box"),
        "op": NodeLook("ellipse", "#FFFFFF", words="ellipse"),
        "recorded": NodeLook("octagon", "#FFFFFF", words="octagon"),
        "accumulate": NodeLook("hexagon", PURPLE, words="purple hexagon"),
        "saved": NodeLook("note", YELLOW, words="yellow note"),
        "module": NodeLook("component", BLUE, fontcolor="#FFFFFF", words="dark blue component"),
    }
)


@dataclass(frozen=True)
class Style:
    """Fonts, line widths, background and per-kind looks; ``ink`` draws edges and outlines.

    ``nodesep`` and ``ranksep`` (inches, Graphviz's spacing between nodes and between rows) are
    kept small so that a model's graph fits a notebook cell at a readable size.
    """

    name: str
    fontname: str = "Helvetica"
    fontsize: float = 12
    penwidth: float = 1.0
    arrowsize: float = 0.8
    nodesep: float = 0.15
    ranksep: float = 0.3
    background: str = "#FFFFFF"
    ink: str = "#000000"
    looks: Mapping[str, NodeLook] = field(default_factory=lambda: _LIGHT_LOOKS, hash=False)
    current: str = VERMILLION  # the step being executed
    done: str = BLUE
    pending: str = GREY


_DEFAULT = Style("default")
_CLASSROOM = replace(_DEFAULT, name="classroom", fontsize=22, penwidth=2.5, arrowsize=1.4)
_DARK_LOOKS = MappingProxyType(
    {
        **_LIGHT_LOOKS,
        "tensor": NodeLook("box", "#444444", "filled,rounded", "#FFFFFF", words="dark rounded box"),
        "op": NodeLook("ellipse", "#222222", fontcolor="#FFFFFF", words="ellipse"),
        "recorded": NodeLook("octagon", "#222222", fontcolor="#FFFFFF", words="octagon"),
    }
)
_CLASSROOM_DARK = replace(
    _CLASSROOM,
    name="classroom-dark",
    background="#111111",
    ink="#FFFFFF",
    looks=_DARK_LOOKS,
    pending="#BBBBBB",
)

styles: Mapping[str, Style] = MappingProxyType(
    {s.name: s for s in (_DEFAULT, _CLASSROOM, _CLASSROOM_DARK)}
)


def get_style(style: str | Style) -> Style:
    """A ``Style`` by name ("default", "classroom", "classroom-dark") or the one given."""
    if isinstance(style, Style):
        return style
    try:
        return styles[style]
    except KeyError:
        raise ValueError(f"unknown style {style!r}; choose one of {sorted(styles)}") from None

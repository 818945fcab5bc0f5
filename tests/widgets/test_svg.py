"""StyledSVG: one layout, every node and edge found once, only classes and labels change."""

from __future__ import annotations

import re

from microtorch.viz import Highlight, walk
from microtorch.widgets._svg import StyledSVG, svg_css
from microtorch.widgets.replay import BackwardReplay

from .conftest import network, squared

_STATE = re.compile(r' mt-(?:current|done|pending)(?=")')
_LABELS = re.compile(r'<g class="mt-labels">.*?</g>', re.DOTALL)


def layout_only(svg: str) -> str:
    return _LABELS.sub("", _STATE.sub("", svg))


def test_every_node_and_edge_is_addressable() -> None:
    built = network()
    graph = walk(built["loss"], {k: v for k, v in built.items() if k != "leaves"})
    picture = StyledSVG(graph)
    assert sorted(picture.ids) == sorted([n.id for n in graph.nodes] + [e.id for e in graph.edges])
    svg = picture.svg(Highlight())
    for node in graph.nodes:
        assert svg.count(f'data-mt="{node.id}"') == 1


def test_parallel_edges_get_their_own_ids() -> None:
    built = squared()
    graph = walk(built["loss"], {"x": built["x"], "loss": built["loss"]})
    mul = graph.node_id(built["loss"].grad_fn.next_functions[0][0])
    doubled = [e.id for e in graph.edges if e.dst == mul]
    picture = StyledSVG(graph)
    svg = picture.svg(Highlight(current=set(doubled[:1])))
    assert len(doubled) == 2
    assert f'class="edge mt-current" data-mt="{doubled[0]}"' in svg
    assert f'class="edge" data-mt="{doubled[1]}"' in svg


def test_steps_change_styles_not_layout() -> None:
    built = network()
    replay = BackwardReplay(built["loss"], {"loss": built["loss"]})
    picture = StyledSVG(replay.graph)
    replay.run_to(replay.total)
    frames = [picture.svg(replay.highlight(p)) for p in range(replay.total + 1)]
    assert len(set(frames)) == len(frames)  # every step looks different
    assert len({layout_only(f) for f in frames}) == 1  # but nothing moved
    assert frames[0].startswith("<svg ") and frames[0].rstrip().endswith("</svg>")


def test_labels_are_placed_and_escaped() -> None:
    built = squared()
    graph = walk(built["loss"], {"loss": built["loss"]})
    picture = StyledSVG(graph)
    svg = picture.svg(Highlight(current={"n1"}, labels={"e0": "a<b", "n1": "x"}))
    assert 'data-for="e0">a&lt;b</text>' in svg
    assert 'class="mt-label mt-current"' in svg


def test_css_uses_the_viz_style_colours() -> None:
    css = svg_css("default")
    assert "#D55E00" in css and "#0072B2" in css and "stroke-dasharray: 5,3" in css


def test_gradient_labels_never_overlap() -> None:
    # x * x: two arrows from x's AccumulateGrad to MulBackward0, side by side, both labelled
    import re

    import microtorch as torch
    from microtorch.widgets import BackwardStepper

    x = torch.tensor([1.5, -2.0], requires_grad=True)
    loss = (x * x).sum()
    stepper = BackwardStepper(loss, {"x": x, "loss": loss})
    for position in range(stepper.replay.total + 1):
        stepper.go(position)
        label = r'<text class="mt-label[^"]*" x="([\d.-]+)" y="([\d.-]+)"[^>]*>([^<]*)<'
        labels = re.findall(label, stepper._static_picture())
        boxes = [(float(x0), float(y0), 6.5 * len(text)) for x0, y0, text in labels]
        for i, (x1, y1, w1) in enumerate(boxes):
            for x2, y2, w2 in boxes[i + 1 :]:
                overlap = abs(y1 - y2) < 13 and x1 < x2 + w2 and x2 < x1 + w1
                assert not overlap, f"step {position}: labels at {(x1, y1)} and {(x2, y2)} overlap"

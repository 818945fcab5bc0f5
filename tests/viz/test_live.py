"""GraphView from Python: the data sent for each node, the static fallback, the offline page."""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget", reason="pip install anywidget to test microtorch.viz.live")

import microtorch as torch  # noqa: E402
from microtorch.viz import Highlight, draw, text_graph, to_dot, walk  # noqa: E402
from microtorch.viz.live import GraphView  # noqa: E402
from microtorch.viz.node_info import FREED, all_node_info  # noqa: E402
from microtorch.viz.page import bundle, bundle_key, page_html, view_state  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def seed_demo() -> dict[str, Any]:
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x[0] + x[1]) * x[0]
    return {"x": x, "y": y}


def by_title(nodes: dict[str, Any], title: str) -> dict[str, Any]:
    (found,) = [info for info in nodes.values() if info["title"] == title]
    return found


def rows(info: dict[str, Any], heading: str) -> dict[str, str]:
    (section,) = [s for s in info["sections"] if s["heading"].startswith(heading)]
    return dict(section.get("rows", []))


def test_every_node_gets_its_data_in_graph_order() -> None:
    names = seed_demo()
    graph = walk(names["y"], names)
    nodes = all_node_info(graph)
    assert list(nodes) == [n.id for n in graph.nodes]
    assert [nodes[n.id]["kind"] for n in graph.nodes] == [n.kind for n in graph.nodes]
    assert all(info["label"].startswith(info["title"]) for info in nodes.values())
    json.dumps(nodes)  # JSON-ready: what the widget syncs


def test_an_op_shows_what_it_saved_then_that_backward_freed_it() -> None:
    names = seed_demo()
    graph = walk(names["y"], names)
    mul = by_title(all_node_info(graph), "MulBackward0")
    inputs = rows(mul, "next_functions")
    assert inputs == {"input 0": "AddBackward0", "input 1": "SelectBackward0"}
    saved = rows(mul, "saved for backward")
    # Mul saved its two inputs, the second first: x[0] = 2, then x[0] + x[1] = 5
    assert saved["saved[0] values"] == "2" and saved["saved[1] values"] == "5"
    assert saved["saved[0] shape"] == "()" and saved["saved[0] dtype"] == "float32"
    names["y"].backward()
    mul = by_title(all_node_info(graph), "MulBackward0")
    (section,) = [s for s in mul["sections"] if s["heading"].startswith("saved for backward")]
    assert section["freed"] is True and section["note"] == FREED


def test_accumulate_grad_shows_its_variable_and_grad() -> None:
    names = seed_demo()
    graph = walk(names["y"], names)
    before = rows(by_title(all_node_info(graph), "AccumulateGrad"), "AccumulateGrad.variable")
    assert before == {"shape": "(2,)", "dtype": "float32", "values": "[2, 3]", ".grad": "None"}
    names["y"].backward()
    nodes = all_node_info(graph)
    after = rows(by_title(nodes, "AccumulateGrad"), "AccumulateGrad.variable")
    assert after[".grad"] == "[7, 2]"
    assert rows(by_title(nodes, "x"), "tensor")[".grad"] == "[7, 2]"  # the leaf box too
    assert rows(by_title(nodes, "y"), "tensor")["grad_fn"] == "MulBackward0"


def test_large_values_are_summarised() -> None:
    w = torch.ones(10, 10, requires_grad=True)
    loss = (w * 2).sum()
    info = by_title(all_node_info(walk(loss, {"w": w})), "w")
    assert rows(info, "tensor")["values"] == "min 1 max 1 mean 1"


def test_widget_state_holds_dot_edges_and_nodes_but_not_the_renderer() -> None:
    names = seed_demo()
    graph = walk(names["y"], names)
    view = GraphView(graph, description=text_graph(names["y"], names=names))
    assert view.dot == to_dot(graph)
    assert view.edges == [[e.id, e.src, e.dst] for e in graph.edges]
    assert view.nodes == all_node_info(graph)
    assert view.description.startswith("y (MulBackward0)")
    assert set(view.palette["states"]) == {"current", "done", "pending"}
    # the ~0.8 MB renderer is fetched once per page, never stored in the widget's state
    assert len(view._esm) < 3000 and bundle_key() in view._esm
    assert len(bundle()) > 500_000 and bundle().count(b"WebAssembly") > 0
    view.show(Highlight(current={"n1"}, done={"n0"}, labels={"e0": "1"}))
    assert view.highlight == {"states": {"n0": "done", "n1": "current"}, "labels": {"e0": "1"}}


def test_the_kernel_sends_the_bundle_when_the_page_asks() -> None:
    names = seed_demo()
    view = GraphView(walk(names["y"], names))
    sent: list[tuple[Any, Any]] = []
    view.send = lambda content, buffers=None: sent.append((content, buffers))  # type: ignore[method-assign]
    view._on_message(view, {"type": "something else"}, [])
    assert sent == []
    view._on_message(view, {"type": "microtorch-graphview-bundle?"}, [])
    assert sent == [({"type": "microtorch-graphview-bundle"}, [bundle()])]


def test_draw_in_a_kernel_shows_the_view_with_the_static_form_in_one_output(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = seed_demo()
    drawing = draw(names["y"], names=names)
    monkeypatch.setattr(sys.modules["microtorch.viz.draw"], "live_wanted", lambda: True)
    data, _metadata = drawing._repr_mimebundle_()
    assert data[WIDGET_VIEW]["model_id"] == drawing.live().model_id
    static = drawing.static_bundle()
    assert data["text/plain"] == static["text/plain"]
    assert data.get("image/svg+xml") == static.get("image/svg+xml")  # SVG where Graphviz is
    assert drawing.live() is drawing.live()  # one view per drawing
    assert drawing.source == to_dot(walk(names["y"], names), legend=True)  # unchanged


def test_outside_a_kernel_draw_is_the_static_picture() -> None:
    names = seed_demo()
    bundle_ = draw(names["y"], names=names)._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle_ and bundle_["text/plain"].startswith("y (MulBackward0)")


def test_without_graphviz_the_fallback_is_the_text_drawing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(sys, "executable", "/nonexistent/bin/python")
    monkeypatch.setattr(sys.modules["microtorch.viz.draw"], "live_wanted", lambda: True)
    names = seed_demo()
    data, _ = draw(names["y"], names=names)._repr_mimebundle_()
    assert WIDGET_VIEW in data and "image/svg+xml" not in data  # the browser still draws it
    assert data["text/plain"].startswith("y (MulBackward0)") and "graphviz" in data["text/plain"]


def _page_data(text: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="mt-data">(.*?)</script>', text, re.S)
    assert found
    return json.loads(found.group(1))


def test_save_html_is_one_offline_file(tmp_path: Path) -> None:
    names = seed_demo()
    drawing = draw(names["y"], names=names)
    path = drawing.save_html(tmp_path / "graph.html")
    text = path.read_text(encoding="utf-8")
    assert "default-src 'none'" in text  # the page may fetch nothing from anywhere
    assert not re.search(r"""(src|href)=["']?https?:""", text)
    embedded = re.search(r'id="mt-bundle">([A-Za-z0-9+/=]+)</script>', text)
    assert embedded and base64.b64decode(embedded.group(1)) == bundle()
    data = _page_data(text)
    assert data["view"]["dot"] == drawing.source and data["frames"] == []
    assert data["view"] == view_state(drawing.graph, drawing.source, description=drawing.text)


def test_page_data_cannot_close_its_script_early() -> None:
    names = seed_demo()
    state = view_state(walk(names["y"], names), description="</script><b>")
    text = page_html(state, title="t")
    assert "</script><b>" not in text
    assert _page_data(text)["view"]["description"] == "</script><b>"


def test_a_view_saves_itself_as_it_is(tmp_path: Path) -> None:
    names = seed_demo()
    view = GraphView(walk(names["y"], names))
    view.show(Highlight(current={"n1"}))
    data = _page_data(view.save_html(tmp_path / "view.html").read_text(encoding="utf-8"))
    assert data["view"] == view.state() and data["view"]["highlight"]["states"] == {"n1": "current"}

"""AccumulationExplorer: the seed's [0.20, 0.15] -> [0.40, 0.30], and both kinds of zero_grad."""

from __future__ import annotations

from typing import Any

import microtorch as torch
from microtorch.optim import SGD
from microtorch.widgets import AccumulationExplorer


def test_backward_twice_doubles_the_seed_gradient() -> None:
    explorer = AccumulationExplorer.seed_example()
    assert explorer.weight.grad is None
    assert "None" in explorer.grad_view.value
    explorer.backward_button.click()
    assert repr(explorer.weight.grad) == "tensor([[0.2000, 0.1500]])"
    explorer.backward_button.click()
    assert repr(explorer.weight.grad) == "tensor([[0.4000, 0.3000]])"
    assert "tensor([[0.4000, 0.3000]])" in explorer.grad_view.value
    assert "tensor([[ 0.5200, -0.1800]])" in explorer.weight_view.value  # backward never moves it


def test_zero_grad_sets_to_none() -> None:
    explorer = AccumulationExplorer.seed_example()
    explorer.backward()
    explorer.zero_grad_button.click()
    assert explorer.weight.grad is None
    assert explorer.history[-1] == ("optimizer.zero_grad(set_to_none=True)", "None")


def test_zero_grad_with_set_to_none_false_writes_zeros() -> None:
    explorer = AccumulationExplorer.seed_example()
    explorer.backward()
    grad = explorer.weight.grad
    explorer.set_to_none.value = False
    assert explorer.set_to_none.description == "set_to_none=False"
    explorer.zero_grad_button.click()
    assert explorer.weight.grad is grad  # the same tensor, zeroed in place
    assert explorer.weight.grad.tolist() == [[0.0, 0.0]]
    explorer.backward()
    assert repr(explorer.weight.grad) == "tensor([[0.2000, 0.1500]])"


def test_history_is_the_static_form() -> None:
    explorer = AccumulationExplorer.seed_example()
    for press in (explorer.backward, explorer.backward, explorer.zero_grad):
        press()
    text = repr(explorer.static()).splitlines()
    assert text[0].split() == ["call", "weight.grad", "after", "it"]
    assert [line.split("  ")[0] for line in text[2:]] == [
        "start",
        "loss.backward()",
        "loss.backward()",
        "optimizer.zero_grad(set_to_none=True)",
    ]
    assert "tensor([[0.4000, 0.3000]])" in text[4]
    assert "<table" in explorer.static()._repr_html_()
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/plain"] == "AccumulationExplorer(weight.grad = None)"
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_errors_in_loss_fn_land_in_the_output() -> None:
    weight = torch.tensor([[1.0, 2.0]], requires_grad=True)

    def broken_loss() -> torch.Tensor:
        return weight @ torch.ones(3, 1)  # (1, 2) @ (3, 1): shapes do not match

    explorer = AccumulationExplorer(weight, broken_loss, SGD([weight], lr=0.1))
    explorer.backward_button.click()
    (error,) = explorer.output.outputs
    assert "shapes cannot be multiplied" in error["text"]
    assert explorer.weight.grad is None and len(explorer.history) == 1


def test_the_graph_panel_shows_what_each_press_left() -> None:
    explorer = AccumulationExplorer.seed_example()
    view = explorer.graph_view
    layout = view.dot

    def weight_grad() -> str:
        (info,) = [i for i in view.nodes.values() if i["title"] == "weight"]
        return dict(info["sections"][0]["rows"])[".grad"]

    def mul_saved() -> dict[str, Any]:
        (info,) = [i for i in view.nodes.values() if i["title"] == "MulBackward0"]
        return info["sections"][-1]

    assert weight_grad() == "None" and "rows" in mul_saved() and mul_saved()["rows"]
    explorer.backward()
    assert weight_grad() == "[[0.2, 0.15]]"
    assert mul_saved().get("freed") is True  # this loss's backward freed what Mul saved
    explorer.backward()
    assert weight_grad() == "[[0.4, 0.3]]" and view.dot == layout  # one layout for every press
    leaf = view.graph.node_id(explorer.weight)
    assert view.highlight["states"][leaf] == "current"
    explorer.zero_grad()
    assert weight_grad() == "None"

"""BackwardStepper driven from Python: every step shown is the one the real engine recorded."""

from __future__ import annotations

import html
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import microtorch as torch
from microtorch.autograd import iter_backward
from microtorch.viz import walk
from microtorch.widgets import BackwardStepper
from microtorch.widgets._panel import value_text

from .conftest import seed_demo, squared


def names(built: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in built.items() if k not in ("leaves", "output")}


def set_names(built: dict[str, Any]) -> set[str]:
    """The names of the leaves whose .grad the engine has filled so far."""
    leaves = {id(leaf) for leaf in built["leaves"]}
    return {k for k, v in names(built).items() if id(v) in leaves and v.grad is not None}


def unset_names(built: dict[str, Any]) -> set[str]:
    leaves = {id(leaf) for leaf in built["leaves"]}
    return {k for k, v in names(built).items() if id(v) in leaves and v.grad is None}


def leaves_named(status: str, *labels: str) -> set[str]:
    """The comma-separated names after one of ``labels`` in a status line (up to ; or ))."""
    for label in labels:
        found = re.search(re.escape(label) + r" ([^;)<]*)", status)
        if found:
            return set(found.group(1).split(", "))
    return set()


def recorded(build: Any) -> tuple[Any, list[Any], dict[str, Any]]:
    """A twin graph's own walk and steps, from an independent real backward pass."""
    built = build()
    graph = walk(built["output"], names(built))
    return graph, list(iter_backward(built["output"])), built


def current_in_svg(stepper: BackwardStepper) -> set[str]:
    """The current nodes in both pictures: the live view's classes and the static SVG's."""
    states = stepper.graph_view.highlight["states"]
    live = {i for i, state in states.items() if state == "current" and i.startswith("n")}
    static = set(re.findall(r'class="node mt-current" data-mt="(\w+)"', stepper.frame_html()))
    assert live == static
    return live


def test_each_step_matches_the_engine(program: Any) -> None:
    graph, steps, _ = recorded(program)
    built = program()
    stepper = BackwardStepper(built["output"], names(built))
    assert stepper.current_step is None
    assert stepper.replay.total == len(steps)
    for k, ref in enumerate(steps, start=1):
        stepper.next()
        step = stepper.current_step
        assert (stepper.position, step.index, step.name) == (k, ref.index, ref.name)
        node_id = graph.node_id(ref.node)
        assert node_id in stepper.highlight.current
        assert node_id in current_in_svg(stepper)
        panel = stepper.panel.value
        assert f"Step {k} of {len(steps)}: {ref.name}" in panel
        sent = [g for (child, _), g in zip(ref.node.next_functions, ref.grad_inputs) if child]
        for grad in [*ref.grad_outputs, *sent]:
            assert html.escape(value_text(grad)) in panel
        if ref.variable is not None:
            assert html.escape(value_text(ref.grad_after)) in panel
        else:
            assert html.escape(ref.formula.split("``")[0]) in panel


def test_highlighted_node_changes_every_step(program: Any) -> None:
    built = program()
    stepper = BackwardStepper(built["output"], names(built))
    seen = [current_in_svg(stepper)]
    while not stepper.next_button.disabled:
        stepper.next_button.click()
        assert current_in_svg(stepper) != seen[-1]
        seen.append(current_in_svg(stepper))
    assert len(seen) == stepper.replay.total + 1


def test_grad_fills_as_the_student_steps(program: Any) -> None:
    _, steps, _ = recorded(program)
    built = program()
    stepper = BackwardStepper(built["output"], names(built))
    assert all(leaf.grad is None for leaf in built["leaves"])
    assert "0 of" in stepper.status.value and "untouched" in stepper.status.value
    filled: dict[int, np.ndarray] = {}
    for k, ref in enumerate(steps, start=1):
        stepper.next()
        if ref.variable is not None:
            filled[len(filled)] = ref.grad_after.numpy()
        grads = [leaf.grad for leaf in built["leaves"] if leaf.grad is not None]
        assert len(grads) == len(filled)  # exactly the leaves reached so far
        if k < len(steps):
            status = html.unescape(stepper.status.value)
            assert f"{k} of {len(steps)} steps run: " in status
            assert leaves_named(status, "received by") == set_names(built)
            assert leaves_named(status, "waiting:", "not yet by") == unset_names(built)
    assert "backward complete: .grad is as after" in stepper.status.value


def test_last_leaves_grads_as_plain_backward(program: Any) -> None:
    reference = program()
    reference["output"].backward()
    built = program()
    stepper = BackwardStepper(built["output"], names(built))
    stepper.last_button.click()
    assert stepper.replay.finished and stepper.next_button.disabled
    for ours, theirs in zip(built["leaves"], reference["leaves"]):
        np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())


def test_going_back_only_replays() -> None:
    built = seed_demo()
    stepper = BackwardStepper(built["y"], names(built))
    stepper.last()
    grad = built["x"].grad.numpy().copy()
    stepper.prev()
    stepper.prev()
    assert stepper.position == stepper.replay.total - 2
    assert len(stepper.replay.steps) == stepper.replay.total  # nothing re-run, nothing undone
    np.testing.assert_array_equal(built["x"].grad.numpy(), grad)
    assert "going back only re-displays recorded steps" in stepper.status.value
    stepper.first_button.click()
    assert stepper.position == 0 and stepper.prev_button.disabled
    assert "Before backward" in stepper.panel.value
    stepper.next()  # forward again over recorded steps: no second accumulation
    np.testing.assert_array_equal(built["x"].grad.numpy(), grad)


def test_reused_value_shows_every_arrival_summed() -> None:
    built = seed_demo()
    stepper = BackwardStepper(built["y"], names(built))
    stepper.last()
    step = stepper.current_step
    assert step.name == "AccumulateGrad"
    arrivals = stepper.replay.arrivals(step)
    assert [a.sender for a in arrivals] == ["SelectBackward0"] * 3
    assert [a.grad.tolist() for a in arrivals] == [[5.0, 0.0], [0.0, 2.0], [2.0, 0.0]]
    assert step.grad_outputs[0].tolist() == [7.0, 2.0]  # the engine's sum, shown as is
    panel = stepper.panel.value
    assert "used 3 times in the forward pass" in panel
    assert panel.index("tensor([5., 0.])") < panel.index("sum:") < panel.index("tensor([7., 2.])")


def test_one_op_using_a_value_twice_labels_both_arrows() -> None:
    built = squared()
    stepper = BackwardStepper(built["loss"], names(built))
    stepper.go(2)
    assert stepper.current_step.name == "MulBackward0"
    edges = [e for e in stepper.replay.input_edges(stepper.current_step) if e]
    assert len(set(edges)) == 2
    labels = stepper.highlight.labels
    assert [labels[e] for e in edges] == ["[1.5, -2]", "[1.5, -2]"]
    for edge in edges:
        assert stepper.graph_view.highlight["labels"][edge] == "[1.5, -2]"
        assert f'data-for="{edge}">[1.5, -2]</text>' in stepper.frame_html()
    stepper.next()
    assert "used 2 times" in stepper.panel.value
    assert built["x"].grad.tolist() == [3.0, -4.0]


def test_slider_and_play_drive_the_same_position() -> None:
    built = seed_demo()
    stepper = BackwardStepper(built["y"], names(built))
    stepper.slider.value = 4
    assert stepper.position == 4 and len(stepper.replay.steps) == 4
    stepper.play.value = 2
    assert stepper.position == 2 and stepper.slider.value == 2
    stepper.speed.value = 4.0
    assert stepper.play.interval == 250


def test_errors_in_callbacks_land_in_the_output() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    stepper = BackwardStepper(loss, {"x": x, "loss": loss})
    loss.backward()  # frees what MulBackward0 saved: the stepper's engine will fail there
    assert stepper.output in stepper.widget.children
    stepper.next_button.click()  # SumBackward0 saved nothing: runs
    stepper.next_button.click()
    (error,) = stepper.output.outputs
    assert error["name"] == "stderr"
    assert "Trying to backward through the graph a second time" in error["text"]
    assert "stopped by an error after 1 steps" in stepper.status.value
    assert stepper.next_button.disabled


def test_static_form_is_deterministic_and_narrow() -> None:
    built = seed_demo()
    stepper = BackwardStepper(built["y"], names(built))
    view = stepper.static()
    assert built["x"].grad.tolist() == [7.0, 2.0]  # static() ran the whole pass, as it says
    text = repr(view)
    assert text.splitlines()[0] == "6 steps of y.backward()"
    assert text.splitlines()[-3:] == [
        "step 6: AccumulateGrad",
        "  arriving:    tensor([7., 2.])",
        "  .grad after: tensor([7., 2.])",
    ]
    assert text.splitlines()[3:6] == [  # MulBackward0 sends one gradient to each input
        "  arriving:    tensor(1.)",
        "  sent:        tensor(2.)",
        "               tensor(5.)",
    ]
    again = BackwardStepper(*(lambda b: (b["y"], names(b)))(seed_demo())).static()
    assert repr(again) == text and "0x" not in text
    assert "<table" in view._repr_html_() and 'data-mt="n0"' in view._repr_html_()
    frames = BackwardStepper(*(lambda b: (b["y"], names(b)))(seed_demo())).static(frames=True)
    assert frames._repr_html_().count("<svg") == 7  # the start and six steps


def test_display_bundle() -> None:
    built = seed_demo()
    stepper = BackwardStepper(built["y"], names(built))
    bundle = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("BackwardStepper: step 0 of 6 of y.backward()")
    assert "0x" not in bundle["text/plain"] and "<svg" in bundle["text/html"]


def test_without_graphviz_the_text_drawing_is_shown() -> None:
    built = seed_demo()
    stepper = BackwardStepper(built["y"], names(built), renderer="no-such-graphviz")
    assert stepper.picture is None
    static = stepper.frame_html()
    assert "MulBackward0" in static and "Graphviz" in static
    assert "MulBackward0" in stepper.graph_view.dot  # the live view needs no kernel Graphviz
    stepper.next()
    assert stepper.current_step.name == "MulBackward0"


def test_non_scalar_output_with_gradient() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    stepper = BackwardStepper(y, {"x": x, "y": y}, gradient=torch.tensor([1.0, 10.0]))
    assert "[1, 10]" in stepper.highlight.labels.values()
    stepper.last()
    assert x.grad.tolist() == [3.0, 30.0]


def test_importing_microtorch_never_imports_widgets() -> None:
    code = (
        "import sys, microtorch; "
        "bad = [m for m in ('microtorch.widgets', 'ipywidgets', 'matplotlib') "
        "if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_one_step_on_a_100_node_graph_is_fast() -> None:
    bench = runpy.run_path(str(Path(__file__).parents[2] / "benchmarks" / "widgets_bench.py"))
    result = bench["bench_stepper"](100)
    assert result["nodes"] >= 100
    assert result["median_ms"] < 50, result  # the budget for one step


def test_an_output_without_grad_fails_at_once_with_the_engines_message() -> None:
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        BackwardStepper(torch.tensor([1.0]).sum())
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        BackwardStepper(x * 2)


def test_in_place_graphs_show_short_names() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    b[0] = 10.0  # records CopySlices, whose name() is "torch::autograd::CopySlices"
    loss = (b * b).sum()
    stepper = BackwardStepper(loss, {"a": a, "loss": loss})
    stepper.go(3)
    assert "Step 3 of 5: CopySlices</h3>" in stepper.panel.value
    text = repr(stepper.static())
    block = text[text.index("step 3: CopySlices") :].split("\n\n")[0].splitlines()
    assert block[-1].split() == ["not", "needed"]  # the constant 1 needs no gradient
    assert a.grad.tolist() == [0.0, 4.0]


def test_static_text_stays_narrow_for_matrices(program) -> None:
    # a 2-D gradient once made one 400-character table row (chapter 04's language model)
    built = program()
    stepper = BackwardStepper(built["output"], {k: v for k, v in built.items() if k != "leaves"})
    lines = repr(stepper.static()).splitlines()
    assert max(len(line) for line in lines) <= 100, max(lines, key=len)


def test_importing_the_stepper_does_not_import_matplotlib() -> None:
    # matplotlib took most of the ~3 s of the first widget cell: only the plotting widget needs it
    code = (
        "import sys; from microtorch.widgets import BackwardStepper, GraphView; "
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_saved_page_statuses_name_the_leaves_filled_at_each_step(tmp_path: Path) -> None:
    import json

    from .conftest import network

    twin = network()  # an independent run: which leaf each AccumulateGrad step fills
    by_leaf = {
        id(v): k for k, v in names(twin).items() if any(v is leaf for leaf in twin["leaves"])
    }
    steps = list(iter_backward(twin["output"]))
    built = network()
    stepper = BackwardStepper(built["output"], names(built))
    page = stepper.save_html(tmp_path / "steps.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="mt-data">(.*?)</script>', page).group(1))
    statuses = [frame["status"] for frame in data["frames"]]
    assert statuses[0].startswith(f"0 of {len(steps)} steps run")
    filled: set[str] = set()
    for k, (status, step) in enumerate(zip(statuses[1:], steps), start=1):
        if step.variable is not None:
            filled.add(by_leaf[id(step.variable)])
        if k < len(steps):
            assert leaves_named(status, "received by") == filled, (k, status)
            assert leaves_named(status, "waiting:", "not yet by") == set(by_leaf.values()) - filled
    assert len(filled) > 0 and statuses[-1].startswith("backward complete")


def test_save_html_says_in_the_widget_that_it_ran_backward(tmp_path: Path) -> None:
    built = seed_demo()
    stepper = BackwardStepper(built["y"], names(built))
    stepper.next()
    stepper.save_html(tmp_path / "steps.html")
    assert built["x"].grad.tolist() == [7.0, 2.0]  # the real pass ran, as the docstring says
    assert "save_html ran the last 5 steps of y.backward()" in stepper.status.value
    assert "runs the rest of the backward" in " ".join(
        (BackwardStepper.save_html.__doc__ or "").split()
    )
    again = BackwardStepper(*(lambda b: (b["y"], names(b)))(seed_demo()))
    again.last()
    again.save_html(tmp_path / "again.html")  # nothing left to run: nothing to say
    assert "save_html" not in again.status.value

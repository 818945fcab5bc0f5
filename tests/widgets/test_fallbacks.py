"""Each widget's output carries its own static form: JupyterLab shows the widget once, GitHub,
nbviewer and nbval the fixed HTML beside it; making that HTML never runs or trains anything."""

from __future__ import annotations

from microtorch.widgets import AccumulationExplorer, BackwardStepper, TrainingLoopExplorer

from .conftest import seed_demo

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_stepper_output_holds_the_current_step_and_runs_nothing() -> None:
    built = seed_demo()
    stepper = BackwardStepper(built["y"], {"x": built["x"], "y": built["y"]})
    bundle = stepper._repr_mimebundle_()
    assert WIDGET_VIEW in bundle
    assert "<svg" in bundle["text/html"] or "<pre>" in bundle["text/html"]
    assert "0 of 6 steps run" in bundle["text/html"] and "Before backward" in bundle["text/html"]
    assert stepper.replay.steps == [] and built["x"].grad is None  # still all to click
    assert not stepper.next_button.disabled
    stepper.go(2)
    assert "Step 2 of 6: SelectBackward0" in stepper._repr_mimebundle_()["text/html"]


def test_accumulation_output_holds_the_table_static_shows() -> None:
    explorer = AccumulationExplorer.seed_example()
    explorer.backward()
    bundle = explorer._repr_mimebundle_()
    assert WIDGET_VIEW in bundle
    assert explorer.static()._repr_html_() in bundle["text/html"]


def test_training_output_holds_the_table_and_figure_without_training() -> None:
    explorer = TrainingLoopExplorer(steps=3, plot_every=10)
    untrained = explorer._repr_mimebundle_()
    assert explorer.losses == {}  # showing it trained nothing
    assert (
        WIDGET_VIEW in untrained
        and '<svg xmlns="http://www.w3.org/2000/svg" class="mt-chart"' in untrained["text/html"]
    )
    explorer.train(zero_grad=True)
    explorer.train(zero_grad=False)
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/html"] == explorer.static()._repr_html_()  # the same as .static()

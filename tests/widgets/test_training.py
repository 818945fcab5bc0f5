"""TrainingLoopExplorer: the zero_grad checkbox runs the seed's two loops, exactly."""

from __future__ import annotations

import re

import numpy as np
import pytest

import microtorch as torch
from microtorch.optim import SGD
from microtorch.widgets import TrainingLoopExplorer, TwoLayerNet
from microtorch.widgets._chart import nice_ticks


def seed_loop(call_zero_grad: bool, steps: int) -> list[float]:
    """The seed chapter's loop, written out as a student would."""
    torch.manual_seed(0)
    net = TwoLayerNet(5, 8, 1)
    X = torch.randn(200, 5)
    y_target = (X.sum(dim=1, keepdim=True) > 0).float()
    torch.manual_seed(0)
    net = TwoLayerNet(5, 8, 1)
    optimizer = SGD(net.parameters(), lr=1.0)
    losses = []
    for _ in range(steps):
        if call_zero_grad:
            optimizer.zero_grad()
        loss = ((net(X) - y_target) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


@pytest.fixture(scope="module")
def explorer() -> TrainingLoopExplorer:
    explorer = TrainingLoopExplorer(steps=20, plot_every=10)
    explorer.train_button.click()  # the box starts ticked
    explorer.zero_grad_box.value = False
    explorer.train_button.click()
    return explorer


def test_checkbox_runs_the_seed_loops(explorer: TrainingLoopExplorer) -> None:
    assert explorer.output.outputs == ()
    assert explorer.losses[True] == seed_loop(True, 20)
    assert explorer.losses[False] == seed_loop(False, 20)
    assert explorer.losses[True][0] == explorer.losses[False][0]  # the same start


def test_without_zero_grad_the_grad_keeps_growing(explorer: TrainingLoopExplorer) -> None:
    without, with_ = np.array(explorer.grad_norms[False]), np.array(explorer.grad_norms[True])
    assert without[0] == pytest.approx(with_[0])
    assert (np.diff(without) > 0).all()  # each step adds to the sum
    assert without[-1] > 5 * with_[-1]


def test_plot_and_static_form(explorer: TrainingLoopExplorer) -> None:
    svg = bytes(explorer.image.value).decode()
    assert svg.startswith("<svg") and svg == explorer.chart()  # the widget shows the chart
    titles = re.findall(r'class="mt-chart-title">([^<]*)<', svg)
    assert titles == ["loss", "size of .grad used by optimizer.step()"]
    lines = re.findall(r'<polyline points="([^"]*)" stroke="([^"]*)"', svg)
    assert [colour for _, colour in lines] == ["#0072B2", "#D55E00"] * 2  # both loops, twice
    assert all(len(points.split()) == 20 for points, _ in lines)  # one point per step
    # the right plot: without zero_grad() the line ends higher (smaller y) than with it
    ends = [float(points.split()[-1].split(",")[1]) for points, _ in lines[2:]]
    assert ends[1] < ends[0]
    view = explorer.static()
    rows = repr(view).splitlines()
    assert rows[2].startswith("with optimizer.zero_grad()")
    assert rows[3].startswith("without optimizer.zero_grad()")
    first = ", ".join(f"{v:.3f}" for v in explorer.losses[False][:5])
    assert first in rows[3]
    assert "<svg" in view._repr_html_() and "mt-chart-line" in view._repr_html_()
    assert "0x" not in repr(explorer)


def test_chart_ticks_are_round_numbers() -> None:
    assert nice_ticks(0.73) == [0.0, 0.2, 0.4, 0.6000000000000001, 0.8]
    assert nice_ticks(50, 5) == [0, 10, 20, 30, 40, 50]
    assert nice_ticks(float("nan")) == [0.0, 1.0]


def test_static_trains_what_is_missing() -> None:
    explorer = TrainingLoopExplorer(steps=3, plot_every=10)
    assert explorer.losses == {}
    explorer.static()
    assert explorer.losses[True] == seed_loop(True, 3)
    assert explorer.losses[False] == seed_loop(False, 3)


def test_errors_in_training_land_in_the_output() -> None:
    explorer = TrainingLoopExplorer(lambda: TwoLayerNet(4, 8, 1), steps=2)  # data has 5 features
    explorer.train_button.click()
    (error,) = explorer.output.outputs
    assert "mat1 and mat2 shapes cannot be multiplied" in error["text"]


def test_the_checkbox_shows_how_the_loop_on_show_ran() -> None:
    # chapter 06 trains from code: the box once stayed ticked under "without optimizer.zero_grad()"
    explorer = TrainingLoopExplorer(steps=2, plot_every=1)
    explorer.train(zero_grad=True)
    assert explorer.zero_grad_box.value is True and "with optimizer" in explorer.status.value
    explorer.train(zero_grad=False)
    assert explorer.zero_grad_box.value is False
    assert explorer.status.value.startswith("without optimizer.zero_grad()")

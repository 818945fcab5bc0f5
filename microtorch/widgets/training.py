"""``TrainingLoopExplorer``: train the seed's network with and without ``optimizer.zero_grad()``.

A checkbox chooses whether the loop calls ``optimizer.zero_grad()``; "train" runs the real loop
from the same starting weights and draws (as SVG) the loss and the size of ``.grad`` for
both choices side by side. Without ``zero_grad()`` each step's ``.grad`` is the sum of every
gradient so far, so the step ``optimizer.step()`` takes keeps growing: the seed's bug.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
import numpy as np

import microtorch as torch
from microtorch import nn
from microtorch.optim import SGD
from microtorch.widgets._chart import Panel, Series, chart_svg
from microtorch.widgets._errors import report_errors
from microtorch.widgets._text import TEXT_CSS, text_html
from microtorch.widgets.static import StaticView, html_table, text_table

__all__ = ["TrainingLoopExplorer", "TwoLayerNet"]

LABELS = {True: "with optimizer.zero_grad()", False: "without optimizer.zero_grad()"}
CAPTION = (
    "<p>Train once with the box ticked and once without. Without <code>zero_grad()</code>, "
    "<code>.grad</code> holds the sum of every gradient so far: the right plot grows, so "
    "<code>optimizer.step()</code> no longer follows this step's gradient. Here that acts "
    "like an ever larger step in an old direction; the loss may even fall faster at first, "
    "but it is not the update you wrote.</p>"
)
COLOURS = {True: "#0072B2", False: "#D55E00"}  # Okabe-Ito blue and vermillion


class TwoLayerNet(nn.Module):
    """The seed chapter's network: ``sigmoid(fc2(sigmoid(fc1(x))))``."""

    def __init__(self, n_in: int, n_hidden: int, n_out: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)

    def forward(self, x: Any) -> Any:
        h = torch.sigmoid(self.fc1(x))
        return torch.sigmoid(self.fc2(h))


def seed_data(make_model: Callable[[], Any], seed: int = 0) -> tuple[Any, Any]:
    """The seed's data: after ``manual_seed(0)`` and the model, ``X = randn(200, 5)`` and
    ``y = (X.sum(1) > 0)`` as floats, the draws in the seed's order."""
    torch.manual_seed(seed)
    make_model()
    X = torch.randn(200, 5)
    return X, (X.sum(dim=1, keepdim=True) > 0).float()


def _grad_norm(model: Any) -> float:
    grads = [p.grad.numpy() for p in model.parameters() if p.grad is not None]
    return float(np.sqrt(sum((g.astype(np.float64) ** 2).sum() for g in grads)))


class TrainingLoopExplorer:
    """``TrainingLoopExplorer()`` trains ``TwoLayerNet(5, 8, 1)`` with SGD(lr=1.0) for 50 steps."""

    def __init__(
        self,
        make_model: Callable[[], Any] | None = None,
        X: Any = None,
        y: Any = None,
        *,
        lr: float = 1.0,
        steps: int = 50,
        seed: int = 0,
        plot_every: int = 10,
    ) -> None:
        self.make_model = make_model or (lambda: TwoLayerNet(5, 8, 1))
        self.X, self.y = (X, y) if X is not None else seed_data(self.make_model, seed)
        self.lr, self.steps, self.seed, self.plot_every = lr, steps, seed, plot_every
        self.losses: dict[bool, list[float]] = {}  # keyed by "called zero_grad()"
        self.grad_norms: dict[bool, list[float]] = {}
        self.output = widgets.Output()
        guard = report_errors(self.output)
        self.zero_grad_box = widgets.Checkbox(
            True, description="call optimizer.zero_grad()", indent=False
        )
        self.train_button = widgets.Button(description=f"train {steps} steps", icon="play")
        self.train_button.on_click(guard(lambda _b: self.train()))
        self.status = text_html()
        self.image = widgets.Image(format="svg+xml")
        self.widget = widgets.VBox(
            [
                text_html(TEXT_CSS + CAPTION),
                widgets.HBox([self.zero_grad_box, self.train_button]),
                self.status,
                self.image,
                self.output,
            ]
        )
        self._draw()

    def train(self, zero_grad: bool | None = None) -> list[float]:
        """Run the loop from the same start, calling zero_grad() if the checkbox (or arg) says."""
        choice = bool(self.zero_grad_box.value if zero_grad is None else zero_grad)
        self.zero_grad_box.value = choice  # the box always shows how the loop on show ran
        torch.manual_seed(self.seed)  # the same starting weights for both choices
        model = self.make_model()
        optimizer = SGD(model.parameters(), lr=self.lr)
        losses = self.losses[choice] = []
        norms = self.grad_norms[choice] = []
        for step in range(self.steps):
            if choice:
                optimizer.zero_grad()
            loss = ((model(self.X) - self.y) ** 2).mean()
            loss.backward()
            norms.append(_grad_norm(model))  # the size of what optimizer.step() will use
            optimizer.step()
            losses.append(loss.item())
            if (step + 1) % self.plot_every == 0 or step + 1 == self.steps:
                self.status.value = f"{LABELS[choice]}: step {step + 1} of {self.steps}"
                self._draw()
        return losses

    def chart(self) -> str:
        """Loss and size of ``.grad`` per step (SVG), one line per choice trained so far."""
        trained = [c for c in (True, False) if c in self.losses]

        def lines(values: dict[bool, list[float]]) -> list[Series]:
            return [Series(LABELS[c], COLOURS[c], values[c]) for c in trained]

        panels = [
            Panel("loss", "step", self.steps, lines(self.losses), legend=bool(trained)),
            Panel("size of .grad used by optimizer.step()", "step", self.steps,
                  lines(self.grad_norms)),
        ]  # fmt: skip
        what = " and ".join(LABELS[c] for c in trained) or "nothing trained yet"
        return chart_svg(panels, f"loss and size of .grad per step: {what}")

    def _draw(self) -> None:
        self.image.value = self.chart().encode()

    def _rows(self) -> list[list[str]]:
        return [
            [
                LABELS[c],
                ", ".join(f"{v:.3f}" for v in self.losses[c][:5]),
                f"{self.losses[c][-1]:.3f}",
            ]
            for c in (True, False)
            if c in self.losses
        ]

    def static(self) -> StaticView:
        """Both loss series (trains the choices not trained yet) and the chart."""
        for choice in (True, False):
            if choice not in self.losses:
                self.train(choice)
        return StaticView(self._static_html(), text_table(self._header(), self._rows()))

    def _header(self) -> list[str]:
        return ["loop", "loss over the first 5 steps", f"loss at step {self.steps}"]

    def _static_html(self) -> str:
        """The table of what was trained so far and the chart (trains nothing)."""
        rows = self._rows()
        table = html_table(self._header(), rows) if rows else f"<p>{html.escape(repr(self))}</p>"
        return f"{table}{self.chart()}"

    def __repr__(self) -> str:
        trained = " and ".join(LABELS[c] for c in (True, False) if c in self.losses) or "nothing"
        return f"TrainingLoopExplorer: {self.steps} steps of SGD(lr={self.lr}); trained {trained}"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = repr(self)
        bundle["text/html"] = self._static_html()  # viewers without widgets: the same, fixed
        return bundle

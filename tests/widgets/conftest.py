"""Programs the widget tests step through: each builds a fresh graph, so two calls give twins."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("ipywidgets", reason="pip install ipywidgets>=8 to test microtorch.widgets")

import microtorch as torch  # noqa: E402
from microtorch.widgets.training import TwoLayerNet  # noqa: E402


def seed_demo() -> dict[str, Any]:
    """The seed's first example: x[0] used twice, so AccumulateGrad gets three arrivals."""
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x[0] + x[1]) * x[0]
    return {"x": x, "y": y, "leaves": [x], "output": y}


def squared() -> dict[str, Any]:
    """``x * x``: one tensor used twice by one op, two parallel arrows."""
    x = torch.tensor([1.5, -2.0], requires_grad=True)
    loss = (x * x).sum()
    return {"x": x, "loss": loss, "leaves": [x], "output": loss}


def network() -> dict[str, Any]:
    """The seed's TwoLayerNet(5, 8, 1) on its data, and its mean squared error."""
    torch.manual_seed(0)
    net = TwoLayerNet(5, 8, 1)
    X = torch.randn(200, 5)
    y_target = (X.sum(dim=1, keepdim=True) > 0).float()
    loss = ((net(X) - y_target) ** 2).mean()
    params = dict(net.named_parameters())
    return {**params, "loss": loss, "leaves": list(params.values()), "output": loss}


PROGRAMS = {"seed_demo": seed_demo, "squared": squared, "network": network}


@pytest.fixture(params=sorted(PROGRAMS))
def program(request: pytest.FixtureRequest) -> Any:
    """Each program's builder in turn."""
    return PROGRAMS[request.param]

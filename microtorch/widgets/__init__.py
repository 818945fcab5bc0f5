"""Widgets for JupyterLab: step through backward, watch ``.grad`` accumulate, see zero_grad.

``import microtorch`` never imports this package (it needs ipywidgets and anywidget; nothing
here needs matplotlib); each widget replays what the real engine and optimizer did, and its
output holds its static form too (also ``.static()``) for exported notebooks, GitHub and nbval.
``GraphView`` is the graph laid out in the browser, which ``draw`` and the stepper show.
"""

from microtorch.viz.live import GraphView
from microtorch.widgets.accumulation import AccumulationExplorer
from microtorch.widgets.replay import BackwardReplay
from microtorch.widgets.static import StaticView
from microtorch.widgets.stepper import BackwardStepper
from microtorch.widgets.training import TrainingLoopExplorer, TwoLayerNet

__all__ = [
    "AccumulationExplorer",
    "BackwardReplay",
    "BackwardStepper",
    "GraphView",
    "StaticView",
    "TrainingLoopExplorer",
    "TwoLayerNet",
]

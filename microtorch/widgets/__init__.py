"""Widgets for JupyterLab: step through backward, watch ``.grad`` accumulate, see zero_grad.

``import microtorch`` never imports this package (it needs ipywidgets and matplotlib); each
widget replays what the real engine and optimizer did, and has a static form (``.static()``)
for exported notebooks, GitHub and nbval.
"""

from microtorch.widgets.accumulation import AccumulationExplorer
from microtorch.widgets.replay import BackwardReplay
from microtorch.widgets.static import StaticView
from microtorch.widgets.stepper import BackwardStepper
from microtorch.widgets.training import TrainingLoopExplorer, TwoLayerNet

__all__ = [
    "AccumulationExplorer",
    "BackwardReplay",
    "BackwardStepper",
    "StaticView",
    "TrainingLoopExplorer",
    "TwoLayerNet",
]

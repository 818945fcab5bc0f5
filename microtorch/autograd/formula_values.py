"""A backward formula's values under ``create_graph=True``: arrays, or recorded values.

Each backward formula is written once, in numpy. Under create_graph it is given recorded values
(``RecordedArray``, see api/recorded.py) instead of arrays, and numpy's dispatch records the ops
it runs. The helpers here are for the steps numpy's dispatch cannot see: a function computed
value by value, an op numpy has no function for, integer inputs that are constants.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd import node as _node

__all__ = ["constant_values", "not_given", "recorded", "run_recorded"]


def recorded(x: object) -> bool:
    """Whether ``x`` is a backward formula's recorded value (create_graph=True: see
    api/recorded.py). A function computed value by value (digamma64, bessel_i_scaled64 ...)
    then calls its ``*_each`` ufunc instead, which numpy hands to PyTorch's op, recorded."""
    return not isinstance(x, (np.ndarray, np.generic, float, int))


def run_recorded(function: Any, *values: Any) -> Any:
    """``function.apply`` on a formula's recorded values, recorded (PyTorch's node for a step
    that numpy has no dispatch for, such as a matrix exponential)."""
    return _node.record(function.apply(*[_node.tensor_of(v) for v in values]))


def constant_values(x: Any) -> np.ndarray:
    """The values of a formula's input that has no gradient (integer pivots), as an array,
    recorded or not: what a formula computes from them is a constant of its graph."""
    return _node.tensor_of(x)._data if recorded(x) else np.asarray(x)


def not_given(grad: Any) -> bool:
    """Whether an output's incoming gradient is the zeros the engine gives an output nobody
    used (PyTorch's gradient is then undefined, and its formula leaves that term out): all
    zeros, with no graph behind them."""
    if recorded(grad):
        t = _node.tensor_of(grad)
        return not t.requires_grad and not t._data.any()
    return not np.any(grad)

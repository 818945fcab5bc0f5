"""Run one layer in microtorch and in PyTorch from the same weights, and compare everything.

``make(lib)`` builds the layer with ``lib`` (``microtorch`` or ``torch``, as students write
``import microtorch as torch``). PyTorch's freshly initialised weights and buffers are copied
into microtorch's layer through ``load_state_dict``; then both see the same input and the
same non-uniform upstream gradient, and the recorded graph (node names all the way down),
the output, the input's and every parameter's gradient, and the state afterwards (running
statistics) must agree.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import microtorch
from tests.nn.cases import graph


def copy_state(src: Any, dst: Any) -> None:
    """Load ``src``'s (a PyTorch module's) parameters and buffers into ``dst`` (microtorch's)."""
    state = {k: microtorch.tensor(v.detach().numpy().copy()) for k, v in src.state_dict().items()}
    dst.load_state_dict(state)


def upstream(shape: tuple[int, ...], dtype: Any, seed: int = 1) -> np.ndarray:
    """A non-uniform gradient of both signs: a wrong sum or a transposed index shows."""
    return np.random.default_rng(seed).uniform(-1.0, 1.5, shape).astype(dtype)


def run(lib: ModuleType, layer: Any, x_np: np.ndarray, x_grad: bool = True) -> dict[str, Any]:
    """One forward and backward of ``layer`` on ``x_np``; everything worth comparing."""
    x = lib.tensor(x_np, requires_grad=x_grad)
    out = layer(x)
    names = graph(out)
    out.backward(lib.tensor(upstream(tuple(out.shape), x_np.dtype)))
    params = layer.named_parameters() if hasattr(layer, "named_parameters") else []
    return {
        "graph": names,
        "out": out.detach().numpy().copy(),
        "x_grad": None if x.grad is None else x.grad.numpy().copy(),
        "grads": {n: p.grad.numpy().copy() for n, p in params if p.grad is not None},
        "state": (
            {k: v.numpy().copy() for k, v in layer.state_dict().items()}
            if hasattr(layer, "state_dict")
            else {}
        ),
    }


def assert_same(mine: dict[str, Any], theirs: dict[str, Any], rtol: float, atol: float) -> None:
    """Every entry of two ``run`` results agrees (graphs exactly, numbers within tolerance)."""
    assert mine["graph"] == theirs["graph"]
    np.testing.assert_allclose(mine["out"], theirs["out"], rtol=rtol, atol=atol)
    assert mine["out"].dtype == theirs["out"].dtype
    if theirs["x_grad"] is None:
        assert mine["x_grad"] is None
    else:
        np.testing.assert_allclose(mine["x_grad"], theirs["x_grad"], rtol=rtol, atol=atol)
    assert mine["grads"].keys() == theirs["grads"].keys()
    for name, g in theirs["grads"].items():
        np.testing.assert_allclose(mine["grads"][name], g, rtol=rtol, atol=atol, err_msg=name)
    assert list(mine["state"]) == list(theirs["state"])
    for name, v in theirs["state"].items():
        np.testing.assert_allclose(mine["state"][name], v, rtol=rtol, atol=atol, err_msg=name)
        assert mine["state"][name].dtype == v.dtype, name


def compare_layer(
    torch: ModuleType,
    make: Callable[[ModuleType], Any],
    x_np: np.ndarray,
    *,
    x_grad: bool = True,
    steps: int = 1,
    rtol: float = 1e-5,
    atol: float = 1e-5,
) -> None:
    """Build ``make(torch)``, copy its state into ``make(microtorch)``, and check ``steps``
    forward/backward passes agree (later steps see the running statistics the first left)."""
    torch.manual_seed(0)
    theirs_layer = make(torch)
    mine_layer = make(microtorch)
    if hasattr(theirs_layer, "state_dict"):
        copy_state(theirs_layer, mine_layer)
        assert repr(mine_layer) == repr(theirs_layer)
    for step in range(steps):
        x = x_np * (1 + step) + step  # a different batch each step
        mine = run(microtorch, mine_layer, x, x_grad)
        theirs = run(torch, theirs_layer, x, x_grad)
        assert_same(mine, theirs, rtol, atol)


def compare_call(
    torch: ModuleType,
    call: Callable[[ModuleType, Any], Any],
    x_np: np.ndarray,
    *,
    rtol: float = 1e-5,
    atol: float = 1e-5,
) -> None:
    """``call(lib, x)`` (a functional form) in both libraries: graph, value, input gradient."""
    mine = run(microtorch, lambda x: call(microtorch, x), x_np)
    theirs = run(torch, lambda x: call(torch, x), x_np)
    assert_same(mine, theirs, rtol, atol)


def error_of(call: Callable[[], Any]) -> tuple[str, str]:
    """The exception type's name and PyTorch's part of its message (before our fix hint)."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 - any error is the result
        text = str(error).replace("microtorch.", "torch.")
        return type(error).__name__, text.split(" (Fix:")[0]
    return "no error", ""


def assert_same_error(torch_module: Any, case: Callable[[Any], Any]) -> None:
    """``case(torch)`` raises, and ``case(microtorch)`` raises the same class with a message
    that starts with PyTorch's (then microtorch's fix hint)."""
    theirs = error_of(lambda: case(torch_module))
    assert theirs[0] != "no error"
    mine = error_of(lambda: case(microtorch))
    assert mine[0] == theirs[0] and mine[1].startswith(theirs[1])

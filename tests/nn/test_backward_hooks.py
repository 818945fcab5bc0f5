"""Module backward hooks (register_full_backward_hook, register_full_backward_pre_hook, the
deprecated register_backward_hook), Module.type, and Module.half/bfloat16's errors, against
PyTorch 2.13: what the hooks see, what their returns replace, the graph's nodes, warnings and
errors.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch


def shapes(grads: tuple[Any, ...]) -> list[Any]:
    return [None if g is None else tuple(g.shape) for g in grads]


def values(grads: tuple[Any, ...]) -> list[Any]:
    return [None if g is None else np.round(g.detach().numpy(), 10).tolist() for g in grads]


class TwoIn:
    """A module of two tensor inputs and a number, with two outputs (made lazily per library)."""

    @staticmethod
    def make(L: ModuleType) -> Any:
        class Net(L.nn.Module):
            def forward(self, a: Any, scale: float, b: Any) -> Any:
                return a * scale + b, (a * b).sum()

        return Net()


def _linear(L: ModuleType) -> Any:
    layer = L.nn.Linear(3, 2).double()
    with L.no_grad():
        layer.weight.copy_(L.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], dtype=L.float64))
        layer.bias.copy_(L.tensor([0.1, -0.2], dtype=L.float64))
    return layer


def _x(L: ModuleType, rg: bool = True) -> Any:
    return L.tensor(np.linspace(-1, 1, 12).reshape(4, 3), requires_grad=rg)


def _weights(L: ModuleType, shape: tuple[int, ...]) -> Any:
    return L.arange(float(np.prod(shape)), dtype=L.float64).reshape(shape) - 2


SCENARIOS: dict[str, Callable[[ModuleType, list[Any]], Any]] = {}


def scenario(fn: Callable[[ModuleType, list[Any]], Any]) -> Callable[[ModuleType, list[Any]], Any]:
    SCENARIOS[fn.__name__] = fn
    return fn


@scenario
def full_hook_sees_input_and_output(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    layer.register_full_backward_hook(lambda m, gi, go: seen.append((values(gi), values(go))))
    x = _x(L)
    out = layer(x)
    (out * _weights(L, (4, 2))).sum().backward()
    return x.grad, layer.weight.grad


@scenario
def full_hook_replaces_grad_input(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    layer.register_full_backward_hook(lambda m, gi, go: (gi[0] * 3,))
    x = _x(L)
    (layer(x) * _weights(L, (4, 2))).sum().backward()
    return x.grad, layer.weight.grad


@scenario
def pre_hook_replaces_grad_output(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    layer.register_full_backward_pre_hook(lambda m, go: (go[0] * 0 + 1,))
    layer.register_full_backward_hook(lambda m, gi, go: seen.append((values(gi), values(go))))
    x = _x(L)
    (layer(x) * _weights(L, (4, 2))).sum().backward()
    return x.grad, layer.weight.grad, layer.bias.grad


@scenario
def pre_hook_alone(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    layer.register_full_backward_pre_hook(lambda m, go: seen.append(values(go)))
    x = _x(L)
    (layer(x) * _weights(L, (4, 2))).sum().backward()
    return x.grad


@scenario
def several_inputs_and_outputs(L: ModuleType, seen: list[Any]) -> Any:
    net = TwoIn.make(L)
    net.register_full_backward_hook(lambda m, gi, go: seen.append((values(gi), values(go))))
    a = L.tensor([1.0, 2.0, -1.0], dtype=L.float64, requires_grad=True)
    b = L.tensor([0.5, -0.5, 3.0], dtype=L.float64)
    y, s = net(a, 2.0, b)
    (y * _weights(L, (3,))).sum().add(s * 4).backward()
    return a.grad


@scenario
def one_output_unused(L: ModuleType, seen: list[Any]) -> Any:
    net = TwoIn.make(L)
    net.register_full_backward_hook(lambda m, gi, go: seen.append((values(gi), values(go))))
    a = L.tensor([1.0, 2.0, -1.0], dtype=L.float64, requires_grad=True)
    b = L.tensor([0.5, -0.5, 3.0], dtype=L.float64, requires_grad=True)
    y, _ = net(a, 2.0, b)
    (y * _weights(L, (3,))).sum().backward()
    return a.grad, b.grad


@scenario
def no_input_needs_grad(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    layer.register_full_backward_hook(lambda m, gi, go: seen.append((values(gi), values(go))))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (layer(_x(L, rg=False)) * _weights(L, (4, 2))).sum().backward()
    seen.append([(w.category.__name__, str(w.message)) for w in caught])
    return layer.weight.grad


@scenario
def handle_removes(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    handle = layer.register_full_backward_hook(lambda m, gi, go: seen.append("called"))
    handle.remove()
    x = _x(L)
    layer(x).sum().backward()
    return x.grad


@scenario
def in_a_sequential(L: ModuleType, seen: list[Any]) -> Any:
    model = L.nn.Sequential(_linear(L), L.nn.Tanh(), _linear(L).__class__(2, 1).double())
    for i, layer in enumerate(model):
        layer.register_full_backward_hook(
            lambda m, gi, go, i=i: seen.append((i, shapes(gi), shapes(go)))
        )
    x = _x(L)
    model(x).sum().backward()
    return x.grad.shape


@scenario
def graph_nodes(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    layer.register_full_backward_hook(lambda m, gi, go: None)
    out = layer(_x(L))
    first = out.grad_fn.next_functions[0][0]
    names = [n.name() if n is not None else None for n, _ in first.next_functions]
    return [out.grad_fn.name(), first.name(), [n.split("::")[-1] if n else n for n in names]]


@scenario
def old_hook_sees_the_last_node(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    layer.register_backward_hook(lambda m, gi, go: seen.append((shapes(gi), values(go))))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = _x(L)
        (layer(x) * _weights(L, (4, 2))).sum().backward()
    seen.append([(w.category.__name__, str(w.message)) for w in caught])
    return x.grad


@scenario
def old_hook_on_one_node(L: ModuleType, seen: list[Any]) -> Any:
    act = L.nn.Tanh()
    act.register_backward_hook(lambda m, gi, go: tuple(g * 2 for g in gi))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = _x(L)
        (act(x * 1) * 3).sum().backward()
    seen.append([str(w.message) for w in caught])
    return x.grad


def _error(fn: Callable[[], Any]) -> tuple[str, str]:
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the class is what is compared
        return type(error).__name__, str(error).splitlines()[0]
    return "no error", ""


@scenario
def errors(L: ModuleType, seen: list[Any]) -> Any:
    layer = _linear(L)
    layer.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    seen.append(_error(lambda: layer(_x(L)).sum().backward()))
    layer = _linear(L)
    layer.register_full_backward_pre_hook(lambda m, go: (go[0], go[0]))
    seen.append(_error(lambda: layer(_x(L)).sum().backward()))
    layer = _linear(L)
    layer.register_full_backward_hook(lambda m, gi, go: None)
    seen.append(_error(lambda: layer.register_backward_hook(lambda m, gi, go: None)))
    layer = _linear(L)
    layer.register_backward_hook(lambda m, gi, go: None)
    seen.append(_error(lambda: layer.register_full_backward_hook(lambda m, gi, go: None)))
    layer = _linear(L)
    layer.register_full_backward_hook(lambda m, gi, go: (L.ones(4, 3),))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seen.append(_error(lambda: layer(_x(L, rg=False)).sum().backward()))
    return None


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_matches_pytorch(name: str, torch_module: ModuleType) -> None:
    results = []
    for L in (microtorch, torch_module):
        seen: list[Any] = []
        out = SCENARIOS[name](L, seen)
        out = out if isinstance(out, tuple) else (out,)
        got = [
            np.round(o.detach().numpy(), 10).tolist() if isinstance(o, L.Tensor) else o for o in out
        ]
        got = [list(g) if type(g).__name__ == "Size" else g for g in got]
        results.append((seen, got))
    assert results[0] == results[1]


def test_module_type_converts_every_tensor(torch_module: ModuleType) -> None:
    found = []
    for L in (microtorch, torch_module):
        m = L.nn.BatchNorm1d(2)
        m.type(L.float64)
        a = (m.weight.dtype, m.num_batches_tracked.dtype)
        m.type("torch.FloatTensor")
        b = m.weight.dtype
        m.type(L.DoubleTensor)
        found.append([str(d).split(".")[-1] for d in (*a, b, m.running_mean.dtype)])
    assert found[0] == found[1] == ["float64", "float64", "float32", "float64"]
    with pytest.raises(NotImplementedError, match="float16"):
        microtorch.nn.Linear(2, 2).type(microtorch.float16)
    with pytest.raises(TypeError):
        microtorch.nn.Linear(2, 2).type(3)


@pytest.mark.parametrize("name", ["half", "bfloat16"])
def test_half_and_bfloat16_say_what_is_missing(name: str) -> None:
    with pytest.raises(NotImplementedError, match="float16" if name == "half" else "bfloat16"):
        getattr(microtorch.nn.Linear(2, 2), name)()

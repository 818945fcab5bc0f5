"""Parity with PyTorch 2.13 for the implemented names of docs/api_coverage.md that no other test
file exercised by name: ``view_as`` and friends, ``new_*``, ``element_size``, ``ndimension``,
Module registration and pre-hooks, a custom ``LRScheduler``, ``cuda.manual_seed_all``."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch


def _libs(torch_module: ModuleType) -> tuple[ModuleType, ModuleType]:
    return torch_module, microtorch


@pytest.mark.parametrize("method", ["view_as", "reshape_as", "expand_as", "type_as"])
def test_as_methods_give_pytorchs_values_dtypes_and_gradients(method, torch_module) -> None:
    upstream = np.arange(1.0, 7.0).reshape(2, 3)  # non-uniform, so a wrong gradient shows
    seen = []
    for t in _libs(torch_module):
        x = t.tensor([[1.0, 2.0, 3.0]] if method == "expand_as" else [1.0, 2, 3, 4, 5, 6])
        x.requires_grad_()
        other = t.zeros(2, 3, dtype=t.float64)
        y = getattr(x, method)(other)
        shape = (2, 3) if method != "type_as" else (6,)
        y.backward(t.tensor(upstream.reshape(shape), dtype=y.dtype))
        seen.append((y.tolist(), str(y.dtype)[-7:], type(y.grad_fn).__name__, x.grad.tolist()))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "uint8", "bool"])
def test_element_size_and_ndimension(dtype, torch_module) -> None:
    for t in _libs(torch_module):
        x = t.zeros(2, 3, dtype=getattr(t, dtype))
        assert x.element_size() == np.dtype(dtype).itemsize and x.ndimension() == 2, t.__name__


def test_new_tensor_zeros_ones_take_dtype_and_device_from_the_tensor(torch_module) -> None:
    seen = []
    for t in _libs(torch_module):
        x = t.ones(2, dtype=t.float64, requires_grad=True)
        made = [x.new_tensor([1, 2]), x.new_zeros(2, 3), x.new_ones((1, 2)), x.new_zeros([])]
        seen.append([(m.tolist(), str(m.dtype)[-7:], m.requires_grad, m.device.type) for m in made])
    assert seen[0] == seen[1]


def _tree(t: ModuleType) -> object:
    class Net(t.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.add_module("first", t.nn.Linear(2, 2))
            self.register_module("second", t.nn.ReLU())
            self.register_buffer("mean", t.zeros(2))
            self.register_buffer("count", t.ones(1), persistent=False)

        def extra_repr(self) -> str:
            return "scale=2"

        def forward(self, x):
            return self.second(self.first(x))

    return Net()


def test_add_module_register_module_buffers_and_extra_repr(torch_module) -> None:
    seen = []
    for t in _libs(torch_module):
        net = _tree(t)
        children = [(name, type(m).__name__) for name, m in net.named_children()]
        buffers = [b.tolist() for b in net.buffers()]
        seen.append((children, buffers, repr(net).splitlines()[:2], list(net.state_dict())))
    assert seen[0] == seen[1]


def test_forward_pre_hook_can_replace_the_input_and_be_removed(torch_module) -> None:
    seen = []
    for t in _libs(torch_module):
        t.manual_seed(0)
        layer = t.nn.Identity()
        calls = []

        def hook(module, args, calls=calls, t=t):
            calls.append(type(module).__name__)
            return (args[0] * 2,)

        handle = layer.register_forward_pre_hook(hook)
        doubled = layer(t.ones(2)).tolist()
        handle.remove()
        seen.append((doubled, layer(t.ones(2)).tolist(), calls))
    assert seen[0] == seen[1]


def test_a_custom_lr_scheduler_subclass_steps_as_in_pytorch(torch_module) -> None:
    rates = []
    for t in _libs(torch_module):

        class Halving(t.optim.lr_scheduler.LRScheduler):
            def get_lr(self):
                return [base * 0.5**self.last_epoch for base in self.base_lrs]

        opt = t.optim.SGD([t.nn.Parameter(t.ones(1))], lr=0.8)
        schedule = Halving(opt)
        seen = [schedule.get_last_lr()]
        for _ in range(3):
            opt.step()
            schedule.step()
            seen.append(schedule.get_last_lr())
        rates.append(seen)
    assert rates[0] == rates[1] == [[0.8], [0.4], [0.2], [0.1]]


def test_cuda_manual_seed_all_is_harmless_on_a_cpu_machine(torch_module) -> None:
    assert (
        torch_module.cuda.manual_seed_all(0) is None and microtorch.cuda.manual_seed_all(0) is None
    )

"""Anomaly detection for teaching: a NaN gradient names the operation and the student's line.

The student functions below stand for code in a notebook or script: the error must name this
file and the line inside them that created the operation, not a line inside microtorch.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import microtorch as torch

HERE = __file__


def _line_of(fn: Callable[..., Any], text: str) -> int:
    """The line number of the first line of ``fn`` containing ``text``."""
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def student_sqrt(lib: ModuleType, x: Any) -> Any:
    root = lib.sqrt(x)  # d sqrt(x)/dx at 0 is inf; times the 0 below it is nan
    return (root * 0).sum()


def student_log(lib: ModuleType, p: Any) -> Any:
    logp = lib.log(p)
    return (logp * 0).sum()


def _nan_error(fn: Callable[..., Any], lib: ModuleType, value: float = 0.0) -> tuple[str, str]:
    """Run ``fn`` forward and backward under detect_anomaly: (error text, warning text)."""
    x = lib.tensor([value, 1.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with lib.autograd.detect_anomaly():
            loss = fn(lib, x)
            with pytest.raises(RuntimeError) as info:
                loss.backward()
    detected = [str(w.message) for w in caught if "Error detected in" in str(w.message)]
    assert len(detected) == 1, [str(w.message) for w in caught]
    return str(info.value), detected[0]


@pytest.mark.parametrize(
    ("fn", "node", "code"),
    [(student_sqrt, "SqrtBackward0", "lib.sqrt(x)"), (student_log, "LogBackward0", "lib.log(p)")],
)
def test_the_error_names_the_operation_and_the_students_line(
    fn: Callable[..., Any], node: str, code: str
) -> None:
    error, warning = _nan_error(fn, torch)
    line = _line_of(fn, code)
    assert error.startswith(f"Function '{node}' returned nan values in its 0th output.")
    assert f"{HERE}:{line}, in {fn.__name__}" in error, error
    assert code in error and "Fix:" in error
    # the warning carries the whole forward traceback, as PyTorch's does
    assert warning.startswith(f"Error detected in {node}. Traceback of forward call")
    assert f'File "{HERE}", line {line}, in {fn.__name__}' in warning


def test_the_students_line_inside_a_module_forward() -> None:
    class Scaled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = torch.nn.Parameter(torch.tensor([0.0, 1.0]))

        def forward(self, x: Any) -> Any:
            return torch.sqrt(self.w * x)  # the line the error must name

    model = Scaled()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            loss = (model(torch.ones(2)) * 0).sum()  # through Module.__call__ in microtorch
            with pytest.raises(RuntimeError) as info:
                loss.backward()
    line = _line_of(Scaled.forward, "torch.sqrt(self.w * x)")
    assert f"{HERE}:{line}, in forward" in str(info.value)
    assert model.w.grad is None  # nothing was accumulated past the failing node


def test_a_students_custom_function_is_named() -> None:
    class Halve(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x / 2

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            return grad_output * float("nan")  # a wrong backward

    x = torch.tensor([1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            y = Halve.apply(x)
            with pytest.raises(RuntimeError) as info:
                y.sum().backward()
    assert str(info.value).startswith("Function 'HalveBackward' returned nan values")
    assert f"{HERE}:" in str(info.value)


def test_set_detect_anomaly_as_a_call_and_a_context_manager() -> None:
    assert not torch.autograd.is_anomaly_enabled()
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled") as record:
        torch.autograd.set_detect_anomaly(True)
    assert record[0].filename == HERE  # the warning points at the student's call
    try:
        assert torch.autograd.is_anomaly_enabled()
        x = torch.tensor([0.0], requires_grad=True)
        loss = student_sqrt(torch, x)
        detected = pytest.warns(UserWarning, match="Error detected in SqrtBackward0")
        with detected, pytest.raises(RuntimeError, match="SqrtBackward0"):
            loss.backward()
    finally:
        torch.autograd.set_detect_anomaly(False)
    assert not torch.autograd.is_anomaly_enabled()
    with pytest.warns(UserWarning), torch.autograd.set_detect_anomaly(True):
        assert torch.autograd.is_anomaly_enabled()
    assert not torch.autograd.is_anomaly_enabled()


def test_off_by_default_nan_flows_into_grad_as_in_pytorch() -> None:
    x = torch.tensor([0.0, 4.0], requires_grad=True)
    student_sqrt(torch, x).backward()  # no error: PyTorch does not check unless asked
    assert str(x.grad.tolist()[0]) == "nan" and x.grad.tolist()[1] == 0.0


def test_check_nan_false_records_but_does_not_raise() -> None:
    x = torch.tensor([0.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.set_detect_anomaly(True, check_nan=False):
            student_sqrt(torch, x).backward()
    assert str(x.grad.item()) == "nan"


def test_a_graph_built_before_enabling_says_to_enable_it_earlier() -> None:
    x = torch.tensor([0.0], requires_grad=True)
    loss = student_sqrt(torch, x)  # forward without anomaly mode: no traceback recorded
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly(), pytest.raises(RuntimeError) as info:
            loss.backward()
    assert "turn anomaly detection on before the forward pass" in str(info.value)


def test_a_finite_backward_is_unchanged_by_anomaly_mode() -> None:
    x = torch.tensor([1.0, 4.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            torch.sqrt(x).sum().backward()
    assert x.grad.tolist() == [0.5, 0.25]


@pytest.mark.torch
@pytest.mark.parametrize(("fn", "code"), [(student_sqrt, "lib.sqrt"), (student_log, "lib.log")])
def test_pytorch_names_the_same_node_and_line(
    fn: Callable[..., Any], code: str, torch_module: ModuleType
) -> None:
    theirs, their_warning = _nan_error(fn, torch_module)
    ours, our_warning = _nan_error(fn, torch)
    assert ours.startswith(theirs)  # PyTorch's sentence, then where and the fix
    line = _line_of(fn, code)
    for warning in (their_warning, our_warning):
        assert f'File "{HERE}", line {line}, in {fn.__name__}' in warning

"""No numpy RuntimeWarning reaches the student: every op of the table, forward and backward,
on inputs full of nan, inf, 0, negatives and large values (PyTorch prints nothing for these).

Warnings are errors here, so a single ``overflow encountered in exp`` fails the test.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
import pytest

import microtorch

from .optable import OPS, OpSpec

# Each filling repeats over the input: the values that make numpy warn (log(0), 0 * inf,
# inf - inf, sqrt(-1), exp(1000), 1 / 0 ...), in float32 and float64.
FILLINGS = {
    "special": [np.nan, np.inf, -np.inf, 0.0, -0.0, -1.0, 1.0, 2.0],
    "zeros": [0.0],
    "negative": [-1.0, -2.5, -1e-3],
    "large": [1000.0, -1000.0, 3e38, -3e38, 1e300],
}


def _filled(shape: tuple[int, ...], values: list[float], shift: int) -> np.ndarray:
    n = int(np.prod(shape))
    flat = np.array([values[(i + shift) % len(values)] for i in range(n)], dtype=np.float64)
    return flat.reshape(shape)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("filling", list(FILLINGS))
@pytest.mark.parametrize("spec", OPS, ids=str)
def test_no_numpy_warning_escapes(spec: OpSpec, filling: str, dtype: str) -> None:
    dt = getattr(microtorch, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xs = [
            microtorch.tensor(_filled(s, FILLINGS[filling], k), dtype=dt, requires_grad=True)
            for k, s in enumerate(spec.shapes)
        ]
        out = spec.microtorch(*xs)
        outs = out if isinstance(out, tuple) else (out,)
        loss = sum(((o * (i + 1.5)).sum() for i, o in enumerate(outs) if o.requires_grad), 0.0)
        loss.backward()
        for x in xs:
            assert x.grad is None or x.grad.shape == x.shape
        repr(out)  # printing nan and inf warns nothing either


def test_the_example_of_the_issue_is_quiet() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = microtorch.tensor([0.0, 1000.0]).exp()
    assert y.tolist() == [1.0, float("inf")]


def test_the_students_own_numpy_still_warns() -> None:
    microtorch.tensor([0.0, 1000.0]).exp()  # (microtorch silences numpy only inside its ops)
    with pytest.warns(RuntimeWarning, match="overflow"):
        np.exp(np.array([1000.0]))


def _trained(optimizer: str, **options: float) -> None:
    p = microtorch.tensor([1.0, 2.0, np.inf], requires_grad=True)
    opt = getattr(microtorch.optim, optimizer)([p], lr=0.1, **options)
    (p * microtorch.tensor([np.inf, np.nan, 0.0])).sum().backward()
    microtorch.nn.utils.clip_grad_norm_([p], 1.0)
    opt.step()
    p.grad.fill_(np.inf)  # inf - inf in the update
    opt.step()


TENSOR_LEVEL = {
    "in-place add": lambda: microtorch.tensor([np.inf]).add_(microtorch.tensor([-np.inf])),
    "in-place mul": lambda: microtorch.tensor([np.inf]).mul_(0),
    "in-place div": lambda: microtorch.tensor([1.0]).div_(0),
    # (a float64 tensor cast into float32, inf as in PyTorch; a Python number that large
    # raises PyTorch's overflow error instead: tests/ops/test_plain_index_writes.py)
    "setitem": lambda: microtorch.tensor([1.0, 2.0]).__setitem__(
        0, microtorch.tensor(1e300, dtype=microtorch.float64)
    ),
    "creation": lambda: microtorch.tensor([1e300, -1e300], dtype=microtorch.float32),
    "to int": lambda: microtorch.tensor([np.nan, np.inf, 1e20]).long(),
    "grad accumulation": lambda: (lambda x: (x * np.inf + x * -np.inf).sum().backward())(
        microtorch.tensor([1.0], requires_grad=True)
    ),
    "autograd.grad": lambda: microtorch.autograd.grad(
        (lambda x: (x.log(), x))(microtorch.zeros(2, requires_grad=True))[0].sum(),
        [microtorch.zeros(2, requires_grad=True)],
        allow_unused=True,
    ),
    "iter_backward": lambda: list(
        microtorch.autograd.iter_backward(
            microtorch.zeros(2, requires_grad=True).log().sum() * np.inf
        )
    ),
    "SGD": lambda: _trained("SGD"),
    "SGD with momentum": lambda: _trained("SGD", momentum=0.9, weight_decay=0.1),
    "Adam": lambda: _trained("Adam"),
    "AdamW": lambda: _trained("AdamW"),
    "repr": lambda: repr(microtorch.tensor([1e300, 1e-300, np.nan], dtype=microtorch.float64)),
}


@pytest.mark.parametrize("name", list(TENSOR_LEVEL))
def test_no_numpy_warning_from_tensor_level_code(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        TENSOR_LEVEL[name]()


def test_the_students_own_optimizer_keeps_numpys_warnings() -> None:
    class Mine(microtorch.optim.SGD):
        def step(self, closure: object = None) -> None:
            np.log(np.zeros(1))

    p = microtorch.tensor([1.0], requires_grad=True)
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        Mine([p], lr=0.1).step()


def test_the_students_numpy_warns_between_two_steps_of_iter_backward() -> None:
    steps = microtorch.autograd.iter_backward(microtorch.zeros(2, requires_grad=True).sum())
    next(steps)
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        np.log(np.zeros(1))
    list(steps)


# Words of numpy's own error messages ("too many indices for array", "duplicate value in
# 'axis'", "operands could not be broadcast together with shapes (2,) (3,)").
NUMPY_WORDS = ("array", "axis", "axes", "numpy", "ufunc", "operand", "zero-size", ",) (")


def _odd_inputs(shape: tuple[int, ...]) -> list[Any]:
    n = int(np.prod(shape))
    return [
        microtorch.tensor(np.arange(n).reshape(shape)),  # integers
        microtorch.tensor((np.arange(n) % 2 == 0).reshape(shape)),  # booleans
        microtorch.zeros((0, *shape[1:])),  # empty
        microtorch.tensor(1.5),  # 0-d
        microtorch.ones(3),
        microtorch.ones(2, 3, 4, 5),
    ]


@pytest.mark.parametrize("spec", OPS, ids=str)
def test_no_numpy_error_text_escapes(spec: OpSpec) -> None:
    for args in itertools.product(*[_odd_inputs(s) for s in spec.shapes]):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (PyTorch's own warnings: var of 1 element)
                spec.microtorch(*args)
        except Exception as e:  # noqa: BLE001 - any error: its text must be PyTorch's kind
            shapes = [list(a.shape) for a in args]
            assert not any(w in str(e) for w in NUMPY_WORDS), f"{shapes}: {e}"
            assert not isinstance(e, (ZeroDivisionError, AttributeError, KeyError)), e

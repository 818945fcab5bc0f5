"""Issue 13, arguments PyTorch accepts: its keyword names (``torch.add(input=x, other=y)``),
numpy's ``axis=``/``keepdims=`` where PyTorch takes them, and ``range``/list indices,
compared with PyTorch 2.13 (values, dtypes, grad_fn names, errors)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import outcome, same

pytestmark = pytest.mark.torch


def x(lib: ModuleType) -> Any:
    return lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)


REDUCTIONS = ["sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "std", "var"]
REDUCTIONS += ["prod", "any", "all", "logsumexp", "softmax", "log_softmax", "cumsum", "cumprod"]
REDUCTIONS += ["norm", "squeeze", "unsqueeze"]

CASES: dict[str, Callable[[Any], Any]] = {}
for _fn in REDUCTIONS:
    CASES[f"{_fn}(axis=)"] = lambda lib, f=_fn: getattr(x(lib), f)(axis=0)
    CASES[f"{_fn}(1, keepdims=)"] = lambda lib, f=_fn: getattr(lib, f)(x(lib), 1, keepdims=True)
    CASES[f"{_fn}(dim=, keepdims=)"] = lambda lib, f=_fn: getattr(x(lib), f)(dim=0, keepdims=True)
    CASES[f"{_fn}(input=, dim=)"] = lambda lib, f=_fn: getattr(lib, f)(input=x(lib), dim=1)
CASES.update(
    {
        "sum(axis=, dim=)": lambda lib: x(lib).sum(axis=0, dim=0),
        "cat axis": lambda lib: lib.cat([x(lib), x(lib)], axis=1),
        "stack axis": lambda lib: lib.stack([x(lib), x(lib)], axis=1),
        "cat tensors=": lambda lib: lib.cat(tensors=[x(lib), x(lib)], dim=0),
        "transpose axis0": lambda lib: x(lib).transpose(axis0=0, axis1=1),
        "matmul input other": lambda lib: lib.matmul(input=x(lib), other=x(lib).T),
        "add input other alpha": lambda lib: lib.add(input=x(lib), other=x(lib), alpha=2),
        "sub input other alpha": lambda lib: lib.sub(input=x(lib), other=1, alpha=2),
        "mul input other": lambda lib: lib.mul(input=x(lib), other=2),
        "div input other mode": lambda lib: lib.div(input=x(lib), other=2, rounding_mode="floor"),
        "sum input dim": lambda lib: lib.sum(input=x(lib), dim=0),
        "mean input dim keepdim": lambda lib: lib.mean(input=x(lib), dim=1, keepdim=True),
        "mm input mat2": lambda lib: lib.mm(input=x(lib), mat2=x(lib).T),
        "bmm input mat2": lambda lib: lib.bmm(input=x(lib)[None], mat2=x(lib).T[None]),
        "dot input tensor": lambda lib: lib.dot(input=x(lib)[0], tensor=x(lib)[1]),
        "mv input vec": lambda lib: lib.mv(input=x(lib), vec=x(lib)[0]),
        "exp input": lambda lib: lib.exp(input=x(lib)),
        "abs input": lambda lib: lib.abs(input=x(lib)),
        "pow input exponent": lambda lib: lib.pow(input=x(lib), exponent=2),
        "clamp input min": lambda lib: lib.clamp(input=x(lib), min=2),
        "where condition input other": lambda lib: lib.where(
            condition=x(lib) > 2, input=x(lib), other=0.0
        ),
        "maximum input other": lambda lib: lib.maximum(input=x(lib), other=x(lib) * 0),
        "eq input other": lambda lib: lib.eq(input=x(lib), other=2.0),
        "transpose input dim0 dim1": lambda lib: lib.transpose(input=x(lib), dim0=0, dim1=1),
        "flatten input": lambda lib: lib.flatten(input=x(lib)),
        "topk input k": lambda lib: lib.topk(input=x(lib), k=2).values,
        "x.add(other=)": lambda lib: x(lib).add(other=x(lib), alpha=3),
        "x.matmul(other=)": lambda lib: x(lib).matmul(other=x(lib).T),
        "x.mul(other=)": lambda lib: x(lib).mul(other=3),
        "x.pow(exponent=)": lambda lib: x(lib).pow(exponent=3),
        "add bad keyword": lambda lib: lib.add(inputs=x(lib), other=1),
        "range rows": lambda lib: x(lib)[range(2)],
        "range columns": lambda lib: x(lib)[:, range(1, 3)],
        "range with step": lambda lib: x(lib)[0, range(0, 3, 2)],
        "list rows": lambda lib: x(lib)[[0, 1]],
        "list of lists": lambda lib: x(lib)[[0, 1], [2, 0]],
        "bool list columns": lambda lib: x(lib)[:, [True, False, True]],
        "bool list rows": lambda lib: x(lib)[[True, False]],
        "range out of bounds": lambda lib: x(lib)[range(3)],
        "float list rows": lambda lib: x(lib)[[0.5, 1.9]],  # (rounded toward zero, in both)
        "float and bool list columns": lambda lib: x(lib)[:, [2.5, True]],
        "empty list": lambda lib: x(lib)[[]],
    }
)


def _result(value: Any) -> Any:
    # max/min(dim) return (values, indices) pairs; compare their parts
    return tuple(value) if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("name", CASES)
def test_argument_matches_torch(name: str, torch_module: ModuleType) -> None:
    mt, t = outcome(CASES[name], microtorch), outcome(CASES[name], torch_module)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1], (mt, t)
        # A TypeError for a keyword that does not exist: Python's text here, PyTorch's
        # argument parser's there (which lists the signatures): only the type is compared.
        if t[1] != "TypeError":
            assert mt[2].startswith(t[2]), (mt, t)
        return
    for m, tt in zip(_result(mt[1]), _result(t[1]), strict=True):
        same(m, tt)


@pytest.mark.parametrize(
    "index",
    [range(2), [0, 2], [True, False, True], (range(1, 3),), [1.5, -0.5]],
    ids=["range", "list", "bool list", "range in tuple", "float list"],
)
def test_range_and_list_indices_pass_gradients_and_assign(
    index: Any, torch_module: ModuleType
) -> None:
    def run(lib: ModuleType) -> Any:
        y = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        z = y[index]
        z.backward(lib.arange(1.0, 3.0))
        t = lib.zeros(3)
        t[index] = 5.0
        return z, y.grad, t

    for m, t in zip(run(microtorch), run(torch_module)):
        same(m, t)
    assert np.array_equal(run(microtorch)[1].numpy(), run(torch_module)[1].numpy())


def _into(fn: Callable[[Any, Any], Any], make_out: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A case writing ``fn``'s result into ``make_out(lib)``: (is it out?, out, warnings)."""

    def run(lib: ModuleType) -> Any:
        out = make_out(lib)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = fn(lib, out)
        messages = tuple(str(w.message).split(" (Triggered internally")[0] for w in caught)
        return result is out, out, messages

    return run


def _a(lib: ModuleType) -> Any:
    return lib.tensor([1.0, 2.0])


def _b(lib: ModuleType) -> Any:
    return lib.tensor([3.0, 4.0])


OUT_CASES: dict[str, Callable[[Any], Any]] = {
    "add": _into(lambda lib, o: lib.add(_a(lib), _b(lib), out=o), lambda lib: lib.empty(2)),
    "add resizes empty": _into(
        lambda lib, o: lib.add(_a(lib), _b(lib), out=o), lambda lib: lib.empty(0)
    ),
    "add resizes with warning": _into(
        lambda lib, o: lib.add(_a(lib), _b(lib), out=o), lambda lib: lib.empty(3)
    ),
    "add 2-d out resized": _into(
        lambda lib, o: lib.add(_a(lib), _b(lib), out=o), lambda lib: lib.empty(2, 2)
    ),
    "add into int": _into(
        lambda lib, o: lib.add(_a(lib), _b(lib), out=o),
        lambda lib: lib.empty(2, dtype=lib.int64),
    ),
    "int add into float": _into(
        lambda lib, o: lib.add(lib.tensor([1, 2]), 1, out=o), lambda lib: lib.empty(2)
    ),
    "add into float64": _into(
        lambda lib, o: lib.add(_a(lib), _b(lib), out=o),
        lambda lib: lib.empty(2, dtype=lib.float64),
    ),
    "add out requires grad": _into(
        lambda lib, o: lib.add(_a(lib), _b(lib), out=o),
        lambda lib: lib.empty(2, requires_grad=True),
    ),
    "add input requires grad": _into(
        lambda lib, o: lib.add(_a(lib).requires_grad_(), _b(lib), out=o),
        lambda lib: lib.empty(2),
    ),
    "add under no_grad": _into(
        lambda lib, o: _no_grad(lib, lambda: lib.add(_a(lib).requires_grad_(), 1, out=o)),
        lambda lib: lib.empty(2),
    ),
    "add into a view": _into(
        lambda lib, o: lib.add(_a(lib), _b(lib), out=o), lambda lib: lib.zeros(4)[:2]
    ),
    "add into an input": _into(lambda lib, o: lib.add(o, _b(lib), out=o), _a),
    "sub alpha": _into(
        lambda lib, o: lib.sub(_a(lib), _b(lib), alpha=2, out=o), lambda lib: lib.empty(2)
    ),
    "mul": _into(lambda lib, o: lib.mul(_a(lib), 2, out=o), lambda lib: lib.empty(2)),
    "mul into int32": _into(
        lambda lib, o: lib.mul(_a(lib), 2, out=o), lambda lib: lib.empty(2, dtype=lib.int32)
    ),
    "div": _into(lambda lib, o: lib.div(_a(lib), _b(lib), out=o), lambda lib: lib.empty(2)),
    "div floor": _into(
        lambda lib, o: lib.div(_a(lib), _b(lib), rounding_mode="floor", out=o),
        lambda lib: lib.empty(2),
    ),
    "matmul": _into(
        lambda lib, o: lib.matmul(lib.ones(2, 2), lib.ones(2, 2), out=o),
        lambda lib: lib.empty(2, 2),
    ),
    "mm resizes": _into(
        lambda lib, o: lib.mm(lib.ones(2, 3), lib.ones(3, 2), out=o), lambda lib: lib.empty(0)
    ),
    "cat": _into(lambda lib, o: lib.cat([_a(lib), _b(lib)], out=o), lambda lib: lib.empty(4)),
    "cat requires grad": _into(
        lambda lib, o: lib.cat([_a(lib).requires_grad_(), _b(lib)], out=o),
        lambda lib: lib.empty(4),
    ),
    "stack": _into(
        lambda lib, o: lib.stack([_a(lib), _b(lib)], out=o), lambda lib: lib.empty(2, 2)
    ),
    "sum dim": _into(lambda lib, o: lib.sum(lib.ones(2, 2), 0, out=o), lambda lib: lib.empty(2)),
    "mean dim": _into(lambda lib, o: lib.mean(lib.ones(2, 2), 0, out=o), lambda lib: lib.empty(2)),
    "exp": _into(lambda lib, o: lib.exp(_a(lib), out=o), lambda lib: lib.empty(2)),
    "clamp": _into(lambda lib, o: lib.clamp(_a(lib), min=1.5, out=o), lambda lib: lib.empty(2)),
    "cumsum": _into(lambda lib, o: lib.cumsum(_a(lib), 0, out=o), lambda lib: lib.empty(2)),
    "out None": lambda lib: lib.add(_a(lib), _b(lib), out=None),
}


def _no_grad(lib: ModuleType, fn: Callable[[], Any]) -> Any:
    with lib.no_grad():
        return fn()


@pytest.mark.parametrize("name", OUT_CASES)
def test_out_argument_matches_torch(name: str, torch_module: ModuleType) -> None:
    mt, t = outcome(OUT_CASES[name], microtorch), outcome(OUT_CASES[name], torch_module)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
        return
    if not isinstance(t[1], tuple):
        same(mt[1], t[1])
        return
    (m_is, m_out, m_warn), (t_is, t_out, t_warn) = mt[1], t[1]
    assert m_is == t_is and m_warn == t_warn
    same(m_out, t_out)


def test_out_bumps_the_version_of_what_it_writes() -> None:
    out = microtorch.zeros(2)
    before = out._version
    microtorch.add(microtorch.ones(2), 1, out=out)
    assert out._version > before and out.tolist() == [2.0, 2.0]


LEGACY = [(True, None), (False, None), (None, False), (True, False), (False, True), (None, True)]
LOSS_MODULES = ["MSELoss", "L1Loss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss"]


def _loss_inputs(lib: ModuleType, name: str) -> tuple[Any, Any]:
    if name in ("NLLLoss", "CrossEntropyLoss"):
        logits = lib.tensor([[0.1, -1.0, 2.0], [0.5, 0.2, -0.3]], requires_grad=True)
        return (logits.log_softmax(1) if name == "NLLLoss" else logits), lib.tensor([2, 0])
    p = lib.tensor([0.2, 0.7, 0.9], requires_grad=True)
    return p, lib.tensor([0.0, 1.0, 1.0])


def _warned(fn: Callable[[], Any]) -> tuple[Any, tuple[str, ...]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, tuple(f"{w.category.__name__}: {w.message}" for w in caught)


@pytest.mark.parametrize("name", LOSS_MODULES)
@pytest.mark.parametrize(("size_average", "reduce"), LEGACY)
def test_deprecated_size_average_and_reduce_map_as_in_torch(
    name: str, size_average: Any, reduce: Any, torch_module: ModuleType
) -> None:
    def run(lib: ModuleType) -> Any:
        module, warned = _warned(
            lambda: getattr(lib.nn, name)(size_average=size_average, reduce=reduce)
        )
        return module.reduction, warned, module(*_loss_inputs(lib, name))

    (m_red, m_warn, m_loss), (t_red, t_warn, t_loss) = run(microtorch), run(torch_module)
    assert (m_red, m_warn) == (t_red, t_warn)
    same(m_loss, t_loss)


FUNCTIONAL = {
    "mse_loss": "MSELoss",
    "l1_loss": "L1Loss",
    "nll_loss": "NLLLoss",
    "cross_entropy": "CrossEntropyLoss",
    "binary_cross_entropy": "BCELoss",
    "binary_cross_entropy_with_logits": "BCEWithLogitsLoss",
}


@pytest.mark.parametrize("name", FUNCTIONAL)
def test_functional_losses_take_size_average_and_reduce(
    name: str, torch_module: ModuleType
) -> None:
    def run(lib: ModuleType) -> Any:
        fn = getattr(lib.nn.functional, name)
        args = _loss_inputs(lib, FUNCTIONAL[name])
        loss, warned = _warned(lambda: fn(*args, size_average=False))
        plain, none_warned = _warned(lambda: fn(*args, reduce=None, size_average=None))
        return loss, warned, plain, none_warned

    (m_loss, m_warn, m_plain, m_none), (t_loss, t_warn, t_plain, t_none) = (
        run(microtorch),
        run(torch_module),
    )
    assert m_warn == t_warn and m_none == t_none == ()
    same(m_loss, t_loss)
    same(m_plain, t_plain)


def test_loss_modules_take_torchs_positional_order(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        loss = lib.nn.CrossEntropyLoss(None, None, 1, None, "sum")
        assert (loss.ignore_index, loss.reduction) == (1, "sum")
        loss = lib.nn.NLLLoss(None, None, 2)
        assert loss.ignore_index == 2

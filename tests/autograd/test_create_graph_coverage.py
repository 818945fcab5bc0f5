# ruff: noqa: E501 - a table: one class per line
"""Which of microtorch's autograd Functions a second-derivative test exercises (issue 23).

Every ``Function`` subclass in the package is found by walking ``Function.__subclasses__``
after importing every module of microtorch. A class counts as covered when one of its nodes is
in the forward graph of a case that the create_graph tests differentiate twice and compare
with torch 2.13 (the op table, tests/nn/cases.py, the layer table, test_create_graph_more's
cases and its cases that must raise as torch does, minus its known gaps). Each class that is
not covered is listed in NOT_COVERED with the reason, so the claim "every op with a first
derivative has its second, equal to torch's" can be checked and stays true as ops are added.
"""

from __future__ import annotations

import importlib
import pkgutil
import warnings
from typing import Any

import pytest

import microtorch
from microtorch.autograd.double_backward import FormulaBackward
from microtorch.autograd.function import Function

pytest.importorskip("torch")

_BASE = "abstract base: never applied itself, its subclasses are"
_NO_FIRST = (
    "no derivative in PyTorch either: backward raises PyTorch's 'derivative for ... is not "
    "implemented'"
)
_INNER = (
    "an in-place write into a view: its node runs inside CopySlices, which the graph walk "
    "does not open (test_create_graph_more's fill_, zero_, copy_ cases run it)"
)

# class (module.qualname) -> why no second-derivative test compares it with torch
NOT_COVERED = {
    "microtorch.autograd.function.Function": "the base of user Functions (test_create_graph's Cube is one)",
    "microtorch.autograd.function.NumpyFunction": _BASE,
    "microtorch.nn.conv_ops.OptionalInputs": _BASE,
    "microtorch.nn.pad_ops.CopyPad": _BASE + " (one per mode and number of dims)",
    "microtorch.ops.linalg._Product": _BASE,
    "microtorch.ops.reduction._Extreme": _BASE,
    "microtorch.ops.reduction._SelectAlong": _BASE,
    "microtorch.ops.rounding._Step": _BASE,
    "microtorch.ops.sorting._TakeAlong": _BASE,
    "microtorch.ops.division.FloorDivide": _NO_FIRST,
    "microtorch.ops.division.RFloorDivide": _NO_FIRST,
    "microtorch.ops.division.RRemainder": _NO_FIRST,
    "microtorch.ops.histogram.Histogram": _NO_FIRST,
    "microtorch.ops.histogram.Histogramdd": _NO_FIRST,  # (walkg)
    "microtorch.ops.unique.Unique2": _NO_FIRST,
    "microtorch.ops.ldl.LinalgLdlFactorEx": _NO_FIRST,  # (walkh)
    "microtorch.ops.ldl.LinalgLdlSolve": _NO_FIRST,
    "microtorch.nn.embedding_bag_ops.EmbeddingBagBackward": "the node of embedding_bag's recorded gradient, in no forward graph; "
    + _NO_FIRST + " (test_create_graph_more's embedding_bag cases raise it)",
    "microtorch.nn.embedding_bag_ops.PerSampleWeightsBackward": "as EmbeddingBagBackward",
    "microtorch.ops.index_reduce.DelayedError": "the node of index_reduce prod's recorded source gradient where two zeros meet, in no forward graph; "
    + _NO_FIRST + " (test_create_graph_more's index_reduce_prod_zeros raises it)",
    "microtorch.ops.linalg_triangular.LinalgSolveExInfo": "solve_ex of a singular matrix only: "
    "its solution is nan, PyTorch's LAPACK's inf and nan, so no values to compare",
    "microtorch.ops.gamma_sampling.StandardGammaGrad": "StandardGammaBackward0's formula records it (test_create_graph_more's standard_gamma case raises its error); "
    + _NO_FIRST,
    "microtorch.ops.inplace.Copy": _INNER,
    "microtorch.ops.inplace.Fill": _INNER,
    "microtorch.ops.inplace.FillTensor": _INNER,
    "microtorch.ops.inplace.Zero": _INNER,
    "microtorch.ops.products._AddProduct": _BASE,
    "microtorch.ops.unique.UniqueConsecutive": _NO_FIRST,
    "microtorch.ops.sampling.Binomial": _NO_FIRST,  # (walkg)
    "microtorch.ops.scatter.ScatterCombine": _NO_FIRST + " (scatter's deprecated reduce=: tests/ops/test_kw3_scatter_reduce_arg.py)",
    "microtorch.nn.linear_cross_entropy_ops._Unrecorded": _BASE + " (walki)",
    "microtorch.nn.linear_cross_entropy_ops.LinearCrossEntropyChunked": "PyTorch's chunked linear_cross_entropy has no second derivative: its gradient carries no graph, as here (test_walki_linear_cross_entropy)",
    "microtorch.nn.linear_cross_entropy_ops.LinearCrossEntropyChunkedNoReduction": "as LinearCrossEntropyChunked",
}  # fmt: skip


def _classes() -> dict[str, type]:
    for info in pkgutil.walk_packages(microtorch.__path__, "microtorch."):
        if not info.name.startswith(("microtorch.viz", "microtorch.widgets")):
            importlib.import_module(info.name)
    found, stack = {}, [Function]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("microtorch.") and not issubclass(cls, FormulaBackward):
            found[f"{cls.__module__}.{cls.__qualname__}"] = cls  # (FormulaBackward: the
            # double-backward node itself, one class per name made as they are needed)
    return found


def _walk(out: Any, seen: set[type]) -> None:
    outs = out if isinstance(out, (tuple, list)) else (out,)
    stack = [o.grad_fn for o in outs if isinstance(o, microtorch.Tensor)]
    visited = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in visited:
            continue
        visited.add(id(node))
        fn = getattr(type(node), "_function", None)
        if fn is not None:
            seen.add(fn)
        stack.extend(f for f, _ in node.next_functions)


def _exercised() -> set[type]:
    from tests.autograd import test_create_graph_layers as layers  # noqa: PLC0415
    from tests.autograd import test_create_graph_more as more  # noqa: PLC0415
    from tests.nn.cases import CASES, X  # noqa: PLC0415
    from tests.ops.optable import OPS, inputs_for  # noqa: PLC0415

    mt, seen = microtorch, set()
    for spec in OPS:
        xs = inputs_for(spec, seed=3)
        _walk(
            spec.call(mt, *[mt.tensor(x, dtype=mt.float64, requires_grad=True) for x in xs]), seen
        )
    for call in CASES.values():
        _walk(call(mt, mt.tensor(X, requires_grad=True)), seen)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for call in layers.CASES.values():
            _walk(call(mt, mt.tensor(layers.X, dtype=mt.float64, requires_grad=True)), seen)
        for table in (more.CASES, more.RAISES):
            for name, (shape, domain, call) in table.items():
                if name not in more.GAPS:
                    x = mt.tensor(more._inputs(shape, domain), dtype=mt.float64, requires_grad=True)
                    _walk(call(mt, x), seen)
    return seen


def test_every_function_has_a_second_derivative_test_or_a_reason() -> None:
    classes, seen = _classes(), _exercised()
    uncovered = {name for name, cls in classes.items() if cls not in seen}
    assert sorted(uncovered - set(NOT_COVERED)) == []  # (a new op: add its case, or a reason)
    assert sorted(set(NOT_COVERED) - uncovered) == []  # (covered since, or gone: off the list)

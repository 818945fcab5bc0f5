"""docs/api_coverage.md stays true: what it calls implemented exists, what it calls not covered
raises NotImplementedError with its advice (and exists in PyTorch 2.13), and every public name
of microtorch appears in it. Also: the not-covered errors leave hasattr, copy, pickle and numpy
alone, and PyTorch's aliases are the functions they name."""

from __future__ import annotations

import copy
import inspect
import pickle
import re
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

import microtorch
from microtorch._coverage import NOT_COVERED, NotCoveredError

TABLE = Path(__file__).parents[1] / "docs" / "api_coverage.md"
STATUSES = {"implemented", "not covered", "microtorch only"}


class Row(NamedTuple):
    name: str  # e.g. torch.nn.Linear, or microtorch.autograd.iter_backward
    status: str
    pending: str  # the branch still to be merged that implements it, or ""
    advice: str  # what to use instead, for "not covered"


def _unescape(cell: str) -> str:
    return re.sub(r"\\(.)", r"\1", cell.strip())


def _rows() -> list[Row]:
    rows = []
    for line in TABLE.read_text().splitlines():
        if line.startswith("| `"):
            cells = re.split(r"(?<!\\)\|", line)[1:-1]  # a cell may hold an escaped \|
            name, status, pending, advice = (_unescape(c) for c in cells)
            rows.append(Row(name.strip("`"), status, pending, advice))
    return rows


ROWS = _rows()
IMPLEMENTED = [r for r in ROWS if r.status == "implemented"]
NOT_COVERED_ROWS = [r for r in ROWS if r.status == "not covered"]


def _resolve(root: Any, dotted: str) -> Any:
    """``torch.nn.Linear`` looked up from ``root`` (torch or microtorch), one attribute a time."""
    obj = root
    for part in dotted.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _split(name: str) -> tuple[str, str]:
    namespace, _, attr = name.rpartition(".")
    return namespace, attr


def test_the_table_is_well_formed() -> None:
    names = [r.name for r in ROWS]
    assert len(ROWS) > 500 and len(names) == len(set(names))
    assert {r.status for r in ROWS} == STATUSES
    for r in ROWS:
        assert r.name.startswith("microtorch." if r.status == "microtorch only" else "torch."), r
        assert bool(r.advice) == (r.status == "not covered"), r
        assert r.pending in ("", "ops", "layers") and not (r.pending and r.status != "implemented")


def _pending(row: Row) -> None:
    if row.pending:
        pytest.skip(f"{row.name} is implemented on the {row.pending} branch, not merged yet")


@pytest.mark.parametrize("row", IMPLEMENTED, ids=lambda r: r.name)
def test_implemented_names_exist(row: Row) -> None:
    namespace, attr = _split(row.name)
    owner = _resolve(microtorch, namespace)
    if not hasattr(owner, attr):
        _pending(row)
    assert hasattr(owner, attr), f"{row.name} is listed as implemented"


@pytest.mark.parametrize("row", IMPLEMENTED, ids=lambda r: r.name)
def test_implemented_names_are_callable_where_pytorchs_are(row: Row, torch_module) -> None:
    namespace, attr = _split(row.name)
    ours = getattr(_resolve(microtorch, namespace), attr, None)
    if ours is None:
        _pending(row)
    assert callable(ours) == callable(_resolve(torch_module, row.name)), row.name


# Instances on which not-covered methods are looked up; on the class too, for Tensor only.
INSTANCES = {"torch.Tensor": lambda: microtorch.ones(2), "torch.nn.Module": microtorch.nn.Module}


@pytest.mark.parametrize("row", NOT_COVERED_ROWS, ids=lambda r: r.name)
def test_not_covered_names_raise_with_the_documented_advice(row: Row) -> None:
    expected = f"microtorch does not cover {row.name} ({row.advice}); see docs/api_coverage.md"
    namespace, attr = _split(row.name)
    owners = [_resolve(microtorch, namespace)]
    if namespace in INSTANCES:
        owners = [INSTANCES[namespace]()] + owners[: namespace == "torch.Tensor"]
    for owner in owners:
        with pytest.raises(NotImplementedError) as error:
            getattr(owner, attr)
        assert str(error.value) == expected


def test_every_listed_name_is_pytorchs_and_microtorch_only_ones_are_not(torch_module) -> None:
    absent = []
    for r in ROWS:
        try:
            _resolve(torch_module, r.name.replace("microtorch.", "torch.", 1))
            exists = True
        except AttributeError:
            exists = False
        if exists == (r.status == "microtorch only"):
            absent.append(r.name)
    assert absent == [], "not in PyTorch 2.13 (or, for microtorch-only names, in it)"


def test_the_not_covered_rows_are_the_advice_table() -> None:
    table = {(*_split(r.name), r.advice) for r in NOT_COVERED_ROWS}
    code = {
        (ns, name, advice) for ns, names in NOT_COVERED.items() for name, advice in names.items()
    }
    assert table == code


def _public() -> set[str]:
    """Every public name of microtorch's PyTorch-facing modules and classes, fully qualified."""
    modules = {
        "torch": microtorch, "torch.nn": microtorch.nn,
        "torch.nn.functional": microtorch.nn.functional,
        "torch.nn.init": microtorch.nn.init, "torch.nn.utils": microtorch.nn.utils,
        "torch.optim": microtorch.optim, "torch.optim.lr_scheduler": microtorch.optim.lr_scheduler,
        "torch.autograd": microtorch.autograd,
        "torch.autograd.functional": microtorch.autograd.functional,
        "torch.utils.data": microtorch.utils.data,
        "torch.cuda": microtorch.cuda, "torch.testing": microtorch.testing,
        "torch.backends": microtorch.backends, "torch.backends.cuda": microtorch.backends.cuda,
        "torch.backends.cudnn": microtorch.backends.cudnn,
        "torch.backends.mps": microtorch.backends.mps, "torch.random": microtorch.random,
        "torch.linalg": microtorch.linalg, "torch.functional": microtorch.functional,
        "torch.special": microtorch.special,
        "torch.profiler": microtorch.profiler,
        "torch.autograd.profiler": microtorch.autograd.profiler,
        "torch.distributions": microtorch.distributions,
    }  # fmt: skip
    names = {f"{ns}.{n}" for ns, module in modules.items() for n in module.__all__}
    classes = {
        "torch.Tensor": microtorch.Tensor, "torch.nn.Module": microtorch.nn.Module,
        "torch.optim.Optimizer": microtorch.optim.Optimizer,
    }  # fmt: skip
    names |= {f"{ns}.{n}" for ns, cls in classes.items() for n in dir(cls) if n[0] != "_"}
    return names


def test_the_readme_states_the_counts() -> None:
    readme = (TABLE.parents[1] / "README.md").read_text()
    found = re.search(r"implements \((\d+) names\).*does not cover \((\d+) names\)", readme)
    assert found, "README.md: say how many names docs/api_coverage.md lists"
    assert (int(found[1]), int(found[2])) == (len(IMPLEMENTED), len(NOT_COVERED_ROWS)), (
        "update the counts in README.md"
    )


def test_every_public_name_of_microtorch_is_listed() -> None:
    listed = {r.name.replace("microtorch.", "torch.", 1) for r in ROWS}
    assert sorted(_public() - listed) == [], "add these to docs/api_coverage.md"


# --- the errors ------------------------------------------------------------------------------
def test_hasattr_and_getattr_with_a_default_answer_absent() -> None:
    x = microtorch.ones(2)
    assert not hasattr(microtorch, "compile") and not hasattr(
        microtorch.nn.functional, "grid_sample"
    )
    assert not hasattr(x, "to_sparse") and not hasattr(microtorch.Tensor, "to_sparse")
    assert not hasattr(microtorch.nn.Linear(1, 1), "half")
    assert getattr(microtorch.nn, "DataParallel", None) is None
    assert isinstance(NotCoveredError("m"), AttributeError)
    assert "to_sparse" not in dir(x) and "fft" not in dir(microtorch)


@pytest.mark.parametrize(
    "access",
    [
        lambda t: t.zeross,
        lambda t: t.nn.Linearr,
        lambda t: t.nn.functional.reluu,
        lambda t: t.ones(2).sizee,
        lambda t: t.Tensor.sizee,
        lambda t: t.nn.Linear(1, 1).weightt,
    ],
    ids=["torch", "nn", "functional", "tensor", "Tensor", "module"],
)
def test_other_missing_names_raise_pythons_attribute_error(access, torch_module) -> None:
    with pytest.raises(AttributeError) as theirs:
        access(torch_module)
    with pytest.raises(AttributeError) as ours:
        access(microtorch)
    assert type(ours.value) is AttributeError
    assert str(ours.value) == str(theirs.value).replace("'torch", "'microtorch")
    assert ours.value.name == theirs.value.name  # so Python suggests "Did you mean ...?"


def test_a_property_that_fails_shows_its_own_error() -> None:
    unfinished = object.__new__(microtorch.Tensor)  # no _data yet
    with pytest.raises(AttributeError, match="'_data'"):
        _ = unfinished.shape


def test_copy_pickle_and_numpy_still_work() -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    p = microtorch.nn.Parameter(microtorch.ones(2))
    for t in (x, p):
        for made in (copy.copy(t), copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
            assert type(made) is type(t) and made.tolist() == t.tolist()
            assert made.requires_grad
    assert np.asarray(x).tolist() == [1.0, 2.0] and np.array(x).dtype == np.float32
    assert (np.float32(2) * x).tolist() == [2.0, 4.0]


# --- aliases ---------------------------------------------------------------------------------
ALIASES = [
    ("concat", "cat"), ("concatenate", "cat"), ("absolute", "abs"), ("negative", "neg"),
    ("multiply", "mul"), ("divide", "div"), ("subtract", "sub"), ("swapaxes", "transpose"),
    ("swapdims", "transpose"),
]  # fmt: skip
TENSOR_ALIASES = [
    ("absolute", "abs"), ("negative", "neg"), ("multiply", "mul"), ("divide", "div"),
    ("subtract", "sub"), ("swapaxes", "transpose"), ("swapdims", "transpose"),
    ("ndimension", "dim"), ("logical_and", None), ("logical_or", None),
]  # fmt: skip


def test_aliases_are_the_functions_they_name(torch_module) -> None:
    # (the same op: a binary function's alias is it behind its own argument parser, so that
    # its errors name the alias, as PyTorch's do: api/binary_functions.py)
    for alias, name in ALIASES:
        assert inspect.unwrap(getattr(microtorch, alias)) is inspect.unwrap(
            getattr(microtorch, name)
        )
    # (torch.square is the method, behind PyTorch's keyword names: torch.square(input=x))
    assert inspect.unwrap(microtorch.square) is microtorch.Tensor.square
    for alias, name in TENSOR_ALIASES:
        ours = getattr(microtorch.Tensor, alias)
        same = getattr(microtorch, alias) if name is None else getattr(microtorch.Tensor, name)
        assert inspect.unwrap(ours) is inspect.unwrap(same)
    # ... and in PyTorch they give what the functions they name give
    a = torch_module.tensor([[1.0, -2.0]])
    assert torch_module.equal(torch_module.concat([a, a]), torch_module.cat([a, a]))
    assert torch_module.equal(torch_module.swapaxes(a, 0, 1), torch_module.transpose(a, 0, 1))
    assert torch_module.equal(a.absolute(), a.abs()) and a.ndimension() == a.dim()


def test_aliases_give_pytorchs_values(torch_module) -> None:
    data = [[1.0, -2.0], [3.0, 0.5]]
    for t in (torch_module, microtorch):
        a, b = t.tensor(data), t.tensor(data).t()
        got = [
            t.concat([a, b]), t.absolute(a), t.negative(a), t.multiply(a, b), t.divide(a, b),
            t.subtract(a, b), t.square(a), t.swapdims(a, 0, 1), a.logical_and(b > 0),
        ]  # fmt: skip
        if t is torch_module:
            theirs = [g.tolist() for g in got]
        else:
            assert [g.tolist() for g in got] == theirs

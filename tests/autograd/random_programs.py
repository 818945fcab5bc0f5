"""Random programs, run statement by statement in microtorch and in PyTorch and compared.

A program is Python source over a pool of named tensors (``t0``, ``t1``, ...), a list ``log``
that tensor hooks append to, ``torch`` and ``F`` (``torch.nn.functional``). The same text runs
in both libraries (``torch`` is microtorch on one side), so any failure prints a program that
anyone can paste into either. After every statement the runner compares every live name: type,
shape, dtype, values, ``.grad``, ``requires_grad``, ``is_leaf``, ``grad_fn`` name, ``_version``,
which names are the same object, the hook log, any exception (type, and PyTorch's message as
the start of microtorch's) and warnings (microtorch must not let numpy warn; user warnings
must be PyTorch's).

Statements come from *families* that can be switched on by name (``FAMILIES``):
``PASSING_FAMILIES`` run in CI today; ``PENDING_ISSUE_12`` hold the ones that still find
mismatches on the current autograd (issue 12), to be switched on as it is fixed.
The deliberate differences (README, "Where microtorch differs") are in ``DELIBERATE``, each
matched by a precise predicate; any other difference is a mismatch.

Run thousands and print minimised failing programs::

    python -m tests.autograd.random_programs --programs 5000 --seed 1
    python -m tests.autograd.random_programs --families all --programs 2000
    python -m tests.autograd.random_programs --families view,inplace_view --show 3
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

import microtorch

NAME = re.compile(r"\bt\d+\b")
HEADER = "import torch\nimport torch.nn.functional as F\nlog = []\n"
SHAPES: tuple[tuple[int, ...], ...] = ((3,), (2, 3), (3, 2), (2, 2), (), (1, 3), (2, 1), (4,))
# (rtol, atol). float64 is compared tightly only in programs that never touch float32: a
# float32 value promoted to float64 carries float32's rounding into the float64 results.
TOLERANCE = {"float32": (1e-4, 1e-5), "float64": (1e-9, 1e-11)}
FLOAT32 = re.compile(r"float32|torch\.(ones|zeros)\(")


# --------------------------------------------------------------------------- running


@dataclass
class Outcome:
    """What one statement did on one side: the exception raised and the warnings shown."""

    error: tuple[str, str] | None = None  # (type name, message)
    warnings: list[tuple[str, str, str]] = field(default_factory=list)  # (category, text, file)


class Side:
    """One library's namespace, in which the program's statements run one after another."""

    def __init__(self, lib: ModuleType) -> None:
        self.lib = lib
        self.ns: dict[str, Any] = {"torch": lib, "F": lib.nn.functional, "log": []}
        self.dtype = "float64"  # the tolerance for float64 values: float32 once one was made
        self.seen: dict[str, tuple[int, int]] = {}  # name -> (id, _version when first seen)

    def version_change(self, name: str, t: Any) -> Any:
        """How far ``t._version`` moved since the name was bound: PyTorch's kernels may bump
        a fresh result's count (matmul's ``out=``, a gradient's accumulation), a detail of
        theirs; what in-place changes do to it afterwards is compared."""
        version = _read(t, "_version")
        if not isinstance(version, int):
            return version
        if name not in self.seen or self.seen[name][0] != id(t):
            self.seen[name] = (id(t), version)
        return version - self.seen[name][1]

    def run(self, source: str) -> Outcome:
        outcome = Outcome()
        if FLOAT32.search(source):
            self.dtype = "float32"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(compile(source, "<program>", "exec"), self.ns)  # noqa: S102
            except Exception as error:  # the other side must raise the same
                outcome.error = (type(error).__name__, str(error))
        outcome.warnings = [(w.category.__name__, str(w.message), w.filename) for w in caught]
        return outcome

    def tensors(self) -> dict[str, Any]:
        """The live program names (``t0``, ``t1``...), in creation order."""
        names = [k for k in self.ns if NAME.fullmatch(k)]
        return {k: self.ns[k] for k in sorted(names, key=lambda k: int(k[1:]))}


def _is_tensor(value: Any) -> bool:
    return type(value).__name__ in ("Tensor", "Parameter")


def _read(t: Any, attr: str) -> Any:
    """``t.<attr>``, or what reading it raised (PyTorch refuses some reads, e.g. the grad_fn
    of a view from ``unbind`` whose base changed in place), as a comparable string."""
    try:
        value = getattr(t, attr)
    except Exception as error:
        return f"raises {type(error).__name__}: {_torch_text(_normalise(str(error)))[:80]}"
    if attr == "grad_fn":
        return None if value is None else value.name()
    return value


def _dtype(t: Any) -> str:
    return str(t.dtype).split(".")[-1]


def _array(t: Any) -> np.ndarray:
    return np.asarray(t.detach().numpy())


def _grad(t: Any) -> Any:
    with warnings.catch_warnings():  # reading a non-leaf's .grad warns; the statement may not
        warnings.simplefilter("ignore")
        return t.grad


def _same_values(a: np.ndarray, b: np.ndarray, dtype: str, loosest: str = "float32") -> bool:
    if a.shape != b.shape:
        return False
    if dtype not in TOLERANCE:
        return bool(np.array_equal(a, b))
    rtol, atol = TOLERANCE[loosest if dtype == "float64" else dtype]
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


def _show(t: Any) -> str:
    if not _is_tensor(t):
        return repr(t)
    return f"{_array(t).tolist()} ({_dtype(t)})"


@dataclass
class Mismatch:
    kind: str  # e.g. "value", "grad", "error-extra" (microtorch raised, PyTorch did not)
    name: str  # the tensor it is about, or "" for the statement itself
    torch: str
    microtorch: str

    def __str__(self) -> str:
        about = f" of {self.name}" if self.name else ""
        return (
            f"{self.kind}{about}:\n    torch:      {self.torch}\n    microtorch: {self.microtorch}"
        )


def _normalise(text: str) -> str:
    return text.replace("microtorch.", "torch.")


def _torch_text(text: str) -> str:
    # PyTorch's first line, without the C++ location it appends to warnings
    return text.split("\n")[0].split(" (Triggered internally at")[0]


def compare_outcomes(t: Outcome, m: Outcome) -> list[Mismatch]:
    out: list[Mismatch] = []
    if t.error and not m.error:
        out.append(Mismatch("error-missing", "", f"{t.error[0]}: {t.error[1]}", "no error"))
    elif m.error and not t.error:
        out.append(Mismatch("error-extra", "", "no error", f"{m.error[0]}: {m.error[1]}"))
    elif t.error and m.error:
        if t.error[0] != m.error[0]:
            torch_error, ours = f"{t.error[0]}: {t.error[1]}", f"{m.error[0]}: {m.error[1]}"
            out.append(Mismatch("error-type", "", torch_error, ours))
        elif not _normalise(m.error[1]).startswith(_torch_text(t.error[1])):
            out.append(Mismatch("error-text", "", t.error[1], m.error[1]))
    numpy_warnings = [w for w in m.warnings if w[0] == "RuntimeWarning" and "numpy" in w[2]]
    if numpy_warnings:
        out.append(Mismatch("numpy-warning", "", "no warning", numpy_warnings[0][1]))
    t_user = [_torch_text(w[1]) for w in t.warnings if w[0] != "RuntimeWarning"]
    m_user = [_normalise(w[1]) for w in m.warnings if w[0] != "RuntimeWarning"]
    if len(t_user) != len(m_user) or not all(b.startswith(a) for a, b in zip(t_user, m_user)):
        out.append(Mismatch("warning", "", repr(t_user), repr(m_user)))
    return out


def compare_state(t_side: Side, m_side: Side) -> list[Mismatch]:
    """Every difference between the live names of the two sides, and their hook logs."""
    out: list[Mismatch] = []
    t_all, m_all = t_side.tensors(), m_side.tensors()
    if list(t_all) != list(m_all):
        return [Mismatch("names", "", repr(list(t_all)), repr(list(m_all)))]
    for name, t in t_all.items():
        out += _compare_value(name, t, m_all[name], t_side.dtype)
        if _is_tensor(t) and _is_tensor(m_all[name]):
            tv, mv = t_side.version_change(name, t), m_side.version_change(name, m_all[name])
            if tv != mv:
                out.append(Mismatch("_version", name, f"+{tv}", f"+{mv}"))
    # the same object under two names in one library must be so in the other (a += b, x.data)
    # (not for PyTorch's zero-stride gradients: autograd.grad may return one object twice)
    names = [n for n in t_all if not _is_tensor(t_all[n]) or _writable(t_all[n])]
    t_ids = [sorted(n for n in names if t_all[n] is t_all[k]) for k in names]
    m_ids = [sorted(n for n in names if m_all[n] is m_all[k]) for k in names]
    if t_ids != m_ids:
        out.append(Mismatch("identity", "", repr(t_ids), repr(m_ids)))
    out += _compare_log(t_side.ns["log"], m_side.ns["log"])
    return out


def _compare_value(name: str, t: Any, m: Any, loosest: str) -> list[Mismatch]:
    if not _is_tensor(t) or not _is_tensor(m):
        if _is_tensor(t) or _is_tensor(m) or type(t).__name__ != type(m).__name__:
            return [Mismatch("type", name, type(t).__name__, type(m).__name__)]
        if isinstance(t, (bool, int, float)) and not _same_values(
            np.asarray(t), np.asarray(m), "float32" if isinstance(t, float) else "int"
        ):
            return [Mismatch("value", name, repr(t), repr(m))]
        if isinstance(t, str) and _normalise(m) != t:
            return [Mismatch("value", name, repr(t), repr(m))]
        return []
    if tuple(t.shape) != tuple(m.shape):
        return [Mismatch("shape", name, str(tuple(t.shape)), str(tuple(m.shape)))]
    if _dtype(t) != _dtype(m):
        return [Mismatch("dtype", name, _dtype(t), _dtype(m))]
    out = []
    if not _same_values(_array(t), _array(m), _dtype(t), loosest):
        out.append(Mismatch("value", name, _show(t), _show(m)))
    for attr in ("requires_grad", "is_leaf", "grad_fn"):
        tv, mv = _read(t, attr), _read(m, attr)
        if tv != mv:
            out.append(Mismatch(attr, name, repr(tv), repr(mv)))
    tg, mg = _grad(t), _grad(m)
    if (tg is None) != (mg is None):
        out.append(Mismatch("grad-none", name, _show(tg), _show(mg)))
    elif tg is not None and (
        tuple(tg.shape) != tuple(mg.shape)
        or not _same_values(_array(tg), _array(mg), _dtype(tg), loosest)
    ):
        out.append(Mismatch("grad", name, _show(tg), _show(mg)))
    return out


def _compare_log(t_log: list[Any], m_log: list[Any]) -> list[Mismatch]:
    same = len(t_log) == len(m_log) and all(
        a[0] == b[0] and _same_values(np.asarray(a[1]), np.asarray(b[1]), "float32")
        for a, b in zip(t_log, m_log)
    )
    return [] if same else [Mismatch("hooks", "log", repr(t_log), repr(m_log))]


# --------------------------------------------------------------------------- deliberate


@dataclass(frozen=True)
class Deliberate:
    """A documented difference (README): ``matches(program, index, mismatches)``."""

    name: str
    description: str
    matches: Callable[[Sequence[str], int, list[Mismatch], Side], bool]


def _data_names(program: Sequence[str], upto: int) -> set[str]:
    """Names bound to some ``x.data``, and the ``x``s: memory whose count microtorch shares."""
    names: set[str] = set()
    for line in program[:upto]:
        match = re.fullmatch(r"(t\d+) = (t\d+)\.data", line)
        if match:
            names.update(match.groups())
    return names


def _shares_memory_with(side: Side, name: str, others: set[str]) -> bool:
    values = side.tensors()
    if name not in values or not _is_tensor(values[name]):
        return False
    ptr = values[name].untyped_storage().data_ptr()
    return any(
        _is_tensor(values.get(o)) and values[o].untyped_storage().data_ptr() == ptr for o in others
    )


def _data_shares_version(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> bool:
    # x.data shares x's version count in microtorch: versions of memory reached through a
    # `.data` differ, and a backward that saved it raises where PyTorch silently goes on.
    data = _data_names(program, i + 1)
    if not data:
        return False
    for m in mm:
        if m.kind == "_version" and _shares_memory_with(t, m.name, data):
            continue
        if m.kind == "error-extra" and "modified by an inplace operation" in m.microtorch:
            continue
        return False
    return True


STATEMENT_KINDS = ("error-missing", "error-extra", "error-type", "error-text")


def _raised_alone(mm: list[Mismatch]) -> Mismatch | None:
    """The statement's own mismatch when microtorch raised (and PyTorch did not, or raised
    something else); the state differences that follow from it are then expected."""
    own = [m for m in mm if m.kind in STATEMENT_KINDS or m.kind in ("warning", "numpy-warning")]
    if len(own) == 1 and own[0].kind in ("error-extra", "error-type", "error-text"):
        return own[0]
    return None


def _create_graph(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> bool:
    raised = _raised_alone(mm)
    return (
        "create_graph=True" in program[i]
        and raised is not None
        and raised.microtorch.startswith("NotImplementedError")
        and "create_graph=True" in raised.microtorch
    )


INPLACE = re.compile(r"(?:with torch\.no_grad\(\): )?(t\d+)(?:\.\w+_\(|\[.*\] = | \S+= )")


def _inplace_on_graph_view(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> bool:
    # microtorch refuses an in-place change to a view of a tensor in a graph, saying what to
    # do instead; PyTorch rewrites the base's graph (CopySlices) and goes on.
    match = INPLACE.fullmatch(program[i].split("\n")[0]) or INPLACE.match(program[i])
    raised = _raised_alone(mm)
    if not match or raised is None or raised.kind != "error-extra":
        return False
    if not re.search(
        r"does not support \w+ on a view of a tensor that is part of a graph", raised.microtorch
    ):
        return False
    if "Fix:" not in raised.microtorch:
        return False
    view = t.tensors().get(match.group(1))
    return (
        _is_tensor(view)
        and view._base is not None
        and (view._base.requires_grad or view.requires_grad)
    )


DELIBERATE: tuple[Deliberate, ...] = (
    Deliberate(
        "data-shares-version",
        "an in-place change through x.data counts as a change of x (README)",
        _data_shares_version,
    ),
    Deliberate("create-graph", "create_graph=True is not supported (README)", _create_graph),
    Deliberate(
        "inplace-on-graph-view",
        "in-place change to a view of a tensor in a graph raises, with a fix (README)",
        _inplace_on_graph_view,
    ),
)


def deliberate(program: Sequence[str], i: int, mm: list[Mismatch], t: Side) -> str | None:
    """The name of the deliberate difference that explains ``mm`` at statement ``i``, if any."""
    for d in DELIBERATE:
        if d.matches(program, i, mm, t):
            return d.name
    return None


# --------------------------------------------------------------------------- generating


class Gen:
    """Writes the next statement from the live state of the PyTorch side."""

    def __init__(self, rng: np.random.Generator, side: Side) -> None:
        self.rng = rng
        self.side = side
        self.count = 0
        # names whose memory layout came, somewhere upstream, from a non-contiguous tensor:
        # the libraries lay out elementwise results of those differently (see _view)
        self.strided: set[str] = set()

    def note(self, source: str, before: set[str]) -> None:
        """Track the layout lineage of the names ``source`` just bound."""
        used = set(NAME.findall(source))
        for name, t in self.side.tensors().items():
            if name in before or not _is_tensor(t):
                continue
            if used & self.strided or not t.is_contiguous():
                self.strided.add(name)

    def new(self) -> str:
        name = f"t{self.count}"
        self.count += 1
        return name

    def live(self, kind: str = "float") -> list[tuple[str, Any]]:
        out = []
        for name, t in self.side.tensors().items():
            if not _is_tensor(t) or t.numel() == 0:  # empty slices: little to learn
                continue
            dtype = _dtype(t)
            if (kind == "float") == dtype.startswith("float") and (
                kind != "bool" or dtype == "bool"
            ):
                out.append((name, t))
        return out

    def pick(self, pred: Callable[[Any], bool] = lambda t: True, kind: str = "float") -> str | None:
        names = [n for n, t in self.live(kind) if pred(t)]
        if not names:
            return None
        # favour recent names: programs then build on what they made
        weights = np.arange(1, len(names) + 1, dtype=float) ** 2
        return str(names[self.rng.choice(len(names), p=weights / weights.sum())])

    def t(self, name: str) -> Any:
        return self.side.ns[name]

    def choice(self, options: Sequence[Any]) -> Any:
        return options[int(self.rng.integers(len(options)))]

    def number(self) -> str:
        return self.choice(["0.5", "2.0", "-1.5", "3", "0.25", "-2"])

    def dim(self, name: str) -> int:
        return int(self.rng.integers(-self.t(name).dim(), self.t(name).dim()))

    def values(self, shape: tuple[int, ...]) -> str:
        n = int(np.prod(shape))
        pool = np.concatenate([np.arange(-12, 0), np.arange(1, 13)]) / 4  # exact, no ties, no 0
        flat = self.rng.choice(pool, size=n, replace=n > len(pool))
        return repr(np.asarray(flat).reshape(shape).tolist())


Maker = Callable[[Gen], "str | None"]


def _leaf(g: Gen) -> str:
    shape = g.choice(SHAPES)
    dtype = g.choice(["float32", "float32", "float64"])
    grad = ", requires_grad=True" if g.rng.random() < 0.7 else ""
    return f"{g.new()} = torch.tensor({g.values(shape)}, dtype=torch.{dtype}{grad})"


def _constant(g: Gen) -> str:
    shape = g.choice([s for s in SHAPES if s])
    return f"{g.new()} = torch.{g.choice(['ones', 'zeros'])}({', '.join(map(str, shape))})"


def _broadcast(a: Any, b: Any) -> bool:
    try:
        np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    except ValueError:
        return False
    return True


def _binary(g: Gen, divide: bool = False) -> str | None:
    a = g.pick()
    if a is None:
        return None
    b = g.pick(lambda t: _broadcast(t, g.t(a)))
    if divide:  # by a tensor, or a number by a tensor: may divide by zero
        if b is None or g.rng.random() < 0.3:
            return f"{g.new()} = {g.number()} / {a}"
        return f"{g.new()} = {a} / {b}"
    op = g.choice(["+", "-", "*"])
    if b is None or g.rng.random() < 0.25:
        other = g.number()
        if g.rng.random() < 0.3:
            return f"{g.new()} = {a} / {other}"
        return (
            f"{g.new()} = {a} {op} {other}"
            if g.rng.random() < 0.6
            else f"{g.new()} = {other} {op} {a}"
        )
    return f"{g.new()} = {a} {op} {b}"


def _divide(g: Gen) -> str | None:
    return _binary(g, divide=True)


def _unary(g: Gen) -> str | None:
    a = g.pick()
    if a is None:
        return None
    form = g.choice(
        [
            "-{a}",
            "{a}.exp()",
            "{a}.tanh()",
            "torch.sigmoid({a})",
            "{a}.relu()",
            "torch.relu({a})",
            "{a} ** 2",
            "{a} ** 3",
            "{a}.pow(2)",
            "{a}.neg()",
            "torch.exp({a})",
            "{a}.sigmoid()",
            "{a}.abs()",
            "{a}.clone()",
        ]
    )
    return f"{g.new()} = {form.format(a=a)}"


def _matmul(g: Gen, mixed: bool = False) -> str | None:
    a = g.pick(lambda t: t.dim() in (1, 2))
    if a is None:
        return None
    k, dtype = g.t(a).shape[-1], g.t(a).dtype
    b = g.pick(lambda t: t.dim() in (1, 2) and t.shape[0] == k and (t.dtype != dtype) == mixed)
    if b is None:
        return None
    both_2d = g.t(a).dim() == 2 and g.t(b).dim() == 2
    form = g.choice(["{a} @ {b}", "torch.matmul({a}, {b})"] + (["{a}.mm({b})"] if both_2d else []))
    return f"{g.new()} = {form.format(a=a, b=b)}"


def _matmul_mixed(g: Gen) -> str | None:
    return _matmul(g, mixed=True)  # float32 @ float64: an error in PyTorch


def _reduce(g: Gen) -> str | None:
    a = g.pick()
    if a is None:
        return None
    n = g.t(a).dim()
    forms = ["{a}.sum()", "{a}.mean()", "{a}.max()", "{a}.min()", "{a}.amax()"]
    if n:
        forms += [
            "{a}.sum(dim={d})",
            "{a}.mean({d}, keepdim=True)",
            "{a}.amax(dim={d})",
            "{a}.sum({d}, keepdim=True)",
            "{a}.amax({d}, keepdim=True)",
        ]
    d = g.dim(a) if n else 0
    if n and g.rng.random() < 0.2:
        v, i = g.new(), g.new()
        return f"{v}, {i} = {a}.{g.choice(['max', 'min'])}(dim={d})"
    return f"{g.new()} = {g.choice(forms).format(a=a, d=d)}"


def _statistics(g: Gen) -> str | None:
    a = g.pick(lambda t: t.numel() > 1)
    if a is None:
        return None
    d = g.dim(a)
    form = g.choice(
        [
            "{a}.std()",
            "{a}.var()",
            "{a}.std(dim={d})",
            "{a}.var({d}, keepdim=True)",
            "{a}.logsumexp(dim={d})",
            "torch.logsumexp({a}, {d})",
            "{a}.softmax(dim={d})",
            "{a}.log_softmax({d})",
            "F.softmax({a}, dim={d})",
            "F.log_softmax({a}, dim={d})",
            "torch.softmax({a}, {d})",
        ]
    )
    return f"{g.new()} = {form.format(a=a, d=d)}"


def _mask(g: Gen) -> str | None:
    a = g.pick()
    if a is None:
        return None
    return f"{g.new()} = {a} {g.choice(['>', '<'])} {g.choice(['0', '0.5', '-1'])}"


def _select(g: Gen, grow: bool = False) -> str | None:
    a = g.pick()
    if a is None:
        return None
    shape_a = tuple(g.t(a).shape)
    # masked_fill with a mask of more dims grows the result; only `masked_fill_broadcast` does
    mask = g.pick(
        lambda t: (
            _broadcast(t, g.t(a))
            and (np.broadcast_shapes(tuple(t.shape), shape_a) != shape_a) == grow
        ),
        kind="bool",
    )
    if grow:
        return None if mask is None else f"{g.new()} = {a}.masked_fill({mask}, 0.0)"
    cond = mask or f"{a} > 0"
    shape = np.broadcast_shapes(shape_a, tuple(g.t(mask).shape) if mask else ())
    b = g.pick(lambda t: _broadcast(t, g.t(a)) and _broadcast(t, np.empty(shape)))
    form = g.choice(
        [
            "torch.where({c}, {a}, {b})",
            "{a}.masked_fill({c}, 0.0)",
            "{a}.clamp(min=-0.5, max=1.0)",
            "torch.clamp({a}, min=0)",
            "{a}.clamp(max=0.75)",
            "torch.where({c}, {a}, 0.0)",
        ]
    )
    return f"{g.new()} = {form.format(a=a, b=b or a, c=cond)}"


def _masked_fill_broadcast(g: Gen) -> str | None:
    return _select(g, grow=True)


def _loss(g: Gen, weight_grad: bool = False) -> str | None:
    if g.rng.random() < 0.4:
        a = g.pick()
        if a is None:
            return None
        b = g.pick(lambda t: tuple(t.shape) == tuple(g.t(a).shape) and t is not g.t(a))
        return f"{g.new()} = F.mse_loss({a}, {b or f'torch.zeros_like({a})'})"
    logits = g.pick(lambda t: t.dim() == 2)
    if logits is None:
        return None
    n, c = g.t(logits).shape
    target = g.pick(lambda t: tuple(t.shape) == (n,) and _dtype(t) == "int64", kind="int")
    if target is None or g.rng.random() < 0.3:
        target = g.new()
        return f"{target} = torch.tensor({g.rng.integers(0, c, size=n).tolist()})"
    dtype = g.t(logits).dtype
    weight = g.pick(
        lambda t: tuple(t.shape) == (c,) and (t.requires_grad or t.dtype != dtype) == weight_grad
    )
    w = f", weight={weight}" if weight and g.rng.random() < 0.6 else ""
    if g.rng.random() < 0.5:
        return f"{g.new()} = F.cross_entropy({logits}, {target}{w})"
    return f"{g.new()} = F.nll_loss(F.log_softmax({logits}, dim=1), {target}{w})"


def _loss_weight_grad(g: Gen) -> str | None:
    return _loss(g, weight_grad=True)  # PyTorch: not differentiable w.r.t. weight; dtypes


def _view(g: Gen, layout: bool = False) -> str | None:
    a = g.pick(
        lambda t: (
            t.dim() > 0
            and t.numel() > 0
            and (not layout or any(g.side.ns.get(n) is t for n in g.strided))
        )
    )
    if a is None:
        return None
    t = g.t(a)
    shape = tuple(t.shape)
    # Elementwise results of a non-contiguous input are laid out differently by the two
    # libraries (PyTorch keeps the input's strides for some ops, microtorch for others), so
    # .view may refuse in one only, and .reshape records different nodes. Only `view_layout`
    # reshapes tensors of such lineage.
    inherited = a in g.strided
    forms = [
        "{a}.reshape(-1)",
        "{a}.view(-1)",
        "{a}.unsqueeze(0)",
        "{a}.detach()",
        "{a}[1:]",
        "{a}[:1]",
        "{a}.unsqueeze(-1)",
    ]
    if t.dim() == 2:
        forms += [
            "{a}.t()",
            "{a}.T",
            "{a}.transpose(0, 1)",
            "{a}.permute(1, 0)",
            "{a}[:, 1:]",
            "{a}[0]",
            "{a}[-1]",
            "{a}.view({n})",
            "{a}.reshape({c}, {r})",
            "{a}[:, 0]",
        ]
    if 1 in shape:
        forms += ["{a}.squeeze()", "{a}.expand({ex})", "{a}.squeeze({one})"]
    if t.dim() == 1:
        forms += ["{a}.view(1, -1)", "{a}.expand(2, {n})", "{a}[::2]"]
    ex = ", ".join(str(2 if s == 1 else s) for s in shape)
    reshaping = (".view(", ".reshape(")
    if inherited and not layout:
        forms = [f for f in forms if not f.startswith(tuple("{a}" + r for r in reshaping))]
    elif layout:
        forms = [f for f in forms if f.startswith(tuple("{a}" + r for r in reshaping))]
    form = g.choice(forms)
    if g.rng.random() < 0.15 and shape[0] > 1:
        names = [g.new() for _ in range(shape[0] if shape[0] <= 3 else 2)]
        how = g.choice(["split(1)", f"chunk({shape[0]})"]) if len(names) == shape[0] else "chunk(2)"
        return f"{', '.join(names)} = {a}.{how}"
    return f"{g.new()} = " + form.format(
        a=a,
        n=t.numel(),
        r=shape[0],
        c=t.numel() // shape[0],
        ex=ex,
        one=shape.index(1) if 1 in shape else 0,
    )


def _view_layout(g: Gen) -> str | None:
    a = g.pick(lambda t: t.dim() == 2)
    if a is None or g.rng.random() < 0.5:
        return _view(g, layout=True)
    r, c = g.t(a).shape
    # results whose layout the libraries choose differently from a transposed input
    made = g.choice(
        [
            "{a}.t().clone()",
            "{a}.t().softmax(0)",
            "{a}.t().masked_fill({a}.t() > 0, 0.0)",
            "{a}.t() * torch.ones({c}, {r})",
        ]
    ).format(a=a, r=r, c=c)
    return f"{g.new()} = ({made}).{g.choice(['view(-1)', 'reshape(-1)', 'view({n})'])}".format(
        n=r * c
    )


def _index0d(g: Gen) -> str | None:
    a = g.pick(lambda t: t.dim() in (1, 2) and 1 < t.shape[0] <= 3)
    if a is None:
        return None
    t = g.t(a)
    i = int(g.rng.integers(t.shape[0]))
    r = g.rng.random()
    if r < 0.3 and t.dim() == 1:
        return f"{g.new()} = {a}[{i}]"
    if r < 0.45 and t.dim() == 2:
        return f"{g.new()} = {a}[{i}, {int(g.rng.integers(t.shape[1]))}]"
    if r < 0.8:
        names = [g.new() for _ in range(t.shape[0])]
        return f"{', '.join(names)} = {a}.unbind({'0' if g.rng.random() < 0.5 else ''})"
    if not _writable(t):
        return None
    grad_mode = "with torch.no_grad():\n    " if g.rng.random() < 0.4 else ""
    return f"{grad_mode}for e in {a}:\n    {'    ' if grad_mode else ''}e.mul_({g.number()})"


def _select_method(g: Gen) -> str | None:
    a = g.pick(lambda t: t.dim() > 0)
    if a is None:
        return None
    d = g.dim(a)
    return f"{g.new()} = {a}.select({d}, {int(g.rng.integers(g.t(a).shape[d]))})"


def _data(g: Gen) -> str | None:
    a = g.pick()
    return None if a is None else f"{g.new()} = {a}.data"


def _inplace_statement(g: Gen, a: str) -> str:
    t = g.t(a)
    b = g.pick(
        lambda o: (
            _broadcast(o, t)
            and np.broadcast_shapes(tuple(o.shape), tuple(t.shape)) == tuple(t.shape)
        )
    )
    forms = [
        "{a}.add_({x})",
        "{a}.sub_({x})",
        "{a}.mul_({x})",
        "{a}.div_({x})",
        "{a}.zero_()",
        "{a}.fill_({k})",
        "{a}.clamp_(min=0)",
        "{a} += {x}",
        "{a} -= {x}",
        "{a} *= {x}",
        "{a} **= 2",
        "{a}.add_({x}, alpha=0.5)",
        "{a}.relu_()",
    ]
    if b is not None:
        forms += ["{a}.copy_({b})"]
    if t.dim():
        forms += ["{a}[0] = {k}", "{a}[{last}] = {x}"]
    x = b if b is not None and g.rng.random() < 0.5 else g.number()
    if t.dim() and b is not None and x == b:
        x = g.number()  # {a}[i] = tensor needs a broadcastable row; keep numbers there
    return g.choice(forms).format(
        a=a, b=b, x=x, k=g.number(), last=t.shape[0] - 1 if t.dim() else 0
    )


def _writable(t: Any) -> bool:
    """False for memory PyTorch's kernels laid out with a zero stride (``autograd.grad`` of a
    ``sum`` returns an expanded tensor: writing it raises in PyTorch, a detail of theirs),
    and for views of such memory. ``expand()`` results stay: the user made them."""
    root = t if t._base is None else t._base
    return not (root.numel() > 1 and 0 in root.stride())


def _views_of(g: Gen) -> set[int]:
    return {id(t._base) for _, t in g.live() if t._base is not None}


def _inplace(g: Gen) -> str | None:
    # on tensors that are neither views nor bases of live views
    bases = _views_of(g)
    a = g.pick(lambda t: t._base is None and id(t) not in bases and _writable(t))
    return None if a is None else _inplace_statement(g, a)


def _inplace_view(g: Gen) -> str | None:
    bases = _views_of(g)
    a = g.pick(lambda t: (t._base is not None or id(t) in bases) and _writable(t))
    return None if a is None else _inplace_statement(g, a)


def _inplace_nograd(g: Gen) -> str | None:
    a = g.pick(_writable)
    return None if a is None else "with torch.no_grad(): " + _inplace_statement(g, a)


def _inplace_bool(g: Gen) -> str | None:
    m = g.pick(lambda t: t.dim() > 0, kind="bool")
    if m is None:
        return None
    return g.choice([f"{m}[0] = True", f"{m}.fill_(False)", f"{m}.zero_()"])


def _inplace_int(g: Gen) -> str | None:
    i = g.pick(lambda t: t.dim() == 1, kind="int")
    return None if i is None else f"{i}[0] = {g.choice(['0', '1'])}"


def _needs_grad(t: Any) -> bool:
    return bool(t.requires_grad)


def _backward(g: Gen, retained: bool = False) -> str | None:
    a = g.pick(_needs_grad) or g.pick()
    if a is None:
        return None
    root = a if g.t(a).dim() == 0 and g.rng.random() < 0.6 else f"{a}.sum()"
    retain = ", retain_graph=True" if retained or g.rng.random() < 0.4 else ""
    return f"{root}.backward({retain[2:]})"


def _backward_retained(g: Gen) -> str | None:
    return _backward(g, retained=True)  # buffers are never freed


def _partial(g: Gen) -> str | None:
    a = g.pick(_needs_grad)
    if a is None:
        return None
    root = a if g.t(a).dim() == 0 else f"{a}.sum()"
    b = g.pick(_needs_grad)
    c = g.pick(_needs_grad)
    retain = ", retain_graph=True" if g.rng.random() < 0.5 else ""
    r = g.rng.random()
    if r < 0.35:
        return f"{root}.backward(inputs=[{b}]{retain})"
    if r < 0.7 or c == b:
        return f"{g.new()}, = torch.autograd.grad({root}, [{b}]{retain})"
    return (
        f"{g.new()}, {g.new()} = torch.autograd.grad({root}, [{b}, {c}], allow_unused=True{retain})"
    )


MULTI_OUTPUT = ("SplitBackward0", "SplitWithSizesBackward0", "UnbindBackward0")


def _multi_output(t: Any) -> bool:
    return t.grad_fn is not None and t.grad_fn.name() in MULTI_OUTPUT


def _hooks(g: Gen, multi: bool = False) -> str | None:
    # PyTorch calls a hook on an output of split/chunk/unbind with None when that output got
    # no gradient; microtorch does not call it. Only `hooks_multi` hooks such outputs.
    a = g.pick(lambda t: _needs_grad(t) and _multi_output(t) == multi)
    if a is None:
        return None
    if g.rng.random() < 0.3 and not g.t(a).is_leaf:
        return f"{a}.retain_grad()"
    record = "None if g is None else g.tolist()"
    return f"{a}.register_hook(lambda g: log.append(({a!r}, {record})))"


def _hooks_multi(g: Gen) -> str | None:
    return _hooks(g, multi=True)


def _grads(g: Gen) -> str | None:
    a = g.pick(lambda t: t.is_leaf and t.requires_grad)
    if a is None:
        return None
    return g.choice([f"{a}.grad = None", f"{a}.grad.zero_()", f"{g.new()} = {a}.grad"])


def _sgd_step(g: Gen) -> str | None:
    a = g.pick(lambda t: t.is_leaf and t.requires_grad and t.grad is not None)
    return None if a is None else f"with torch.no_grad(): {a} -= 0.1 * {a}.grad"


def _nonleaf_grad(g: Gen) -> str | None:
    a = g.pick(lambda t: not t.is_leaf)
    return None if a is None else f"{g.new()} = {a}.grad"


def _create_graph_maker(g: Gen) -> str | None:
    a, b = g.pick(_needs_grad), g.pick(_needs_grad)
    if a is None:
        return None
    return f"{g.new()}, = torch.autograd.grad({a}.sum(), [{b}], create_graph=True)"


FAMILIES: dict[str, tuple[float, Maker]] = {  # name -> (weight, maker)
    "leaf": (1.0, _leaf),
    "constant": (0.3, _constant),
    "arith": (1.5, _binary),
    "divide": (0.4, _divide),
    "unary": (1.0, _unary),
    "matmul": (0.5, _matmul),
    "matmul_mixed": (0.1, _matmul_mixed),
    "reduce": (0.8, _reduce),
    "statistics": (0.6, _statistics),
    "mask": (0.3, _mask),
    "select": (0.6, _select),
    "masked_fill_broadcast": (0.2, _masked_fill_broadcast),
    "loss": (0.5, _loss),
    "loss_weight_grad": (0.2, _loss_weight_grad),
    "view": (1.0, _view),
    "view_layout": (0.2, _view_layout),
    "index0d": (0.6, _index0d),
    "select_method": (0.2, _select_method),
    "data": (0.2, _data),
    "inplace": (0.8, _inplace),
    "inplace_view": (0.8, _inplace_view),
    "inplace_nograd": (0.6, _inplace_nograd),
    "inplace_mask": (0.3, _inplace_bool),
    "inplace_target": (0.3, _inplace_int),
    "backward_retained": (0.5, _backward_retained),
    "backward": (0.5, _backward),
    "partial": (0.5, _partial),
    "hooks": (0.4, _hooks),
    "hooks_multi": (0.2, _hooks_multi),
    "grads": (0.4, _grads),
    "sgd_step": (0.3, _sgd_step),
    "nonleaf_grad": (0.2, _nonleaf_grad),
    "create_graph": (0.1, _create_graph_maker),
}

# Families that still find mismatches on the current code, with what they find. Switch one on
# (delete it here) once the fix is in: the CI test then runs it.
PENDING_ISSUE_12: dict[str, str] = {
    "index0d": "x[i] (0-d), unbind and `for e in x` give copies, not views",
    "inplace": "`**=` makes a new tensor; saved tensors changed in place go unnoticed",
    "inplace_view": "in-place through views/bases: no CopySlices/AsStridedBackward0, copies",
    "inplace_nograd": "no_grad in-place on a base leaves views' grad_fn; `**=` not in place",
    "inplace_mask": "a where/masked_fill mask changed in place goes unnoticed by backward",
    "inplace_target": "nll_loss's target changed in place goes unnoticed by backward",
    "sgd_step": "`w -= lr * w.grad` on a base with views: views' grad_fn not rewritten",
    "backward": "backward without retain_graph: some ops' buffers are not freed",
    "partial": "autograd.grad/backward(inputs=) run and free the whole graph, fire all hooks",
}
# Mismatches outside issue 12, equally to be fixed (listed in notes/difftest-report.md).
PENDING_OTHER: dict[str, str] = {
    "divide": "NaN gradients through relu/clamp/where (mask multiplied, not selected); numpy warns",
    "statistics": "std/var with <= 0 degrees of freedom: PyTorch warns, microtorch does not",
    "loss_weight_grad": "a loss weight that requires grad, or of another dtype, is accepted",
    "view_layout": "elementwise results of non-contiguous inputs are contiguous (torch: not)",
    "hooks_multi": "hooks on unused split/unbind outputs: PyTorch calls them with None",
    "masked_fill_broadcast": "masked_fill with a mask of more dims: backward raises numpy's error",
    "select_method": "Tensor.select is missing",
    "matmul_mixed": "float32 @ float64 error texts differ (PyTorch's name addmv, mm, dot...)",
}
PASSING_FAMILIES: tuple[str, ...] = tuple(
    f for f in FAMILIES if f not in PENDING_ISSUE_12 and f not in PENDING_OTHER
)


def families(spec: str) -> tuple[str, ...]:
    """``all``, ``ci`` (the passing families), ``pending`` (issue 12), ``other`` (pending, not
    issue 12), or a comma-separated list of family names and these."""
    named = {
        "all": tuple(FAMILIES),
        "ci": PASSING_FAMILIES,
        "pending": tuple(PENDING_ISSUE_12),
        "other": tuple(PENDING_OTHER),
    }
    chosen: list[str] = []
    for part in spec.split(","):
        for name in named.get(part, (part,)):
            if name not in FAMILIES:
                raise ValueError(f"unknown family {name!r}; known: {', '.join(FAMILIES)}")
            if name not in chosen:
                chosen.append(name)
    return tuple(chosen)


# --------------------------------------------------------------------------- programs


@dataclass
class Result:
    program: list[str]
    index: int | None = None  # the statement where the sides first differ
    mismatches: list[Mismatch] = field(default_factory=list)
    deliberate: str | None = None  # set when the difference is a documented one
    family: str = ""  # the family of the statement that differs

    @property
    def failed(self) -> bool:
        return self.index is not None and self.deliberate is None

    def signature(self) -> str:
        """What kind of mismatch at what kind of statement; shrinking keeps it the same."""
        if self.index is None:
            return ""
        kinds = {m.kind for m in self.mismatches}
        own = kinds & {*STATEMENT_KINDS, "warning", "numpy-warning", "hooks"}
        return f"{','.join(sorted(own or kinds))} @ {statement_class(self.program[self.index])}"


def statement_class(source: str) -> str:
    """``source`` with names, numbers and the particular in-place op made generic."""
    if source.startswith("with torch.no_grad():"):
        return "no_grad: " + statement_class(source.split(":", 1)[1].strip())
    if source.startswith("for e in"):
        return "for e in t: e.mul_(k)"
    if "**=" in source:
        return "t **= k"
    if INPLACE.match(source):
        target = "t[k]" if re.match(r"t\d+\[", source) else "t"
        return f"{target} <in-place op>"
    if ".backward(" in source:
        return "backward(inputs=...)" if "inputs=" in source else "backward()"
    if "autograd.grad(" in source:
        return "autograd.grad(...)"
    source = NAME.sub("t", source)
    return re.sub(r"(?<![\w.])-?\d+(\.\d+)?", "k", source)


def _torch() -> ModuleType:
    import torch

    torch.set_num_threads(1)
    return torch


def _step(t: Side, m: Side, source: str) -> list[Mismatch]:
    mm = compare_outcomes(t.run(source), m.run(source))
    return mm + compare_state(t, m)


def run_program(program: Sequence[str], torch: ModuleType | None = None) -> Result:
    """Run ``program`` on both sides, comparing after each statement; stop at the first mismatch."""
    t, m = Side(torch or _torch()), Side(microtorch)
    for i, source in enumerate(program):
        mm = _step(t, m, source)
        if mm:
            return Result(list(program), i, mm, deliberate(program, i, mm, t))
    return Result(list(program))


def generate(
    seed: int,
    chosen: Sequence[str],
    length: int = 25,
    torch: ModuleType | None = None,
    boost: str | None = None,
) -> Result:
    """Write and run one program of ``length`` statements, stopping at the first mismatch;
    statements of the family ``boost`` are drawn five times as often as its weight says."""
    rng = np.random.default_rng(seed)
    t, m = Side(torch or _torch()), Side(microtorch)
    gen = Gen(rng, t)
    weights = np.array([FAMILIES[f][0] * (5 if f == boost else 1) for f in chosen])
    program: list[str] = []
    tries = 0
    while len(program) < length and tries < 4 * length:
        tries += 1
        if len(program) < 3:  # start with a few leaves
            family = "leaf"
        else:
            family = chosen[int(rng.choice(len(chosen), p=weights / weights.sum()))]
        source = FAMILIES[family][1](gen)
        if source is None:
            continue
        program.append(source)
        before = set(t.tensors())
        mm = _step(t, m, source)
        gen.note(source, before)
        if mm:
            i = len(program) - 1
            return Result(program, i, mm, deliberate(program, i, mm, t), family)
    return Result(program)


def shrink(result: Result, torch: ModuleType | None = None) -> Result:
    """Delete statements while the first mismatch keeps its signature; the smallest program."""
    assert result.index is not None
    best = Result(
        result.program[: result.index + 1], result.index, result.mismatches, None, result.family
    )
    goal = result.signature()
    chunk = max(1, len(best.program) // 2)
    while chunk >= 1:
        i = 0
        while i < len(best.program) - 1:  # never the failing (last) statement
            candidate = best.program[:i] + best.program[i + chunk :]
            trial = run_program(candidate, torch)
            if trial.index is not None and trial.signature() == goal:
                best = Result(
                    candidate[: trial.index + 1], trial.index, trial.mismatches, None, best.family
                )
            else:
                i += chunk
        chunk //= 2
    return best


CAUSES = (
    "saved tensors not versioned",
    "views that are copies",
    "`**=` is not in place",
    "in-place through views and bases (CopySlices, AsStridedBackward0)",
    "outputs of unbind/split/iteration (multi-output views)",
    "partial backward",
    "numpy warnings",
    "NaN and signed-zero results",
    "memory layout",
    "error texts and warnings",
    "missing API",
    "other",
)


def cause(result: Result) -> str:
    """The likely cause of a mismatch, one of ``CAUSES``: the report's grouping."""
    mm = result.mismatches
    kinds = {m.kind for m in mm}
    statement = result.program[result.index or 0]
    torch_text = " ".join(m.torch for m in mm)
    ours = " ".join(m.microtorch for m in mm)
    if "numpy-warning" in kinds:
        return "numpy warnings"
    if "object has no attribute" in ours:
        return "missing API"
    if "**=" in statement:
        return "`**=` is not in place"
    if "error-missing" in kinds and (
        "modified by an inplace operation" in torch_text or "second time" in torch_text
    ):
        return "saved tensors not versioned"
    if "CopySlices" in torch_text or "AsStridedBackward0" in torch_text:
        return "in-place through views and bases (CopySlices, AsStridedBackward0)"
    if re.search(r"Output \d+ of (Unbind|Split)", torch_text) or result.family == "hooks_multi":
        return "outputs of unbind/split/iteration (multi-output views)"
    if "view size is not compatible" in torch_text + ours or result.family == "view_layout":
        return "memory layout"
    if (
        result.family in ("partial", "hooks")
        or "inputs=" in statement
        or ("second time" in ours and "error-extra" in kinds)
    ):
        return "partial backward"
    if result.family == "index0d" or (
        kinds & {"value", "_version"} and result.family.startswith("inplace")
    ):
        return "views that are copies"
    if kinds & {"error-text", "error-type", "warning"}:
        return "error texts and warnings"
    if kinds & {"value", "grad"} and re.search(r"nan|inf", ours + torch_text):
        return "NaN and signed-zero results"
    return "other"


def describe(result: Result) -> str:
    lines = ["# program (paste into either library; `import microtorch as torch` for ours)"]
    lines += [HEADER.rstrip()] + result.program
    if result.index is not None:
        lines.append(f"# statement {result.index + 1} differs:")
        lines += ["#   " + line for m in result.mismatches for line in str(m).split("\n")]
    return "\n".join(lines)


def sweep(
    seed: int, count: int, chosen: Sequence[str], length: int = 25, boost: str | None = None
) -> Iterator[Result]:
    """``count`` programs, each from its own seed derived from ``seed``."""
    torch = _torch()
    for k in range(count):
        yield generate(seed * 1_000_003 + k, chosen, length, torch, boost)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--programs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--length", type=int, default=25, help="statements per program")
    parser.add_argument(
        "--families", default="ci", help="all, ci, pending, other, or a comma-separated list"
    )
    parser.add_argument("--show", type=int, default=1, help="minimised programs per class")
    args = parser.parse_args(argv)
    chosen = families(args.families)
    start = time.perf_counter()
    classes: dict[tuple[str, str], list[Result]] = {}
    deliberate_counts: dict[str, int] = {}
    statements = 0
    for result in sweep(args.seed, args.programs, chosen, args.length):
        statements += len(result.program)
        if result.deliberate:
            deliberate_counts[result.deliberate] = deliberate_counts.get(result.deliberate, 0) + 1
        elif result.failed:
            classes.setdefault((cause(result), result.signature()), []).append(result)
    elapsed = time.perf_counter() - start
    failed = sum(len(v) for v in classes.values())
    print(f"families: {', '.join(chosen)}")
    print(
        f"{args.programs} programs, {statements} statements in {elapsed:.1f} s: "
        f"{failed} stopped at a mismatch, {len(classes)} distinct; "
        f"stopped at a deliberate difference: {deliberate_counts or 'none'}"
    )
    torch = _torch()
    for group in CAUSES:
        found = sorted(
            ((k, v) for k, v in classes.items() if k[0] == group), key=lambda kv: -len(kv[1])
        )
        if not found:
            continue
        print(f"\n## {group}: {sum(len(v) for _, v in found)} programs, {len(found)} classes")
        for (_, signature), results in found:
            print(f"\n### {len(results)}x `{signature}` (family {results[0].family})\n")
            for result in sorted(results, key=lambda r: len(r.program))[: args.show]:
                print("```python\n" + describe(shrink(result, torch)) + "\n```")
    return 1 if classes else 0


if __name__ == "__main__":
    sys.exit(main())

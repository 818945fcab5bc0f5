"""Running one statement in each library and comparing what the two sides then hold."""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

NAME = re.compile(r"\bt\d+\b")  # the program's own names: t0, t1, ...
# (rtol, atol). float64 is compared tightly only in programs that never touch float32: a
# float32 value promoted to float64 carries float32's rounding into the float64 results.
TOLERANCE = {"float32": (1e-4, 1e-5), "float64": (1e-9, 1e-11)}
FLOAT32 = re.compile(r"float32|torch\.(ones|zeros)\(")
STATEMENT_KINDS = ("error-missing", "error-extra", "error-type", "error-text")


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
        version = read(t, "_version")
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
            # (an unclosed socket or file of an earlier test, collected meanwhile, is not the op's)
            warnings.simplefilter("ignore", ResourceWarning)
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


def is_tensor(value: Any) -> bool:
    return type(value).__name__ in ("Tensor", "Parameter")


def read(t: Any, attr: str) -> Any:
    """``t.<attr>``, or what reading it raised (PyTorch refuses some reads, e.g. the grad_fn
    of a view from ``unbind`` whose base changed in place), as a comparable string."""
    try:
        value = getattr(t, attr)
    except Exception as error:
        return f"raises {type(error).__name__}: {torch_text(normalise(str(error)))[:80]}"
    if attr == "grad_fn":
        return None if value is None else value.name()
    return value


def dtype_name(t: Any) -> str:
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
    if not is_tensor(t):
        return repr(t)
    return f"{_array(t).tolist()} ({dtype_name(t)})"


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


def normalise(text: str) -> str:
    return _versions(text.replace("microtorch.", "torch."))


def torch_text(text: str) -> str:
    # PyTorch's first line, without the C++ location it appends to warnings
    return _versions(text.split("\n")[0].split(" (Triggered internally at")[0])


_VERSIONS = re.compile(r"is at version (\d+); expected version (\d+) instead")


def _versions(text: str) -> str:
    # Only version *changes* are compared (see compare_state): a tensor's starting count is
    # PyTorch's internal detail (its first .grad starts at 0 or 1, as it steals or copies).
    return _VERSIONS.sub(
        lambda m: f"is at version +{int(m.group(1)) - int(m.group(2))} since saved", text
    )


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
        elif not normalise(m.error[1]).startswith(torch_text(t.error[1])):
            out.append(Mismatch("error-text", "", t.error[1], m.error[1]))
    numpy_warnings = [w for w in m.warnings if w[0] == "RuntimeWarning" and "numpy" in w[2]]
    if numpy_warnings:
        out.append(Mismatch("numpy-warning", "", "no warning", numpy_warnings[0][1]))
    t_user = [torch_text(w[1]) for w in t.warnings if w[0] != "RuntimeWarning"]
    m_user = [normalise(w[1]) for w in m.warnings if w[0] != "RuntimeWarning"]
    if len(t_user) != len(m_user) or not all(b.startswith(a) for a, b in zip(t_user, m_user)):
        out.append(Mismatch("warning", "", repr(t_user), repr(m_user)))
    # PyTorch's warnings name the student's line; microtorch's must too, not its own frames
    elsewhere = [w for w in m.warnings if w[0] != "RuntimeWarning" and w[2] != "<program>"]
    if elsewhere:
        out.append(Mismatch("warning-location", "", "<program>", elsewhere[0][2]))
    return out


def compare_state(t_side: Side, m_side: Side) -> list[Mismatch]:
    """Every difference between the live names of the two sides, and their hook logs."""
    out: list[Mismatch] = []
    t_all, m_all = t_side.tensors(), m_side.tensors()
    if list(t_all) != list(m_all):
        return [Mismatch("names", "", repr(list(t_all)), repr(list(m_all)))]
    for name, t in t_all.items():
        out += _compare_value(name, t, m_all[name], t_side.dtype)
        if is_tensor(t) and is_tensor(m_all[name]):
            tv, mv = t_side.version_change(name, t), m_side.version_change(name, m_all[name])
            if tv != mv:
                out.append(Mismatch("_version", name, f"+{tv}", f"+{mv}"))
    # the same object under two names in one library must be so in the other (a += b, x.data)
    # (not for PyTorch's zero-stride gradients: autograd.grad may return one object twice)
    names = [n for n in t_all if not is_tensor(t_all[n]) or writable(t_all[n])]
    t_ids = [sorted(n for n in names if t_all[n] is t_all[k]) for k in names]
    m_ids = [sorted(n for n in names if m_all[n] is m_all[k]) for k in names]
    if t_ids != m_ids:
        out.append(Mismatch("identity", "", repr(t_ids), repr(m_ids)))
    if _grad_sharing(t_all) != _grad_sharing(m_all):  # (.grad must own its memory)
        out.append(Mismatch("grad-shares", "", _grad_sharing(t_all), _grad_sharing(m_all)))
    out += _compare_log(t_side.ns["log"], m_side.ns["log"])
    return out


def _grad_sharing(tensors: dict[str, Any]) -> str:
    # Which live values and other .grads share memory with each .grad: a gradient kept as .grad
    # without a copy must be one nothing else holds, so this is the same in both libraries.
    memory: list[tuple[str, Any]] = []
    for name, t in tensors.items():
        if is_tensor(t):
            memory.append((name, _storage(t)))
            g = _grad(t)
            if g is not None:
                memory.append((f"{name}.grad", _storage(g)))
    shares = {
        a: sorted(b for b, kb in memory if kb == ka and b != a)
        for a, ka in memory
        if a.endswith(".grad") and ka is not None
    }
    return repr({a: b for a, b in shares.items() if b})


def _storage(t: Any) -> Any:
    # The memory a tensor's values live in: PyTorch's storage, microtorch's owning numpy array
    if t.numel() == 0:
        return None
    if hasattr(t, "untyped_storage") and type(t).__module__.startswith("torch"):
        return t.untyped_storage().data_ptr()
    from microtorch.autograd.versions import _owner

    return id(_owner(t._data))


def _compare_value(name: str, t: Any, m: Any, loosest: str) -> list[Mismatch]:
    if not is_tensor(t) or not is_tensor(m):
        if is_tensor(t) or is_tensor(m) or type(t).__name__ != type(m).__name__:
            return [Mismatch("type", name, type(t).__name__, type(m).__name__)]
        if isinstance(t, (bool, int, float)) and not _same_values(
            np.asarray(t), np.asarray(m), "float32" if isinstance(t, float) else "int"
        ):
            return [Mismatch("value", name, repr(t), repr(m))]
        if isinstance(t, str) and normalise(m) != t:
            return [Mismatch("value", name, repr(t), repr(m))]
        return []
    if tuple(t.shape) != tuple(m.shape):
        return [Mismatch("shape", name, str(tuple(t.shape)), str(tuple(m.shape)))]
    if dtype_name(t) != dtype_name(m):
        return [Mismatch("dtype", name, dtype_name(t), dtype_name(m))]
    out = []
    if not _same_values(_array(t), _array(m), dtype_name(t), loosest):
        out.append(Mismatch("value", name, _show(t), _show(m)))
    for attr in ("requires_grad", "is_leaf", "grad_fn"):
        tv, mv = read(t, attr), read(m, attr)
        if tv != mv:
            out.append(Mismatch(attr, name, repr(tv), repr(mv)))
    tg, mg = _grad(t), _grad(m)
    if (tg is None) != (mg is None):
        out.append(Mismatch("grad-none", name, _show(tg), _show(mg)))
    elif tg is not None and (
        tuple(tg.shape) != tuple(mg.shape)
        or dtype_name(tg) != dtype_name(mg)
        or not _same_values(_array(tg), _array(mg), dtype_name(tg), loosest)
    ):
        out.append(Mismatch("grad", name, _show(tg), _show(mg)))
    return out


def _compare_log(t_log: list[Any], m_log: list[Any]) -> list[Mismatch]:
    same = len(t_log) == len(m_log) and all(
        a[0] == b[0] and _same_entry(a[1], b[1]) for a, b in zip(t_log, m_log)
    )
    return [] if same else [Mismatch("hooks", "log", repr(t_log), repr(m_log))]


def _same_entry(a: Any, b: Any) -> bool:
    # a hook's gradient as logged: values, or None (PyTorch calls hooks of unused outputs so)
    if a is None or b is None:
        return a is None and b is None
    return _same_values(np.asarray(a), np.asarray(b), "float32")


def writable(t: Any) -> bool:
    """False for memory PyTorch's kernels laid out with a zero stride (``autograd.grad`` of a
    ``sum`` returns an expanded tensor: writing it raises in PyTorch, a detail of theirs),
    and for views of such memory. ``expand()`` results stay: the user made them."""
    root = t if t._base is None else t._base
    return not (root.numel() > 1 and 0 in root.stride())

"""Every torch function and Tensor method microtorch implements takes PyTorch's keyword names.

For each implemented name (docs/api_coverage.md) and each of PyTorch 2.13's overloads of it
(tests/torch_signatures.py), arguments are made from the parameters' types and names, and
the call is made twice, in torch and in microtorch: every argument that can be given by
keyword by keyword (``torch.flip(input=x, dims=[0])``), and positionally then by keyword
(``torch.flip(x, [0])``). Where torch returns, microtorch must return the same values, dtypes
and shapes; where torch raises, microtorch must raise the same kind of exception.

The tensors come in a few shapes and dtypes (``PROFILES``): an overload is tried in the first
one torch accepts (``torch.dot`` wants vectors, ``torch.gcd`` integers). Overloads no course
reaches are left out by rule (named-tensor ``Dimname`` overloads, the deprecated ones torch
warns about, ``out=``); names that cannot be generated are in ``SKIPPED`` with the reason,
and a skipped name that passes after all fails, so the table cannot go stale.
"""

from __future__ import annotations

import contextlib
import math
import re
import warnings
from typing import Any, NamedTuple

import numpy as np
import pytest

import microtorch
from tests.keyword_parity_todo import NOT_YET, WRONG_TEXT
from tests.test_api_coverage import IMPLEMENTED
from tests.torch_signatures import Overload, Param, overloads

# Names whose calls cannot be generated or compared, with the reason. A name that cannot be
# generated and is not here fails the test.
SKIPPED: dict[str, str] = {
    "torch.einsum": "its operands follow an equation string: no keyword names but equation",
    "torch.from_numpy": "takes a numpy array, positionally only (no keyword form)",
    "torch.from_file": "reads a file",
    "torch.frombuffer": "reads a Python buffer",
    "torch.load": "reads a file",
    "torch.save": "writes a file",
    "torch.get_device": "torch gives no signature (the stub has none); get_device(input)",
    "torch.is_anomaly_check_nan_enabled": "torch gives no signature (no stub, no docstring)",
    "torch.is_anomaly_enabled": "torch gives no signature (no stub, no docstring)",
    "torch.set_anomaly_enabled": "torch gives no signature (no stub, no docstring)",
    "torch.get_rng_state": "numpy's generator state, not torch's Mersenne Twister: sizes differ",
    "torch.set_default_tensor_type": "deprecated; changes the default dtype of the process",
    "torch.set_flush_denormal": "its result is the CPU's (torch: True here); numpy never flushes",
    "torch.set_num_interop_threads": "torch allows one call per process, before parallel work",
    "torch.unique_consecutive": "torch gives no signature ((*args, **kwargs), docstring none)",
}

# Values nobody can compare between two libraries: random draws, uninitialized memory.
VALUES_DIFFER = re.compile(
    r"(^|\.)(binomial|seed|initial_seed|get_rng_state|data_ptr|get_num_threads|rand|randn|randint|randperm|normal|bernoulli|multinomial|poisson|dropout|"
    r"alpha_dropout|feature_alpha_dropout|feature_dropout|native_dropout|rrelu|empty|"
    r"new_empty|empty_like|uniform_|normal_|random_|exponential_|geometric_|log_normal_|"
    r"cauchy_|bernoulli_|rand_like|randn_like|randint_like|rrelu_|empty_strided|"
    r"new_empty_strided|empty_permuted)$"
)


class Profile(NamedTuple):
    kind: str  # "float" (float64), "int" (int64), "bool"
    shape: tuple[int, ...]


PROFILES = [
    Profile("float", (3, 3)),
    Profile("float", (3,)),
    Profile("int", (3, 3)),
    Profile("int", (3,)),
    Profile("bool", (3, 3)),
    Profile("float", (2, 3, 3)),
    Profile("float", ()),
]


class Arr(NamedTuple):
    """A tensor to be: made in torch and in microtorch from the same numpy array."""

    data: np.ndarray


class Attr(NamedTuple):
    """An attribute of the library: ``Attr("float64")`` is torch.float64 / microtorch.float64."""

    name: str


class CannotGenerate(Exception):
    pass


class Hook(NamedTuple):
    """A hook function that does nothing (register_hook's argument)."""


def _no_op_hook(grad: Any) -> None:
    return None


def _values(profile: Profile, k: int) -> np.ndarray:
    """The k-th tensor of a profile: distinct values (no ties for sort or max), in (0, 1)."""
    n = math.prod(profile.shape)
    order = np.random.default_rng(k).permutation(n).reshape(profile.shape)
    if profile.kind == "int":
        return (order + 1).astype(np.int64)
    if profile.kind == "bool":
        return order % 2 == 0
    return (order + 1) / (n + 1)


def _index(profile: Profile) -> np.ndarray:
    size = profile.shape[0] if profile.shape else 1
    return (np.random.default_rng(7).permutation(math.prod(profile.shape)) % size).reshape(
        profile.shape
    )


def _tensor(name: str, profile: Profile, k: int) -> Arr:
    if name in ("index", "indices"):
        return Arr(_index(profile))
    if name == "sorter":  # the order that sorts the sorted_sequence (tensor 0) along its last dim
        return Arr(np.argsort(_values(profile, 0), axis=-1))
    if name == "LU_pivots" and len(profile.shape) >= 2:  # 1-based row swaps: here none
        rows = min(profile.shape[-2:])
        return Arr(
            np.broadcast_to(
                np.arange(1, rows + 1, dtype=np.int32), (*profile.shape[:-2], rows)
            ).copy()
        )
    if name in ("mask", "condition"):
        return Arr(_values(Profile("bool", profile.shape), 9))
    return Arr(_values(profile, k))


INTS = {"dim": 0, "dim0": 0, "dim1": -1, "start_dim": 0, "end_dim": -1, "axis": 0}
INTS |= {"source": 0, "destination": -1, "diagonal": 0, "offset": 0, "k": 1, "n": 1}
INTS |= {"start": 0, "end": 3, "step": 1, "steps": 4, "length": 1, "chunks": 2}
INTS |= {"repeats": 2, "num_samples": 2, "bins": 4, "minlength": 0, "decimals": 1}
INTS |= {"high": 5, "low": 0, "p": 2, "groups": 1, "correction": 1, "shifts": 1}
INTS |= {"split_size": 1, "sections": 1, "size": 2, "dimension": 0, "index": 0}
NUMBERS = {"alpha": 2, "beta": 0.5, "value": 0.5, "other": 2, "exponent": 2, "min": 0.2}
NUMBERS |= {"max": 0.8, "p": 2, "eps": 1e-6, "fill_value": 0.5, "start": 0, "end": 3}
NUMBERS |= {"step": 1, "lambd": 0.5, "threshold": 0.5, "negative_slope": 0.1, "weight": 0.5}
NUMBERS |= {"q": 0.5, "rtol": 1e-5, "atol": 1e-8, "base": 2.0, "min_val": 0.2, "max_val": 0.8}
STRINGS = {"rounding_mode": "floor", "interpolation": "linear", "side": "left"}
STRINGS |= {"indexing": "ij", "approximate": "tanh", "UPLO": "L", "reduce": "sum"}
STRINGS |= {"device": "cpu"}
# (function, parameter) -> its argument, where the name alone does not say. The setters of
# global state get the state a test runs in, so that they change nothing for other tests.
ARGUMENTS_OF: dict[tuple[str, str], Any] = {
    ("scatter", "reduce"): "add",
    ("scatter_", "reduce"): "add",
    ("set_default_dtype", "d"): Attr("float32"),
    ("set_default_device", "device"): None,  # ("cpu" would leave torch a device mode on)
    ("set_deterministic_debug_mode", "debug_mode"): 0,
    ("set_float32_matmul_precision", "precision"): "highest",
    ("set_grad_enabled", "mode"): True,
    ("set_num_threads", "int"): 1,
    ("set_warn_always", "b"): False,
    ("use_deterministic_algorithms", "mode"): False,
}
TENSOR_NAMES = {"input", "tensor", "self", "other", "gradient", "A", "B", "x1", "x2", "a", "b"}
TENSOR_NAMES |= {"tensors", "matrices", "obj", "operands"}


def _int_list(name: str, profile: Profile, fn: str) -> list[int]:
    ndim = len(profile.shape)
    if name in ("size", "shape"):
        return list(profile.shape)
    if name == "sizes":  # unflatten's: the first dimension unflattened into (n, 1)
        return [profile.shape[0], 1] if profile.shape else []
    if name == "dims" and fn.endswith("permute"):
        return list(range(ndim))[::-1]
    if name in ("repeats", "dims") and fn.endswith(("repeat", "tile")):
        return [2] + [1] * max(ndim - 1, 0)
    if name == "shifts":
        return [1]
    if name in ("kernel_size", "output_size"):
        return [2]
    if name in ("stride", "dilation"):
        return [1]
    if name == "padding":
        return [0]
    return [0]


def _alternatives(annotation: str) -> list[str]:
    """``"_int | Sequence[_int | SymInt] | None"`` -> its top-level alternatives."""
    text = re.sub(r"\btyping\.|\btorch\.", "", annotation)
    text = re.sub(r"^Optional\[(.*)\]$", r"\1 | None", text)
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    parts.append(current.strip())
    return [p for p in parts if p]


def _value(p: Param, profile: Profile, k: int, fn: str) -> Any:
    """A valid argument for ``p``; raises CannotGenerate if none is known."""
    if (fn.rsplit(".", 1)[1], p.name) in ARGUMENTS_OF:
        return ARGUMENTS_OF[fn.rsplit(".", 1)[1], p.name]
    options = _alternatives(p.annotation)
    if not options:  # a Python function's unannotated parameter: its default says the type
        if isinstance(p.default, bool):
            return p.default
        if p.name in TENSOR_NAMES:
            return _tensor(p.name, profile, k)
        if p.name in ("size", "shape", "sizes"):
            return _int_list(p.name, profile, fn)
        if p.name == "hook":
            return Hook()
        if p.name == "seed":
            return 0
        if isinstance(p.default, int) or p.name in INTS:
            return INTS.get(p.name, 1)
        if p.name in STRINGS:
            return STRINGS[p.name]
        if p.has_default:
            return p.default
        raise CannotGenerate(f"{p.name}: no annotation, no default")
    for option in options:
        if option == "Tensor":
            return _tensor(p.name, profile, k)
        if option in ("_int", "int", "SymInt"):
            if p.kind == "varargs":  # `*dims: _int`: as many as the list form takes
                return _int_list(p.name, profile, fn)
            return INTS.get(p.name, 1)
        if option in ("_bool", "bool", "Literal[False]"):
            return False
        if option == "Literal[True]":
            return True
        if option in ("Number", "_float", "float", "_complex", "SymFloat"):
            return NUMBERS.get(p.name, 0.5 if "float" in option else 2)
        if option in ("_size", "Sequence[_int | SymInt]", "list[int]", "List[int]"):
            return _int_list(p.name, profile, fn)
        if option in ("_dtype", "dtype"):
            return Attr("float64")
        if option == "_layout":
            return Attr("strided")
        if option == "memory_format":
            return Attr("contiguous_format")
        if option in ("DeviceLikeType", "_device"):
            return "cpu"
        if option in ("tuple[Tensor, ...] | list[Tensor]", "tuple[Tensor, ...]", "list[Tensor]"):
            return [_tensor(p.name, profile, k), _tensor(p.name, profile, k + 1)]
        if option in ("Any", "object") and p.name in ("data", "obj"):
            return _values(profile, k).tolist()  # a nested list, as torch.tensor(data) takes
        if option == "Sequence[Number | _complex]":
            return [1.0]
        if option == "Device":
            return "cpu"
        if option in ("str",) and p.name in STRINGS:
            return STRINGS[p.name]
    if "None" in options or p.has_default:
        return None if "None" in options else p.default
    raise CannotGenerate(f"{p.name}: {p.annotation}")


def _make(spec: Any, lib: Any) -> Any:
    if isinstance(spec, Arr):
        return lib.tensor(spec.data.copy())
    if isinstance(spec, Attr):
        return getattr(lib, spec.name)
    if isinstance(spec, Hook):
        return _no_op_hook
    if isinstance(spec, list):
        return [_make(s, lib) for s in spec]
    return spec


def _left_out(overload: Overload) -> str | None:
    """Why an overload is not checked at all, by rule; None if it is."""
    seen_number = False
    for p in overload.params:
        options = _alternatives(p.annotation)
        if p.name == "out_dtype":
            return "out_dtype= (torch 2.13's CPU build raises NotImplementedError)"
        if p.kind == "positional" and p.name in ("alpha", "beta", "value") and "Number" in options:
            seen_number = True
        if seen_number and p.kind == "positional" and "Tensor" in options:
            return "deprecated overload (a scale before the tensors: torch warns)"
        if p.name == "names" or (
            ("dim" in p.name or p.name == "other") and "str" in _alternatives(p.annotation)
        ):
            return "named tensors (Dimname)"
    return None


class Call(NamedTuple):
    form: str  # "keyword" or "positional"
    self_spec: Any  # the Tensor of a method call, else None
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


def _calls(name: str, overload: Overload, profile: Profile) -> list[Call]:
    method = name.startswith("torch.Tensor.")
    k = 0
    self_spec = None
    if method:
        self_spec, k = _tensor("self", profile, 0), 1
    values: dict[str, Any] = {}
    for p in overload.params:
        if p.name == "out":
            continue
        values[p.name] = _value(p, profile, k, name)
        k += isinstance(values[p.name], Arr)
    by_kind = {kind: [p for p in overload.params if p.kind == kind and p.name in values]
               for kind in ("positional-only", "positional", "varargs", "keyword")}  # fmt: skip
    keywords = {p.name: values[p.name] for p in by_kind["keyword"]}
    varargs = by_kind["varargs"]
    star: tuple[Any, ...] = ()
    if varargs:
        given = values[varargs[0].name]
        star = (
            tuple(given) if isinstance(given, list) and varargs[0].name != "tensors" else (given,)
        )
    only = tuple(values[p.name] for p in by_kind["positional-only"])
    positional = only + tuple(values[p.name] for p in by_kind["positional"]) + star
    calls = [Call("positional", self_spec, positional, dict(keywords))]
    if by_kind["positional"] and not varargs:
        named = {p.name: values[p.name] for p in by_kind["positional"]}
        calls.insert(0, Call("keyword", self_spec, only, named | keywords))
    return calls


def _run(lib: Any, name: str, call: Call) -> tuple[Any, Any]:
    """(result, self after the call) or (exception, None)."""
    attr = name.rsplit(".", 1)[1]
    args = tuple(_make(a, lib) for a in call.args)
    kwargs = {key: _make(v, lib) for key, v in call.kwargs.items()}
    target = _make(call.self_spec, lib) if call.self_spec is not None else None
    fn = getattr(target, attr) if target is not None else getattr(lib, attr)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args, **kwargs), target
    except Exception as error:  # noqa: BLE001 (compared with torch's)
        return error, None


def _plain(value: Any, lib: Any, compare_values: bool) -> Any:
    if isinstance(value, lib.Tensor):
        data = value.detach().numpy()
        shown = data.tolist() if compare_values else None
        return ("tensor", str(value.dtype).rsplit(".", 1)[1], tuple(value.shape), shown)
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v, lib, compare_values) for v in value)
    if isinstance(value, lib.dtype):
        return ("dtype", str(value).rsplit(".", 1)[1])
    if isinstance(value, str):  # x.type(): "torch.DoubleTensor"
        return re.sub(r"^microtorch\.", "torch.", value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float, complex)):  # a seed, an address: only its type
        return value if compare_values else type(value).__name__
    return ("object", type(value).__name__)


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, list) and isinstance(b, list):
        x, y = np.asarray(a), np.asarray(b)
        if x.shape != y.shape:
            return False
        if x.dtype.kind in "fc" or y.dtype.kind in "fc":
            return bool(np.allclose(x, y, rtol=1e-6, atol=1e-9, equal_nan=True))
        return bool(np.array_equal(x, y))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9) or (math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and a == b


def _builtin(error: BaseException) -> type:
    """The builtin exception class an error is of: torch's LinAlgError is a RuntimeError."""
    return next(c for c in type(error).__mro__ if c.__module__ == "builtins")


def _deprecated(torch: Any, name: str, call: Call) -> bool:
    attr = name.rsplit(".", 1)[1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        target = _make(call.self_spec, torch) if call.self_spec is not None else None
        fn = getattr(target, attr) if target is not None else getattr(torch, attr)
        with contextlib.suppress(Exception):
            fn(
                *(_make(a, torch) for a in call.args),
                **{k: _make(v, torch) for k, v in call.kwargs.items()},
            )
    return any("deprecated" in str(w.message) for w in caught)


def check(torch: Any, name: str, overload: Overload) -> tuple[str, list[str]]:
    """("checked" | a reason it was left out, failures) for one (name, overload)."""
    left_out = _left_out(overload)
    if left_out:
        return left_out, []
    chosen = None
    for profile in PROFILES:
        calls = _calls(name, overload, profile)
        if chosen is None:
            chosen = calls
        result, _ = _run(torch, name, calls[0])
        if not isinstance(result, Exception):
            chosen = calls
            break
    assert chosen is not None
    if _deprecated(torch, name, chosen[0]):
        return "deprecated overload (torch warns)", []
    compare_values = not VALUES_DIFFER.search(name)
    failures = []
    for call in chosen:
        expected, expected_self = _run(torch, name, call)
        got, got_self = _run(microtorch, name, call)
        shown = f"{name}{overload.text()} {call.form}"
        if isinstance(expected, Exception):
            if not isinstance(got, Exception) or _builtin(got) is not _builtin(expected):
                failures.append(f"{shown}: torch raises {expected!r}, microtorch gives {got!r}")
            continue
        if isinstance(got, Exception):
            failures.append(f"{shown}: torch returns, microtorch raises {got!r}")
            continue
        a = _plain((expected, expected_self), torch, compare_values)
        b = _plain((got, got_self), microtorch, compare_values)
        if not _close(a, b):
            failures.append(f"{shown}: torch gives {a}, microtorch {b}")
        elif call.form == "keyword":
            failures += _wrong_types(torch, name, overload, call, shown)
    return "checked", failures


INT_LIKE = {"_int", "int", "SymInt", "_size", "Sequence[_int | SymInt]", "list[int]"}


def _wrong_types(torch: Any, name: str, overload: Overload, call: Call, shown: str) -> list[str]:
    """A float where an int (or a list of ints) goes, one parameter at a time: where torch's
    parser refuses it (``x.roll(1.5)``), microtorch must raise a TypeError too, not go on with
    it. (Its first line: test_a_float_for_an_int_gets_pytorchs_first_line.)"""
    failures = []
    for p in overload.params:
        options = _alternatives(p.annotation)
        if p.name not in call.kwargs or not options or options[0] not in INT_LIKE:
            continue
        given = call.kwargs[p.name]
        wrong = [1.5] if isinstance(given, list) else 1.5
        probe = call._replace(kwargs={**call.kwargs, p.name: wrong})
        expected, _ = _run(torch, name, probe)
        if not isinstance(expected, TypeError):
            continue
        got, _ = _run(microtorch, name, probe)
        if not isinstance(got, TypeError):
            failures.append(
                f"{shown} {p.name}={wrong}: torch raises {expected!r}, microtorch {got!r}"
            )
    return failures


def _first_line(error: BaseException) -> str:
    return str(error).split("\n")[0].replace("microtorch.", "torch.")


def _float_probes(overload: Overload, call: Call) -> list[tuple[str, Call]]:
    """``call`` with a float (or ``[1.5]``) for one int-like parameter at a time, given as the
    call gives it: by keyword, or by position."""
    params = [p for p in overload.params if p.name != "out"]
    positional = [p for p in params if p.kind in ("positional-only", "positional")]
    probes = []
    for p in params:
        options = _alternatives(p.annotation)
        if not options or options[0] not in INT_LIKE:
            continue
        if p.name in call.kwargs:
            wrong = [1.5] if isinstance(call.kwargs[p.name], list) else 1.5
            kwargs = {**call.kwargs, p.name: wrong}
            probes.append((f"{p.name}={wrong}", call._replace(kwargs=kwargs)))
        elif p in positional and positional.index(p) < len(call.args):
            i = positional.index(p)
            args = list(call.args)
            args[i] = [1.5] if isinstance(args[i], list) else 1.5
            probes.append((f"{p.name} {args[i]} by position", call._replace(args=tuple(args))))
    return probes


def wrong_texts_of(torch: Any, name: str) -> list[str]:
    """Each call with a float where an int goes that torch's parser refuses with a TypeError
    whose first line microtorch's TypeError does not start with (its fix may follow)."""
    failures = []
    for overload in overloads(torch, name) or []:
        if _left_out(overload):
            continue
        chosen = None
        for profile in PROFILES:
            try:
                calls = _calls(name, overload, profile)
            except CannotGenerate:
                break
            chosen = chosen or calls
            if not isinstance(_run(torch, name, calls[0])[0], Exception):
                chosen = calls
                break
        for call in chosen or []:
            for shown, probe in _float_probes(overload, call):
                expected, _ = _run(torch, name, probe)
                if not isinstance(expected, TypeError):
                    continue
                got, _ = _run(microtorch, name, probe)
                if not isinstance(got, TypeError) or not _first_line(got).startswith(
                    _first_line(expected)
                ):
                    failures.append(
                        f"{name}{overload.text()} {call.form}, {shown}: torch raises "
                        f"{_first_line(expected)!r}, microtorch {type(got).__name__}: "
                        f"{_first_line(got) if isinstance(got, Exception) else got!r}"
                    )
    return failures


def _checked_names() -> list[str]:
    names = []
    for row in IMPLEMENTED:
        parts = row.name.split(".")
        if parts[-1].startswith("__"):
            continue  # Python's operators and protocols call these, never by keyword
        if len(parts) == 2 or (len(parts) == 3 and parts[1] == "Tensor"):
            names.append(row.name)
    return names


NAMES = _checked_names()


def _torch_callable(torch: Any, name: str) -> bool:
    parts = name.split(".")
    value = getattr(torch.Tensor if len(parts) == 3 else torch, parts[-1])
    return callable(value) and not isinstance(value, type) and not hasattr(value, "__path__")


def failures_of(torch: Any, name: str) -> list[str]:
    """Every failing call of ``name`` (each overload, both forms), as lines of a report."""
    failures = []
    for overload in overloads(torch, name) or []:
        failures += check(torch, name, overload)[1]
    return failures


@pytest.fixture(autouse=True)
def _random_state_kept(torch_module: Any) -> Any:
    """The calls (manual_seed, seed, rand ..., set_num_threads) leave both libraries as they
    found them, so the tests that run after these in the same process draw what they would."""
    seeds = torch_module.initial_seed(), microtorch.initial_seed()
    states = torch_module.get_rng_state(), microtorch.get_rng_state()
    threads = torch_module.get_num_threads(), microtorch.get_num_threads()  # (set_num_threads)
    yield
    torch_module.set_num_threads(threads[0])
    microtorch.set_num_threads(threads[1])
    torch_module.manual_seed(seeds[0])
    microtorch.manual_seed(seeds[1])
    torch_module.set_rng_state(states[0])
    microtorch.set_rng_state(states[1])


@pytest.mark.parametrize("name", NAMES)
def test_pytorch_keywords_are_taken(name: str, torch_module: Any) -> None:
    if not _torch_callable(torch_module, name):
        pytest.skip("not a function: a class, module or constant")
    if name in SKIPPED:
        pytest.skip(SKIPPED[name])
    found = overloads(torch_module, name)
    assert found is not None, f"{name}: torch gives no signature; add it to SKIPPED, saying why"
    failures = []
    for overload in found:
        try:
            failures += check(torch_module, name, overload)[1]
        except CannotGenerate as error:
            pytest.fail(f"{name}: cannot make an argument ({error}); teach _value or SKIP it")
    known = NOT_YET.get(name)
    if known:
        assert failures, f"{name} passes now: take it out of NOT_YET ({known})"
        pytest.xfail(known)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", NAMES)
def test_a_float_for_an_int_gets_pytorchs_first_line(name: str, torch_module: Any) -> None:
    """torch.argsort(x, 1.5), x.argsort(dim=1.5): PyTorch's parser text, first line whole
    ("argsort(): argument 'dim' must be int, not float", "... received an invalid combination
    of arguments - got (...)"), by position and by keyword."""
    if not _torch_callable(torch_module, name) or name in SKIPPED:
        pytest.skip("not checked: see test_pytorch_keywords_are_taken")
    failures = wrong_texts_of(torch_module, name)
    known = WRONG_TEXT.get(name)
    if known:
        assert failures, f"{name} passes now: take it out of WRONG_TEXT ({known})"
        pytest.xfail(known)
    assert not failures, "\n".join(failures)


def test_the_skip_tables_name_implemented_names_with_reasons() -> None:
    for name, reason in (SKIPPED | NOT_YET | WRONG_TEXT).items():
        assert name in NAMES and reason.strip(), name
    assert not set(SKIPPED) & (set(NOT_YET) | set(WRONG_TEXT))

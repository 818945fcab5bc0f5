"""PyTorch's argument-parser errors, e.g. ``chunk(): argument 'chunks' (position 1) must be int``.

PyTorch checks every call against the signatures it declares before an op runs. An op here
declares the same signatures, in PyTorch's words, with ``parsed``:

    @parsed("chunk", "Tensor input, int chunks, int dim=0")

The check runs only when the op fails (so a correct call costs nothing but the wrapper): if
the arguments do not fit any signature, PyTorch's ``TypeError`` replaces whatever the op
raised, as PyTorch's parser speaks before its kernel. ``fn.method`` is the Tensor method's
form: PyTorch counts positions after ``self`` there (``x.chunk([1])``: position 1).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

import numpy as np

from microtorch.api._checks import type_name
from microtorch.api.keyword_order import unordered_map_order
from microtorch.api.keywords import by_fn_names
from microtorch.autograd import node as _node
from microtorch.dtypes import dtype

__all__ = [
    "DEPRECATED",
    "NO_DIM",
    "alias",
    "Param",
    "expect_bool",
    "expect_int",
    "expect_ints",
    "method_of",
    "parse_signature",
    "parsed",
    "parser_error",
    "reraise",
]

F = TypeVar("F", bound=Callable[..., Any])


class _NoDim:
    def __repr__(self) -> str:
        return "NO_DIM"


# A signature PyTorch still takes but no longer lists in its errors (``add(x, 2, y)``, alpha
# second): ``"deprecated: Tensor input, Number alpha, Tensor other"``
DEPRECATED = "deprecated: "

# The default of a ``dim`` that PyTorch has no None for (``x.max()``, ``x.squeeze()``): an
# explicit ``dim=None`` is then PyTorch's TypeError, not the call without a dim.
NO_DIM: Any = _NoDim()


class Param(NamedTuple):  # (a NamedTuple, not a dataclass: dataclasses costs ~5 ms at import)
    """One parameter: PyTorch's type (``int``, ``tuple of ints``, ``Tensor`` ...), name, default."""

    type: str
    name: str
    default: str | None  # as written; None when required
    keyword_only: bool

    def shown(self) -> str:
        default = "" if self.default is None else f" = {self.default}"
        return f"{self.type} {self.name}{default}"


def parse_signature(text: str) -> tuple[Param, ...]:
    """``"Tensor input, int dim=0, *, torch.dtype dtype=None"`` as parameters."""
    params, keyword_only = [], False
    # (split at the commas outside brackets: "tuple of ints dims=[0, 1]" is one parameter)
    for part in (p.strip() for p in re.split(r",(?![^\[]*\])", text) if p.strip()):
        if part == "*":
            keyword_only = True
            continue
        declared, _, default = part.partition("=")
        kind, _, name = declared.strip().rpartition(" ")
        params.append(Param(kind, name, default.strip() or None, keyword_only))
    return tuple(params)


def _is_int(value: Any) -> bool:
    if isinstance(value, _node.Tensor):  # a 0-d integer tensor counts, as in PyTorch
        return value._data.ndim == 0 and value._data.dtype.kind in "iu"
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_size(value: Any) -> bool:
    # a later element of a list of ints: PyTorch takes a bool there (x.reshape(2, True)),
    # not as the first
    return _is_int(value) or isinstance(value, (bool, np.bool_))


_ALIASES = {"axis": "dim", "keepdims": "keepdim"}  # numpy's names, which PyTorch also takes


def _fits(kind: str, value: Any, default: str | None, numbers: bool = False) -> bool:
    if value is None and default == "None":
        return True
    if numbers and kind == "Tensor" and isinstance(value, (int, float, np.number, np.bool_)):
        return True  # (torch.add(x, 2), torch.add(2, x): numbers as tensors)
    if kind == "int":
        return _is_int(value)
    if kind in ("tuple of ints", "int[]"):  # (int[]: a list only, not one int)
        return (kind == "tuple of ints" and _is_int(value)) or (
            isinstance(value, (tuple, list))
            and all(_is_size(v) if i else _is_int(v) for i, v in enumerate(value))
        )
    if kind == "Tensor":
        return isinstance(value, _node.Tensor)
    if kind == "tuple of Tensors":
        return isinstance(value, (tuple, list)) and all(isinstance(v, _node.Tensor) for v in value)
    if kind == "tuple of Scalars":
        return isinstance(value, (tuple, list)) and all(_fits("Number", v, None) for v in value)
    if kind == "bool":
        return isinstance(value, (bool, np.bool_))
    if kind == "Number":  # (a 0-d tensor counts as a number, unless it requires grad)
        if isinstance(value, _node.Tensor):
            return value._data.ndim == 0 and not value.requires_grad
        return isinstance(value, (int, float, np.number, np.bool_))
    if kind == "torch.dtype":
        return isinstance(value, dtype)
    if kind == "str":  # (None too: PyTorch prints an optional str? as str)
        return value is None or isinstance(value, str)
    return True  # (a type this module does not check)


def _type_error(op: str, param: Param, value: Any, position: int | None) -> str:
    where = "" if position is None else f" (position {position})"
    if param.type == "tuple of Tensors" and isinstance(value, (tuple, list)):
        bad = next(i for i, v in enumerate(value) if not isinstance(v, _node.Tensor))
        return f"expected Tensor as element {bad} in argument 0, but got {_got(value[bad])}"
    if param.type in ("tuple of ints", "int[]") and isinstance(value, (tuple, list)) and value:
        bad = next(i for i, v in enumerate(value) if not (_is_size(v) if i else _is_int(v)))
        if bad > 0:
            return (
                f"{op}(): argument '{param.name}' failed to unpack the object at pos {bad + 1} "
                f'with error "type must be tuple of ints,but got {_got(value[bad])}"'
            )
        if position is not None:
            return (
                f"{op}(): argument '{param.name}'{where} must be tuple of ints, but found "
                f"element of type {_got(value[0])} at pos 0"
            )
    kind = "tuple of ints" if param.type == "int[]" else param.type
    return f"{op}(): argument '{param.name}'{where} must be {kind}, not {_got(value)}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _one(
    op: str,
    params: tuple[Param, ...],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    numbers: bool = False,
) -> str | None:
    """PyTorch's error for a call that does not fit the one signature ``params``, or None."""
    positional = [p for p in params if not p.keyword_only]
    args = list(args)
    names = {p.name for p in params}
    kwargs = {  # (out= is torch_keywords' to check)
        _ALIASES.get(k, k) if _ALIASES.get(k) in names else k: v
        for k, v in kwargs.items()
        if k != "out"
    }
    # A list of ints as the only positional parameter also takes the ints one by one
    # (x.reshape(2, 3), x.reshape(6)) when the first of them is an int (x.reshape(2.0, 3): too
    # many); not so torch.reshape(x, 2, 3), whose shape is its second parameter.
    sizes = len(positional) == 1 and positional[0].type in ("tuple of ints", "int[]")
    if sizes and args and _is_int(args[0]):
        args = [args]
    if len(args) > len(positional):
        least = len([p for p in positional if p.default is None])
        takes = (
            _plural(len(positional), "positional argument")
            if least == len(positional)
            else f"from {least} to {len(positional)} positional arguments"
        )
        given = f"{len(args)} {'was' if len(args) == 1 else 'were'} given"
        return f"{op}() takes {takes} but {given}"
    for i, p in enumerate(params):
        if i < len(args):
            if p.name in kwargs:
                return f"{op}() got multiple values for argument '{p.name}'"
            if not _fits(p.type, args[i], p.default, numbers):
                return _type_error(op, p, args[i], i + 1)
        elif p.name in kwargs:
            if not _fits(p.type, kwargs[p.name], p.default, numbers):
                return _type_error(op, p, kwargs[p.name], None)
        elif p.default is None:
            missing = [q.name for q in params[i:] if q.default is None and q.name not in kwargs]
            listed = ", ".join(f'"{name}"' for name in missing)
            # (PyTorch's own wording: "1 required positional arguments", "2 ... argument")
            word = "arguments" if len(missing) == 1 else "argument"
            return f"{op}() missing {len(missing)} required positional {word}: {listed}"
    for key in kwargs:  # (after the parameters, as PyTorch checks)
        if key not in names:
            return f"{op}() got an unexpected keyword argument '{key}'"
    return None


def parser_error(
    op: str,
    signatures: Sequence[str],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    numbers_as_tensors: bool = False,
) -> str | None:
    """PyTorch's message for ``op(*args, **kwargs)`` against ``signatures``; None if it fits.
    With ``numbers_as_tensors`` a Tensor parameter takes a Python number too, as PyTorch's
    element-wise functions do."""
    parsed_signatures = [parse_signature(s.removeprefix(DEPRECATED)) for s in signatures]
    errors = [_one(op, ps, args, kwargs, numbers_as_tensors) for ps in parsed_signatures]
    if any(e is None for e in errors):
        return None
    unpacking = [e for e in errors if e is not None and "failed to unpack" in e]
    if unpacking:  # (PyTorch raises this one while it reads the list, whatever the overload)
        return unpacking[0]
    # With one signature that takes this many arguments, PyTorch names the argument at fault
    n = len(args) + len(kwargs)
    plausible = [
        e
        for e, params in zip(errors, parsed_signatures)
        if len([p for p in params if p.default is None]) <= n <= len(params)
    ]
    if len(errors) == 1 or len(plausible) == 1:
        return plausible[0] if plausible else errors[0]
    # (PyTorch's own format: "(int, dim=str)", but keywords alone "(b=int, a=int, )"; the
    # keywords in its C++ hash table's order)
    named = [f"{k}={_got(kwargs[k])}" for k in unordered_map_order(list(kwargs))]
    got = ", ".join([_got(a) for a in args] + named) if args else "".join(f"{k}, " for k in named)
    listed = [
        params
        for text, params in zip(signatures, parsed_signatures)
        if not text.startswith(DEPRECATED)  # (PyTorch matches them but does not list them)
    ]
    shown = [", ".join(_shown(params)) for params in listed]
    if len(shown) == 1:
        return (
            f"{op}() received an invalid combination of arguments - got ({got}), but expected "
            f"({shown[0]})"
        )
    expected = "".join(
        f" * ({text})\n{_why_not(params, args, kwargs, numbers_as_tensors)}"
        for text, params in zip(shown, listed)
    )
    return (
        f"{op}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{expected}"
    )


def _why_not(
    params: tuple[Param, ...], args: Sequence[Any], kwargs: dict[str, Any], numbers: bool
) -> str:
    """PyTorch's line under a listed signature that takes as many arguments as were given:
    the keywords it has no name for, or else the arguments with a wrong type, in ``!`` (a
    Number always, as PyTorch marks it)."""
    # (seen in PyTorch 2.13: no such lines under a signature with keyword-only parameters)
    if any(p.keyword_only for p in params) or len(params) != len(args) + len(kwargs):
        return ""
    # PyTorch looks a keyword up among the last len(kwargs) parameters, and reads the name of
    # one with a default as its default ("int dim = 0" is named "0"): a quirk, kept
    later = params[max(len(params) - len(kwargs), 0) :]
    named = {p.name: p for p in later if p.default is None}
    wrong = [k for k in unordered_map_order(list(kwargs)) if k not in named]
    if wrong:
        return (
            f"      didn't match because some of the keywords were incorrect: {', '.join(wrong)}\n"
        )
    marked = [
        _described(v) if _marked_fits(p, v, numbers) else f"!{_described(v)}!"
        for p, v in zip(params, args)
    ]
    keys = [  # (in the signature's order)
        f"{p.name}={_described(kwargs[p.name])}"
        if _marked_fits(p, kwargs[p.name], numbers)
        else f"!{p.name}={_described(kwargs[p.name])}!"
        for p in named.values()
        if p.name in kwargs
    ]
    text = ", ".join(marked + keys) if marked else "".join(f"{k}, " for k in keys)
    return f"      didn't match because some of the arguments have invalid types: ({text})\n"


def _marked_fits(p: Param, value: Any, numbers: bool) -> bool:
    # (PyTorch's why-not line marks a number given for a Number as wrong: subtract(x, 2, "a")
    # shows "(Tensor, !int!, !str!)")
    return p.type != "Number" and _fits(p.type, value, p.default, numbers)


def _described(value: Any) -> str:
    # PyTorch's description of an argument: "list of [float]", "tuple of (float,)"
    if isinstance(value, list):
        return f"list of [{', '.join(_got(v) for v in value)}]"
    if isinstance(value, tuple):
        inner = ", ".join(_got(v) for v in value) + ("," if len(value) == 1 else "")
        return f"tuple of ({inner})"
    return _got(value)


def _got(value: Any) -> str:
    return "Tensor" if isinstance(value, _node.Tensor) else type_name(value)


def _shown(params: tuple[Param, ...]) -> list[str]:
    out, star = [], False
    for p in params:
        if p.keyword_only and not star:
            out.append("*")
            star = True
        out.append(p.shown())
    return out


def parsed(op: str, *signatures: str, numbers_as_tensors: bool = False) -> Callable[[F], F]:
    """Let ``fn`` raise PyTorch's argument-parser ``TypeError`` when a failing call does not
    fit PyTorch's ``signatures`` (each starting with ``Tensor input``); ``fn.method`` is the
    form a Tensor method binds (``self`` is not counted). ``numbers_as_tensors``: see
    ``parser_error``."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def checked(*args: Any, **kwargs: Any) -> Any:
            try:
                if kwargs:  # torch.logical_and(input=x, other=y): the signatures' names
                    call = by_fn_names(fn, _names(signatures), False, args, dict(kwargs))
                    return fn(*call[0], **call[1])
                return fn(*args)
            except Exception as error:
                reraise(op, signatures, args, kwargs, error, numbers_as_tensors)
                raise

        @functools.wraps(fn)
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                if kwargs:  # x.logical_and(other=y)
                    call = by_fn_names(fn, _names(signatures), False, (self, *args), dict(kwargs))
                    return fn(*call[0], **call[1])
                return fn(self, *args)
            except Exception as error:
                # (the method's signatures are worked out only for an error message)
                methods = [_method_form(s) for s in signatures]
                reraise(op, methods, args, kwargs, error, numbers_as_tensors)
                raise

        checked.method = method  # type: ignore[attr-defined]
        checked.parser = (op, signatures, numbers_as_tensors)  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate


def alias(fn: F, op: str, *signatures: str) -> F:
    """The ``parsed`` function ``fn`` under PyTorch's other name ``op``, whose errors PyTorch
    words with that name (``torch.swapaxes(x, 0, 1.5)``: "swapaxes(): argument 'axis1' ...");
    ``signatures`` where the other name calls its arguments otherwise, else ``fn``'s."""
    _, own, numbers = getattr(fn, "parser")  # noqa: B009 - set by parsed
    inner: F = getattr(fn, "__wrapped__")  # noqa: B009 - set by functools.wraps
    return parsed(op, *(signatures or own), numbers_as_tensors=numbers)(inner)


@functools.cache
def _names(signatures: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """PyTorch's names for each position, over all the signatures (``other`` or ``dim``)."""
    at: list[list[str]] = []
    for signature in signatures:
        positional = [p for p in parse_signature(signature.removeprefix(DEPRECATED))]
        for k, p in enumerate(q for q in positional if not q.keyword_only):
            at.extend([] for _ in range(k + 1 - len(at)))
            if p.name not in at[k]:
                at[k].append(p.name)
    return tuple(tuple(names) for names in at)


def _method_form(signature: str) -> str:
    # The Tensor method's signature: without ``input`` (it is ``self``) and without ``out=``
    deprecated = DEPRECATED if signature.startswith(DEPRECATED) else ""
    params = [p for p in parse_signature(signature.removeprefix(deprecated))[1:] if p.name != "out"]
    return deprecated + ", ".join(_shown(tuple(params))).replace(" = ", "=")


def reraise(
    op: str,
    signatures: Sequence[str],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    error: Exception,
    numbers_as_tensors: bool = False,
) -> None:
    """Inside ``except``: PyTorch's ``TypeError`` if the call does not fit ``signatures``
    (microtorch's fix kept); returns when it fits, for the caller to re-raise ``error``."""
    message = parser_error(op, signatures, args, kwargs, numbers_as_tensors)
    if message is not None:
        raise TypeError(message + _fix(error)) from None


def expect_int(value: Any, name: str) -> None:
    """A TypeError unless ``value`` is an int (not a bool): the parser's cue in a ``parsed`` op."""
    if type(value) is not int and not _is_int(value):  # (the common case first: it is fast)
        raise TypeError(f"{name} must be int, not {_got(value)}")


def expect_ints(values: Any, name: str) -> None:
    """A TypeError unless ``values`` is an int or a list of ints: the parser's cue in a
    ``parsed`` op (``x.roll(1.5)``)."""
    for value in values if isinstance(values, (list, tuple)) else (values,):
        if type(value) is not int:  # (ints pass without a call: sizes are checked often)
            expect_int(value, name)


def expect_bool(value: Any, name: str) -> None:
    """A TypeError unless ``value`` is a bool: the parser's cue in a ``parsed`` op."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be bool, not {_got(value)}")


def _fix(error: Exception) -> str:
    # the fix microtorch's own error named, kept after PyTorch's text
    text = str(error)
    start = text.find("(Fix:")
    return "" if start < 0 else " " + text[start:]


def method_of(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The Tensor method's form of a ``parsed`` function (positions counted after ``self``)."""
    method: Callable[..., Any] = getattr(fn, "method")  # noqa: B009 - set by parsed
    return method

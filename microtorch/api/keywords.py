"""PyTorch's keyword names for arguments: ``torch.add(input=x, other=y)``, ``x.sum(axis=1)``.

microtorch's op functions name their tensor arguments briefly (``a``, ``b``); PyTorch's users
may pass them by PyTorch's names, and PyTorch's reductions also take numpy's ``axis=`` and
``keepdims=``. ``torch_keywords`` lets a function take both, without changing its code.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from microtorch.api.out_argument import call_with_out

__all__ = ["by_fn_names", "by_position", "method_keywords", "torch_keywords"]

F = TypeVar("F", bound=Callable[..., Any])

_NUMPY_ALIASES = {"axis": "dim", "keepdims": "keepdim"}  # numpy's name -> PyTorch's


def torch_keywords(
    *torch_names: str | tuple[str, ...], numpy_aliases: bool = False, out: bool = False
) -> Callable[[F], F]:
    """Let the decorated function take its positional parameters by ``torch_names`` too
    (in order: the first name for the first parameter ...; a tuple of names where PyTorch's
    overloads name one position differently; a ``*dims`` parameter by its name,
    ``flip(x, dims=[0])``); with ``numpy_aliases``, ``axis=`` for ``dim=`` and
    ``keepdims=`` for ``keepdim=``; with ``out``, ``out=`` (see out_argument.py), as PyTorch
    does."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def with_torch_keywords(*args: Any, **kwargs: Any) -> Any:
            if not kwargs:  # the common call: straight through
                return fn(*args)
            args, kwargs = by_fn_names(fn, torch_names, numpy_aliases, args, kwargs)
            if out and "out" in kwargs:
                written = kwargs.pop("out")  # (out=None is an ordinary call)
                if written is not None:
                    return call_with_out(fn.__name__, fn, args, kwargs, written)
            return fn(*args, **kwargs)

        with_torch_keywords.torch_names = (torch_names, numpy_aliases)  # type: ignore[attr-defined]
        return with_torch_keywords  # type: ignore[return-value]

    return decorate


def by_fn_names(
    fn: Any, torch_names: tuple[Any, ...], numpy_aliases: bool, args: Any, kwargs: Any
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``args`` and ``kwargs`` with PyTorch's keyword names renamed to ``fn``'s own; a value
    for ``fn``'s ``*dims`` comes last among the positional arguments."""
    rename, stars, leading = _renames(fn, torch_names, numpy_aliases)
    for given in [k for k in kwargs if k in rename]:
        target = rename[given]
        if target in kwargs:
            raise TypeError(
                f"{fn.__name__}() got multiple values for argument '{target}' "
                f"(Fix: pass either {given}= or {target}=)"
            )
        kwargs[target] = kwargs.pop(given)
    given = [name for name in stars if name in kwargs]
    if given:  # (flip(x, dims=[0]) is flip(x, [0]))
        named = [kwargs.pop(p) for p in leading[len(args) :] if p in kwargs]
        args = (*args, *named, *(kwargs.pop(name) for name in given))
    return tuple(args), kwargs


Renames = tuple[dict[str, str], tuple[str, ...], list[str]]
_renames_of: dict[Any, Renames] = {}  # (fn, torch_names, numpy_aliases) -> its renames


def _renames(fn: Any, torch_names: tuple[Any, ...], numpy_aliases: bool) -> Renames:
    """PyTorch's (and numpy's) keyword name -> the parameter's name in ``fn``; PyTorch's names
    of ``fn``'s ``*dims``, and the parameters before it; worked out on ``fn``'s first call with
    keywords (``inspect.signature`` is slow: not at import)."""
    key = (fn, torch_names, numpy_aliases)
    known = _renames_of.get(key)
    if known is None:
        params = inspect.signature(fn).parameters
        positional = [
            p.name
            for p in params.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
        ]
        rename = {t: p for t, p in zip(torch_names, positional) if isinstance(t, str) and t != p}
        for names, p in zip(torch_names, positional):  # (overloads naming a position apart)
            if not isinstance(names, str):
                rename.update((t, p) for t in names if t != p and t not in params)
        star = next((p.name for p in params.values() if p.kind == p.VAR_POSITIONAL), None)
        if numpy_aliases:  # (only for the arguments it has: softmax takes no keepdims=)
            for alias, name in _NUMPY_ALIASES.items():
                if rename.get(name, name) in params:
                    rename[alias] = rename.get(name, name)
        leading = positional[: positional.index(star)] if star in positional else []
        stars: tuple[str, ...] = ()
        if star is not None:  # (its PyTorch names, if it has them)
            names = next((t for t, p in zip(torch_names, positional) if p == star), star)
            stars = (names,) if isinstance(names, str) else names
            for name in stars:
                rename.pop(name, None)
        known = _renames_of[key] = (rename, stars, leading)
    return known


def _first(names: str | tuple[str, ...]) -> str:
    return names if isinstance(names, str) else names[0]


def method_keywords(fn: F) -> F:
    """``fn`` as a Tensor method: PyTorch's keyword names for the arguments after the tensor
    (``x.hypot(other=y)``, ``x.flip(dims=[0])``), but neither ``out=``
    nor a name for the tensor itself, which PyTorch's methods do not take."""
    # A ``parsed`` op counts positions after self in its ``method``; one parsed outermost
    # (``@parsed`` above ``@torch_keywords``) reads PyTorch's names itself, as the user gave them
    plain = getattr(fn, "__wrapped__", fn)
    parser_first = hasattr(fn, "method") and not hasattr(plain, "method")
    plain = getattr(fn if parser_first else plain, "method", plain)
    torch_names, numpy_aliases = getattr(fn, "torch_names", ((), False))

    @functools.wraps(plain)
    def method(*args: Any, **kwargs: Any) -> Any:
        if not kwargs:
            return plain(*args)
        for key in ("out", *(_first(t) for t in torch_names[:1])):
            if key in kwargs:
                raise TypeError(f"{plain.__name__}() got an unexpected keyword argument '{key}'")
        if not parser_first:
            args, kwargs = by_fn_names(plain, torch_names, numpy_aliases, args, kwargs)
        return plain(*args, **kwargs)

    return method  # type: ignore[return-value]


def by_position(fn: Any, args: Any, kwargs: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The call ``fn(*args, **kwargs)`` with every argument that has a position given by it
    (``atan2_(x, other=y)`` as ``atan2_(x, y)``: the in-place checks look at positions)."""
    bound = _signature(fn).bind(*args, **kwargs)
    return bound.args, bound.kwargs


@functools.cache
def _signature(fn: Any) -> inspect.Signature:
    return inspect.signature(fn)

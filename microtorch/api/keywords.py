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

__all__ = ["torch_keywords", "without_torch_keywords"]

F = TypeVar("F", bound=Callable[..., Any])

_NUMPY_ALIASES = {"axis": "dim", "keepdims": "keepdim"}  # numpy's name -> PyTorch's


def torch_keywords(
    *torch_names: str, numpy_aliases: bool = False, out: bool = False
) -> Callable[[F], F]:
    """Let the decorated function take its positional parameters by ``torch_names`` too
    (in order: the first name for the first parameter ...); with ``numpy_aliases``,
    ``axis=`` for ``dim=`` and ``keepdims=`` for ``keepdim=``; with ``out``, ``out=``
    (see out_argument.py), as PyTorch does."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def with_torch_keywords(*args: Any, **kwargs: Any) -> Any:
            if not kwargs:  # the common call: straight through
                return fn(*args)
            rename = _renames(fn, torch_names, numpy_aliases)
            for given in [k for k in kwargs if k in rename]:
                target = rename[given]
                if target in kwargs:
                    raise TypeError(
                        f"{fn.__name__}() got multiple values for argument '{target}' "
                        f"(Fix: pass either {given}= or {target}=)"
                    )
                kwargs[target] = kwargs.pop(given)
            if out and "out" in kwargs:
                written = kwargs.pop("out")  # (out=None is an ordinary call)
                if written is not None:
                    return call_with_out(fn.__name__, fn, args, kwargs, written)
            return fn(*args, **kwargs)

        return with_torch_keywords  # type: ignore[return-value]

    return decorate


_renames_of: dict[Any, dict[str, str]] = {}  # (fn, torch_names, numpy_aliases) -> renames


def _renames(fn: Any, torch_names: tuple[str, ...], numpy_aliases: bool) -> dict[str, str]:
    """PyTorch's (and numpy's) keyword name -> the parameter's name in ``fn``; worked out on
    ``fn``'s first call with keywords (``inspect.signature`` is slow: not at import)."""
    key = (fn, torch_names, numpy_aliases)
    rename = _renames_of.get(key)
    if rename is None:
        params = inspect.signature(fn).parameters
        positional = [
            p.name
            for p in params.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        rename = {t: p for t, p in zip(torch_names, positional) if t != p}
        if numpy_aliases:  # (only for the arguments it has: softmax takes no keepdims=)
            for alias, name in _NUMPY_ALIASES.items():
                if rename.get(name, name) in params:
                    rename[alias] = rename.get(name, name)
        _renames_of[key] = rename
    return rename


def without_torch_keywords(fn: F) -> F:
    """``fn`` itself, without the wrapper ``torch_keywords`` put around it (for the Tensor
    methods that take neither PyTorch's argument names nor ``out=``)."""
    return getattr(fn, "__wrapped__", fn)

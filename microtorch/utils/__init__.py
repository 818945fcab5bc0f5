"""``microtorch.utils``: ``data`` (datasets and the ``DataLoader``), imported on first use
(``torch.utils.data.DataLoader``: microtorch/_lazy.py)."""

from typing import TYPE_CHECKING, NoReturn

from microtorch import _lazy

__all__ = ["data"]

ON_FIRST_USE = _lazy.modules("microtorch.utils", "data")


def _not_found(name: str) -> NoReturn:
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _lazy.module_getattr(globals(), ON_FIRST_USE, _not_found)
    __dir__ = _lazy.module_dir(globals(), ON_FIRST_USE)

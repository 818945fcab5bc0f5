"""``Optimizer``: parameter groups, per-parameter state, ``zero_grad`` and ``state_dict``.

Subclasses implement ``step()``. Updates write each parameter's numpy array in place (what
``with torch.no_grad(): p.add_(...)`` does in PyTorch) and bump its version counter, so a
graph that saved the old value refuses to backward through it.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from microtorch.autograd.grad_mode import enable_grad
from microtorch.autograd.quiet import quiet_numpy
from microtorch.autograd.versions import bump_version
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["Optimizer", "required"]


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required: Any = _Required()  # a default that must be given (in the constructor or the group)


def _typename(value: Any) -> str:
    if isinstance(value, Tensor):
        return f"microtorch.{value._dtype._legacy}"
    return type(value).__name__


class Optimizer:
    """Base class: holds ``param_groups`` (dicts of params and settings) and ``state``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # microtorch's own optimizers step without numpy's warnings (an inf gradient makes an
        # inf or nan weight silently, as in PyTorch: see autograd/quiet.py); yours keep them.
        if "step" in cls.__dict__ and cls.__module__.startswith("microtorch."):
            cls.step = quiet_numpy(cls.__dict__["step"])  # type: ignore[method-assign]

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_typename(params)} (Fix: pass model.parameters() or [tensor])"
            )
        groups = list(params)
        if not groups:
            raise ValueError(
                "optimizer got an empty parameter list (Fix: check that your model registers "
                "its layers as attributes, so model.parameters() finds them)"
            )
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own settings (e.g. its own ``lr``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            params = list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(
                    f"optimizer can only optimize Tensors, but one of the params is {_typename(p)}"
                )
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        group = dict(param_group, params=params)
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(
                    f"parameter group didn't specify a value of required optimization parameter "
                    f"{name}"
                )
            group.setdefault(name, default)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear the gradients of every parameter (to None by default, as in PyTorch)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    p._grad._data[...] = 0
                    bump_version(p._grad)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; subclasses define the rule."""
        raise NotImplementedError

    def _closure(self, closure: Callable[[], Any] | None) -> Any:
        if closure is None:
            return None
        with enable_grad():
            return closure()

    # --- saving and restoring -----------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """``{'state': {index: {...}}, 'param_groups': [...]}``, params numbered in order."""
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what ``state_dict()`` returned (for an optimizer over the same params)."""
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for mine, saved in zip(self.param_groups, saved_groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size "
                    "of optimizer's group"
                )
        by_index = {
            i: p
            for mine, saved in zip(self.param_groups, saved_groups)
            for i, p in zip(saved["params"], mine["params"])
        }
        self.state = defaultdict(dict)
        for i, values in state_dict["state"].items():
            p = by_index.get(int(i))
            if p is None:
                continue
            self.state[p] = {k: _cast_like(v, p, k) for k, v in values.items()}
        for mine, saved in zip(self.param_groups, saved_groups):
            params = mine["params"]
            mine.clear()
            mine.update({k: copy.copy(v) for k, v in saved.items() if k != "params"})
            mine["params"] = params

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _cast_like(value: Any, param: Tensor, key: str) -> Any:
    # A copy of saved state in the parameter's dtype; 'step' keeps its own dtype, as in PyTorch.
    if not isinstance(value, Tensor):
        return value
    data = value._data.copy()
    if key != "step" and data.dtype.kind == "f":
        data = data.astype(param._data.dtype, copy=False)
    return plain_tensor(data, param._device)

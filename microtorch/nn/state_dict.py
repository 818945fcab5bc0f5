"""``Module.state_dict`` and ``Module.load_state_dict``: a model's values by dotted name.

``load_state_dict`` follows PyTorch's rules and error texts: every key is checked, then the
missing and unexpected keys are reported first, followed by each size mismatch.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping
from typing import Any

import numpy as np

from microtorch.autograd.versions import bump_version
from microtorch.nn.parameter import Parameter, UninitializedTensorMixin
from microtorch.tensor import Tensor

__all__ = ["state_dict", "load_state_dict"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it could not match."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _local(module: Any) -> list[tuple[str, Tensor]]:
    # The module's own entries: parameters, then persistent buffers (PyTorch's order).
    entries = [(n, p) for n, p in module._parameters.items() if p is not None]
    skip = module._non_persistent_buffers_set
    return entries + [(n, b) for n, b in module._buffers.items() if b is not None and n not in skip]


def state_dict(
    module: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False
) -> OrderedDict[str, Tensor]:
    """Every parameter and persistent buffer by dotted name (detached unless ``keep_vars``)."""
    out = OrderedDict() if destination is None else destination
    for mod_prefix, sub in module.named_modules(prefix=prefix.rstrip(".")):
        head = f"{mod_prefix}." if mod_prefix else ""
        for name, t in _local(sub):
            # (detach shares the memory; a lazy layer's placeholder is listed as it is)
            plain = keep_vars or isinstance(t, UninitializedTensorMixin)
            out[head + name] = t if plain else t.detach()
    return out


def load_state_dict(
    module: Any, state: Mapping[str, Any], strict: bool = True, assign: bool = False
) -> _IncompatibleKeys:
    """Copy ``state`` into ``module``'s parameters and buffers, in place.

    Unlike PyTorch, nothing is copied when any entry is rejected: a failed load leaves the
    model exactly as it was (PyTorch may have loaded some entries before raising).
    """
    if not isinstance(state, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state)}.")
    missing: list[str] = []
    unexpected: list[str] = []
    errors: list[str] = []
    copies: list[tuple[Any, str, Tensor, Any]] = []
    for prefix, sub in module.named_modules():
        head = f"{prefix}." if prefix else ""
        local = _local(sub)
        for name, target in local:
            key = head + name
            if key not in state:
                missing.append(key)
                continue
            error = _check_entry(target, state[key], key)
            if error:
                errors.append(error)
            else:
                copies.append((sub, name, target, state[key]))
        names = {n for n, _ in local}
        for key in state:
            if key.startswith(head):
                first = key[len(head) :].split(".", 1)[0]
                if first not in sub._modules and first not in names:
                    unexpected.append(key)
    if strict:
        if unexpected:
            keys = ", ".join(f'"{k}"' for k in unexpected)
            errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
        if missing:
            keys = ", ".join(f'"{k}"' for k in missing)
            errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
    if errors:
        raise RuntimeError(
            f"Error(s) in loading state_dict for {type(module).__name__}:\n\t" + "\n\t".join(errors)
        )
    for sub, name, target, value in copies:
        _copy_into(sub, name, target, value, assign)
    return _IncompatibleKeys(missing, unexpected)


def _check_entry(target: Tensor, value: Any, key: str) -> str:
    # PyTorch's checks for one entry; an error message, or "" if it can be loaded.
    if not isinstance(value, Tensor):
        return (
            f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
            f"object from checkpoint but received {type(value)}"
        )
    if isinstance(target, UninitializedTensorMixin):
        return ""  # a lazy layer's placeholder takes the saved shape
    if _fitted(target, value).shape != target._data.shape:
        return (
            f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
            f"the shape in current model is {target.shape}."
        )
    return ""


def _fitted(target: Tensor, value: Tensor) -> np.ndarray:
    data = value._data
    if target._data.ndim == 0 and data.ndim == 1 and data.shape[0] == 1:
        data = data.reshape(())  # PyTorch accepts shape [1] for a 0-d parameter
    return data


def _copy_into(module: Any, name: str, target: Tensor, value: Tensor, assign: bool) -> None:
    # One checked entry: an in-place copy (or, with assign=True, replacement).
    if isinstance(target, UninitializedTensorMixin):
        target.materialize(value._data.shape)
    data = _fitted(target, value)
    if assign:
        new = Parameter(value, target._rg) if isinstance(target, Parameter) else value
        setattr(module, name, new)
        return
    np.copyto(target._data, data, casting="unsafe")  # outside the graph, as under no_grad
    bump_version(target)

"""``Module``: the base class of every layer and model, with PyTorch's registration rules.

Assigning a ``Parameter``, a ``Module`` or a registered buffer to an attribute records it
in ``_parameters``, ``_modules`` or ``_buffers``, which ``parameters()``, ``state_dict()``
and ``print(model)`` walk. It is kept there only (as in PyTorch: code that writes
``module._parameters[name]`` directly is then always read back), so reading ``self.fc1``
goes through ``__getattr__``, which looks in the three registries.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import numpy as np

from microtorch import _coverage
from microtorch.api.legacy_types import dtype_of_type
from microtorch.autograd.function import _scope_stack
from microtorch.autograd.versions import bump_version
from microtorch.device import as_device
from microtorch.dtypes import dtype
from microtorch.nn import state_dict as _state
from microtorch.nn.backward_hooks import BackwardHook, register_old_hooks
from microtorch.nn.parameter import Buffer, Parameter
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["Module"]

_calling: list[Module] = []  # modules whose forward is running, outermost first
# each module -> the module it was first registered in, so ``model.out(h)`` called directly
# knows it is "out"; weak both ways: a dropped model is not kept alive by its layers
_owners: weakref.WeakKeyDictionary[Module, weakref.ref[Module]] = weakref.WeakKeyDictionary()


def _addindent(text: str, spaces: int) -> str:
    # Indent every line but the first (PyTorch's helper for nested reprs).
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    rest = [(" " * spaces + line) if line.strip() else "" for line in lines[1:]]
    return lines[0] + "\n" + "\n".join(rest)


def _typename(value: Any) -> str:
    if isinstance(value, Tensor):
        return f"microtorch.{value._dtype._legacy}"
    if type(value).__module__ == "builtins":  # PyTorch's 'int', not 'builtins.int'
        return type(value).__qualname__
    return f"{type(value).__module__}.{type(value).__qualname__}"


def _name_in_owner(module: Module) -> str:
    """``module``'s dotted name in the outermost model it was registered in ("" if none)."""
    root, seen = module, {id(module)}
    while (ref := _owners.get(root)) is not None:
        parent = ref()
        if parent is None or id(parent) in seen:
            break
        seen.add(id(parent))
        root = parent
    return "" if root is module else root._path_of(module)


class Module:
    """Base class for all neural-network modules: subclass it and define ``forward``.

    >>> import microtorch as torch
    >>> class Net(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = torch.nn.Linear(2, 1)
    ...     def forward(self, x):
    ...         return self.fc(x)
    >>> [name for name, _ in Net().named_parameters()]
    ['fc.weight', 'fc.bias']
    """

    training: bool

    def __init__(self) -> None:
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_hooks"] = {}
        d["_forward_pre_hooks"] = {}
        d["_backward_hooks"] = {}
        d["_backward_pre_hooks"] = {}
        d["_is_full_backward_hook"] = None

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """The computation; every subclass defines it."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    # --- calling ------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # The module's dotted name goes on the scope stack so graph nodes made inside its
        # forward know which layer made them (drawings group them); "" is the outermost model.
        # Called directly (``model.out(h)``), a layer is named from the model it belongs to.
        if _calling:
            parent = _calling[-1]
            local = parent._path_of(self)
            outer = _scope_stack[-1] if _scope_stack else ""
            name = f"{outer}.{local}" if outer else local
        else:
            name = _name_in_owner(self)
        _calling.append(self)
        _scope_stack.append(name)
        try:
            if (
                self._forward_pre_hooks
                or self._forward_hooks
                or self.__dict__.get("_backward_hooks")
                or self.__dict__.get("_backward_pre_hooks")
            ):
                return self._call_with_hooks(args, kwargs)
            return self.forward(*args, **kwargs)
        finally:
            _calling.pop()
            _scope_stack.pop()

    def _call_with_hooks(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        for hook in list(self._forward_pre_hooks.values()):
            new = hook(self, args)
            if new is not None:
                args = new if isinstance(new, tuple) else (new,)
        d = self.__dict__
        backward, pre = list(d.get("_backward_hooks", {}).values()), []
        pre = list(d.get("_backward_pre_hooks", {}).values())
        full = backward if d.get("_is_full_backward_hook") else []
        hook_call = None
        if full or pre:  # (see nn/backward_hooks.py)
            hook_call = BackwardHook(self, full, pre)
            args = hook_call.setup_input_hook(args)
        result = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            new = hook(self, args, result)
            if new is not None:
                result = new
        if hook_call is not None:
            result = hook_call.setup_output_hook(result)
        if backward and not full:
            register_old_hooks(self, backward, args, result)
        return result

    def _path_of(self, child: Module) -> str:
        # child's dotted path below this module ("fc1", "blocks.0"); a module called but not
        # registered below the caller is shown by its class name.
        for name, module in self._modules.items():  # the usual case: a direct child
            if module is child:
                return name
        for name, module in self.named_modules():
            if module is child and name:
                return name
        return type(child).__name__

    def register_forward_hook(self, hook: Callable[..., Any]) -> _Handle:
        """Call ``hook(module, args, output)`` after each forward; it may return a new output."""
        return _Handle.add(self._forward_hooks, hook)

    def register_forward_pre_hook(self, hook: Callable[..., Any]) -> _Handle:
        """Call ``hook(module, args)`` before each forward; it may return new args."""
        return _Handle.add(self._forward_pre_hooks, hook)

    def register_full_backward_hook(self, hook: Callable[..., Any]) -> _Handle:
        """Call ``hook(module, grad_input, grad_output)`` when the gradients of this module's
        inputs are computed; a tuple it returns replaces ``grad_input``."""
        if self.__dict__.get("_is_full_backward_hook") is False:
            raise RuntimeError(_BOTH_HOOKS)
        self.__dict__["_is_full_backward_hook"] = True
        return _Handle.add(self.__dict__.setdefault("_backward_hooks", {}), hook)

    def register_full_backward_pre_hook(self, hook: Callable[..., Any]) -> _Handle:
        """Call ``hook(module, grad_output)`` when the gradients of this module's outputs are
        computed; a tuple it returns replaces ``grad_output``."""
        return _Handle.add(self.__dict__.setdefault("_backward_pre_hooks", {}), hook)

    def register_backward_hook(self, hook: Callable[..., Any]) -> _Handle:
        """Deprecated (use ``register_full_backward_hook``): ``hook(module, grad_input,
        grad_output)`` with the gradients of the output's ``grad_fn`` only."""
        if self.__dict__.get("_is_full_backward_hook") is True:
            raise RuntimeError(_BOTH_HOOKS)
        self.__dict__["_is_full_backward_hook"] = False
        return _Handle.add(self.__dict__.setdefault("_backward_hooks", {}), hook)

    # --- registration -------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        # ``self.fc = nn.Linear(...)`` registers a module, ``self.w = nn.Parameter(...)`` a
        # parameter: they live in _modules and _parameters, where parameters() finds them.
        ready = "_parameters" in self.__dict__  # False until Module.__init__ has run
        if isinstance(value, (Parameter, Module)) and not ready:
            kind = "parameters" if isinstance(value, Parameter) else "module"
            raise AttributeError(
                f"cannot assign {kind} before Module.__init__() call (Fix: call "
                "super().__init__() first in your __init__)"
            )
        if isinstance(value, Parameter):
            self._forget(name, keep=self._parameters)  # a new weight keeps the old one's place
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            self._forget(name, keep=self._modules)
            self._modules[name] = value
            _owners.setdefault(value, weakref.ref(self))
        elif ready and name in self._parameters:
            _expect(value, None, f"as parameter '{name}' (torch.nn.Parameter or None expected)")
            self._parameters[name] = None
        elif ready and name in self._modules:
            _expect(value, None, f"as child module '{name}' (torch.nn.Module or None expected)")
            self._modules[name] = None
        elif isinstance(value, Buffer) and ready:  # nn.Buffer(t): registered
            self._forget(name, keep=self._buffers)  # (a buffer keeps its place)
            self.register_buffer(name, cast(Tensor, value), value.persistent)
        elif ready and name in self._buffers:
            _expect(value, Tensor, f"as buffer '{name}' (torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: dict[str, Any] | None = None) -> None:
        # Drop every other record of ``name``; the registry ``keep`` keeps its entry, and so
        # its place in parameters() and state_dict() order, as in PyTorch.
        for registry in (self._parameters, self._buffers, self._modules):
            if registry is not keep:
                registry.pop(name, None)
        self._non_persistent_buffers_set.discard(name)
        self.__dict__.pop(name, None)

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails: parameters, buffers and submodules, which
        # live in their registries alone (as in PyTorch), so ``self.weight`` comes here.
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if name in d.get(registry, ()):
                return d[registry][name]
        # PyTorch methods microtorch does not cover say what to use instead (see _coverage.py).
        raise _coverage.missing("torch.nn.Module", name, self, f"'{type(self).__name__}' object")

    def __delattr__(self, name: str) -> None:
        if name in self._parameters or name in self._buffers or name in self._modules:
            self._forget(name)
        else:
            object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add ``param`` under ``name`` (None reserves the name, as for ``bias=False``)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(self, name, "parameter", self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not learnable (saved in ``state_dict`` if persistent)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name(self, name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add ``module`` as a child called ``name``."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        _check_name(self, name, "module", self._modules)
        self._modules[name] = module
        if module is not None:
            _owners.setdefault(module, weakref.ref(self))

    register_module = add_module

    def get_submodule(self, target: str) -> Module:
        """The submodule at a dotted path such as ``'blocks.0'``."""
        module = self
        for item in target.split(".") if target else ():
            if item not in module._modules:
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at a dotted path such as ``'blocks.0.weight'``."""
        module, name = self._owner_of(target)
        found = getattr(module, name)
        if not isinstance(found, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return found

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at a dotted path such as ``'bn.running_mean'``."""
        module, name = self._owner_of(target)
        found = getattr(module, name)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return found

    def _owner_of(self, target: str) -> tuple[Module, str]:
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        return module, name

    # --- walking the tree ---------------------------------------------------------------
    def named_modules(
        self, memo: set[Module] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """Every module in the tree (this one first, as ``''``), depth first, with its path."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = f"{prefix}.{name}" if prefix else name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        """Every module in the tree, this one first."""
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """The direct submodules with their names."""
        seen: set[Module] = set()
        for name, m in self._modules.items():
            if m is not None and m not in seen:
                seen.add(m)
                yield name, m

    def children(self) -> Iterator[Module]:
        """The direct submodules."""
        for _, m in self.named_children():
            yield m

    def _named_members(
        self, registry: str, prefix: str, recurse: bool, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Any]]:
        seen: set[int] = set()
        walk = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for mod_prefix, module in walk:
            for name, value in module.__dict__[registry].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield (f"{mod_prefix}.{name}" if mod_prefix else name), value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """``('fc1.weight', Parameter)`` pairs in registration order; shared ones once."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Every learnable tensor in the tree: what you hand to an optimizer."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """``(name, buffer)`` pairs of the registered buffers."""
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Every registered buffer in the tree."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        """Call ``fn`` on every submodule (children first) and on this module."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # --- modes and gradients ------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Training mode (``Dropout`` active); ``train(False)`` is ``eval()``."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            m.__dict__["training"] = mode
        return self

    def eval(self) -> Module:
        """Evaluation mode (``Dropout`` does nothing)."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Switch gradient recording on or off for every parameter (freezing layers)."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear every parameter's ``.grad`` (to None by default, as in PyTorch)."""
        for p in self.parameters():
            if p._grad is None:
                continue
            if set_to_none:
                p._grad = None
            else:
                p._grad._data[...] = 0
                bump_version(p._grad)

    # --- state_dict (the work is in state_dict.py) -------------------------------------
    def state_dict(
        self, destination: Any = None, prefix: str = "", keep_vars: bool = False
    ) -> OrderedDict[str, Tensor]:
        """Every parameter and persistent buffer by dotted name, sharing memory with them."""
        return _state.state_dict(self, destination, prefix, keep_vars)

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> _state._IncompatibleKeys:
        """Copy values into the parameters and buffers; PyTorch's errors for mismatches."""
        return _state.load_state_dict(self, state_dict, strict, assign)

    # --- dtype and device ---------------------------------------------------------------
    def _tensors(self) -> Iterator[Tensor]:
        for module in self.modules():
            for t in list(module._parameters.values()) + list(module._buffers.values()):
                if t is not None:
                    yield t

    def _apply(self, convert: Callable[[np.ndarray], np.ndarray]) -> Module:
        for t in self._tensors():
            t.data = plain_tensor(convert(t._data), t._device)
            if t._grad is not None:
                t._grad = plain_tensor(convert(t._grad._data), t._device)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Convert floating parameters and buffers to a dtype; devices other than cpu fail."""

        target, where = kwargs.get("dtype"), kwargs.get("device")
        for a in args:
            if isinstance(a, dtype):
                target = a
            elif isinstance(a, Tensor):
                target, where = a._dtype, a._device
            else:
                where = a
        if where is not None:
            dev = as_device(where)  # PyTorch's error for 'cuda' on a machine without a GPU
            for t in self._tensors():
                t._device = dev
        if target is None:
            return self
        np_dtype = target.numpy
        return self._apply(lambda a: a.astype(np_dtype) if a.dtype.kind == "f" else a)

    def float(self) -> Module:
        """Floating parameters and buffers to float32."""
        return self._apply(lambda a: a.astype(np.float32) if a.dtype.kind == "f" else a)

    def double(self) -> Module:
        """Floating parameters and buffers to float64."""
        return self._apply(lambda a: a.astype(np.float64) if a.dtype.kind == "f" else a)

    def type(self, dst_type: Any) -> Module:
        """Every parameter and buffer (integer ones too) to ``dst_type``: ``torch.float32``,
        ``torch.float64`` or their legacy types (``torch.DoubleTensor``, ``"torch.FloatTensor"``).
        """
        target = dtype_of_type(dst_type)
        if target.name not in ("float32", "float64"):
            raise NotImplementedError(
                f"microtorch's Module.type converts a model to float32 or float64, not "
                f"{target.name} (Fix: model.float() or model.double())"
            )
        return self._apply(lambda a: a.astype(target.numpy))

    def cpu(self) -> Module:
        """Already on the cpu: returns the module itself."""
        return self

    def cuda(self, device: Any = None) -> Module:
        """``self.to("cuda")``: raises PyTorch's error, as there is no GPU here."""
        return self.to("cuda" if device is None else device)

    # --- printing -----------------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The text inside the parentheses, e.g. ``in_features=5, out_features=8``."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = []
        for key, module in self._modules.items():  # (a loop, not a comprehension: one frame
            child_lines.append(f"({key}): " + _addindent(repr(module), 2))  # less per level)
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __dir__(self) -> list[str]:
        return sorted(set(dir(type(self))) | set(self.__dict__))


_BOTH_HOOKS = (
    "Cannot use both regular backward hooks and full backward hooks on a single Module. Please "
    "use only one of them."
)


class _Handle:
    """Returned by ``register_forward_hook``; ``handle.remove()`` unregisters the hook."""

    _next = 0

    def __init__(self, hooks: dict[int, Any], key: int) -> None:
        self._hooks, self._key = hooks, key

    @classmethod
    def add(cls, hooks: dict[int, Any], hook: Callable[..., Any]) -> _Handle:
        cls._next += 1
        hooks[cls._next] = hook
        return cls(hooks, cls._next)

    def remove(self) -> None:
        self._hooks.pop(self._key, None)


def _check_name(module: Module, name: str, kind: str, registry: dict[str, Any]) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain ".", got: {name}')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    if name not in registry and (name in module.__dict__ or hasattr(type(module), name)):
        raise KeyError(f"attribute '{name}' already exists")


def _expect(value: Any, kind: type | None, what: str) -> None:
    # PyTorch's TypeError for assigning the wrong kind of value to a registered name.
    if value is not None and (kind is None or not isinstance(value, kind)):
        raise TypeError(f"cannot assign '{_typename(value)}' {what}")
